// Errors inside a @T.macro name the call that expanded it (helper-130 #5): the same macro body
// is elaborated once per call, with different arguments, so "name 'x' is not defined" or a shape
// mismatch at the body's line alone does not say which call to look at.
#include "compiler/frontend/Elaborator.h"

#include <string>
#include <vector>

namespace ts::fe {
namespace elab {

namespace {

bool within(const Span& inner, const Span& outer) {
    if (!inner.valid() || !outer.valid()) return false;
    auto before = [](uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) { return l1 < l2 || (l1 == l2 && c1 <= c2); };
    return before(outer.line, outer.col, inner.line, inner.col) && before(inner.line, inner.col, outer.endLine, outer.endCol);
}

constexpr const char* kMarker = " (in @T.macro '";

// First level: "msg (in @T.macro 'inner' called at line L:C)"; each enclosing macro adds
// ", from 'outer' at line L:C" before the closing parenthesis.
void noteCall(Diagnostic& d, const FunctionObj& f, const Span& call, const Span& body) {
    const std::string at = "line " + std::to_string(call.line) + ":" + std::to_string(call.col);
    const bool nested = d.message.find(kMarker) != std::string::npos && !d.message.empty() && d.message.back() == ')';
    if (nested) {
        d.message.insert(d.message.size() - 1, ", from '" + f.name + "' at " + at);
    } else if (within(d.span, body)) {
        d.message += std::string(kMarker) + f.name + "' called at " + at + ")";
    }
}

}  // namespace

Value Elaborator::callMacro(const FunctionObj& f, CallArgs& args) {
    const bool outer = m_kernelMode;
    m_kernelMode = true;
    const Span body = f.def ? f.def->span : Span{};
    const size_t before = diags().all().size();
    auto noteNew = [&] {
        if (diags().all().size() == before) return;
        std::vector<Diagnostic> all = diags().take();
        for (size_t i = before; i < all.size(); ++i) noteCall(all[i], f, args.span, body);
        for (auto& d : all) diags().add(std::move(d));
    };
    try {
        Value v = callFunction(f, args);
        m_kernelMode = outer;
        noteNew();
        return v;
    } catch (CompileError& e) {
        m_kernelMode = outer;
        noteNew();
        noteCall(e.diag, f, args.span, body);
        throw;
    } catch (...) {
        m_kernelMode = outer;
        throw;
    }
}

}  // namespace elab
}  // namespace ts::fe
