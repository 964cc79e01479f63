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
    // Recorded for later passes' errors at the body's lines (nameMacroCalls).
    std::string chain = "'" + f.name + "' called at line " + std::to_string(args.span.line) + ":" + std::to_string(args.span.col);
    for (auto it = m_macroStack.rbegin(); it != m_macroStack.rend(); ++it)
        chain += ", from '" + it->first + "' at line " + std::to_string(it->second.line) + ":" + std::to_string(it->second.col);
    m_macroCalls.push_back({body, f.name, chain});
    m_macroStack.emplace_back(f.name, args.span);
    struct Pop {
        std::vector<std::pair<std::string, Span>>& s;
        ~Pop() { s.pop_back(); }
    } pop{m_macroStack};
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

void nameMacroCalls(std::vector<Diagnostic>& diags, const std::vector<MacroCall>& calls) {
    for (Diagnostic& d : diags) {
        if ((d.severity != Severity::Error && d.severity != Severity::Warning) || !d.span.valid() ||
            d.message.find(elab::kMarker) != std::string::npos)
            continue;
        // The innermost body holding the line: the one that starts last.
        const MacroCall* inner = nullptr;
        for (const MacroCall& c : calls)
            if (elab::within(d.span, c.body) && (!inner || c.body.line > inner->body.line ||
                                                 (c.body.line == inner->body.line && c.body.col > inner->body.col)))
                inner = &c;
        if (!inner) continue;
        std::vector<const MacroCall*> same;
        for (const MacroCall& c : calls)
            if (c.body.line == inner->body.line && c.body.col == inner->body.col && c.name == inner->name) same.push_back(&c);
        if (same.size() == 1) {
            d.message += std::string(elab::kMarker) + inner->chain.substr(1) + ")";
            continue;
        }
        std::string list;
        for (size_t i = 0; i < same.size() && i < 4; ++i) {
            const std::string& ch = same[i]->chain;
            std::string site = ch.substr(ch.find(" called at ") + 11);  // "line 30:9[, from ...]"
            list += (i ? ", " : "") + site.substr(0, site.find(", from"));
        }
        if (same.size() > 4) list += ", ...";
        d.message += std::string(elab::kMarker) + inner->name + "', one of its " + std::to_string(same.size()) + " calls: " + list + ")";
    }
}

}  // namespace ts::fe
