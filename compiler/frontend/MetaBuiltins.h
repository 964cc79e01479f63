// Internal helpers shared by the meta-evaluator's builtins, methods and modules
// (MetaBuiltins.cpp, MetaMethods.cpp, MetaModules.cpp): argument coercion with Python-style
// messages, ordering, calling back into user code, and str.format's mini-language. The
// elaborator may use them for its own T.* builtins.
#pragma once
#include <string>
#include <vector>

#include "compiler/frontend/MetaValue.h"

namespace ts::fe {
class Interp;

/// A `with` item that only marks a region for an external tracing tool, which TileScope does
/// not emit: `iket.range("name")` of tilelang.tools.cuda (TileLang's instrumentation kit). A
/// kernel `with T.Kernel(...) as bx, iket.range("total"):` compiles as the T.Kernel alone.
class InstrumentationScope final : public ExtValue {
public:
    explicit InstrumentationScope(std::string tool) : tool(std::move(tool)) {}
    std::string typeName() const override { return tool + ".range"; }
    std::string tool;
};

namespace meta {

/// Positional argument `i` as an int; otherwise "callee() <what> must be an int, not float".
int64_t needInt(const CallArgs& a, size_t i, const std::string& what);
/// Positional argument `i` as a float (ints promote); ExtValues get a "use T.*" hint.
double needFloat(const CallArgs& a, size_t i);
/// `a < b` with Python ordering rules (TypeError-style diagnostic for unorderable kinds).
bool less(Interp& in, const Value& a, const Value& b, Span s);
/// Calls `fn(args...)` with all spans set to `s`.
Value callWith(Interp& in, const Value& fn, std::vector<Value> args, Span s,
               const std::string& name);
/// Truncates toward zero; NaN, infinities and out-of-range values are diagnostics.
int64_t floatToInt(double f, Span s);
/// Python's format(value, spec) for the common specs
/// ([[fill]align][sign][0][width][,][.prec][type]).
std::string formatWithSpec(const Value& v, const std::string& spec, Span s);
/// str.format(*args, **kwargs) for "{}", "{0}", "{name}", "{x!r}", "{x:.2f}" fields.
std::string strFormat(const std::string& fmt, const CallArgs& a);
/// Stable sort with optional key function and reverse flag, like sorted().
void sortValues(Interp& in, std::vector<Value>& items, const Value* key, bool reverse, Span s);

}  // namespace meta
}  // namespace ts::fe
