// Factory parameter values as text (Module.h): a value written back as `--param` text, and the
// `T.*` op or module-level function a text names (parseParamValue, which reads literals, stays in
// Module.cpp beside them).
#include <cctype>

#include "compiler/frontend/Module.h"
#include "compiler/frontend/Parser.h"

namespace ts::fe {

std::string paramText(const Value& v) {
    if (v.is(ValueKind::Builtin)) return v.builtinObj().name;
    if (v.is(ValueKind::Function)) return v.functionObj().name;
    return repr(v);
}

std::optional<Value> callableNamed(Interp& in, const EnvPtr& globals, const std::string& text) {
    std::string t = text;
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.erase(t.begin());
    if (t.empty() || t.front() == '.' || t.back() == '.' ||
        t.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != std::string::npos)
        return std::nullopt;
    DiagnosticEngine d;
    auto parsed = parseExpression(std::make_shared<SourceFile>("<param>", t), d);
    if (!parsed.expr || d.hasErrors()) return std::nullopt;
    // `T.` is the tile language whatever the file imports it as (`import tilelang.language as tl`).
    auto scope = std::make_shared<Env>();
    scope->parent = globals;
    if (t.rfind("T.", 0) == 0) scope->vars["T"] = Value::ns(in.module("tilelang.language"));
    try {
        Value v = in.eval(*parsed.expr, scope);
        if (v.is(ValueKind::Builtin) && v.builtinObj().name.rfind("T.", 0) == 0) return v;
        if (v.is(ValueKind::Function) && t.find('.') == std::string::npos) return v;
    } catch (const CompileError&) {
    }
    return std::nullopt;
}

}  // namespace ts::fe
