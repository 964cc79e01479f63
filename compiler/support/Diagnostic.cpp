#include "compiler/support/Diagnostic.h"

#include <algorithm>

namespace ts {

void DiagnosticEngine::error(Span s, std::string msg, std::string hint, std::string origin) {
    m_diags.push_back({Severity::Error, s, std::move(msg), std::move(hint), std::move(origin)});
}
void DiagnosticEngine::warning(Span s, std::string msg, std::string hint, std::string origin) {
    m_diags.push_back({Severity::Warning, s, std::move(msg), std::move(hint), std::move(origin)});
}
bool DiagnosticEngine::hasErrors() const {
    return std::any_of(m_diags.begin(), m_diags.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

std::string formatDiagnostic(const Diagnostic& d, const SourceFile* src) {
    std::string out = src ? src->path() : std::string("<input>");
    if (d.span.valid()) out += ":" + std::to_string(d.span.line) + ":" + std::to_string(d.span.col);
    out += d.severity == Severity::Error     ? ": error: "
           : d.severity == Severity::Warning ? ": warning: "
                                             : ": note: ";
    out += d.message + "\n";
    if (src && d.span.valid()) {
        std::string_view line = src->lineText(d.span.line);
        out += "  " + std::string(line) + "\n  ";
        uint32_t c0 = std::max<uint32_t>(d.span.col, 1);
        for (uint32_t i = 1; i < c0; ++i)
            out += (i - 1 < line.size() && line[i - 1] == '\t') ? '\t' : ' ';
        uint32_t len = (d.span.endLine == d.span.line && d.span.endCol > d.span.col)
                           ? d.span.endCol - d.span.col
                           : 1;
        len = std::min<uint32_t>(
            len, std::max<uint32_t>(1, static_cast<uint32_t>(line.size()) + 1 -
                                           std::min<uint32_t>(c0, line.size() + 1)));
        out += "^" + std::string(len > 1 ? len - 1 : 0, '~') + "\n";
    }
    if (!d.hint.empty()) out += "  hint: " + d.hint + "\n";
    return out;
}

std::vector<Diagnostic> capErrors(std::vector<Diagnostic> all, size_t maxErrors) {
    size_t errors = 0, cut = all.size();
    for (size_t i = 0; i < all.size(); ++i)
        if (all[i].severity == Severity::Error && ++errors > maxErrors) {
            cut = i;
            break;
        }
    if (cut == all.size()) return all;
    size_t dropped = 0;
    for (size_t i = cut; i < all.size(); ++i) dropped += all[i].severity == Severity::Error;
    all.resize(cut);
    Diagnostic d;
    d.severity = Severity::Note;
    d.message = std::to_string(dropped) + " more error(s) not shown";
    d.hint = "fix the first errors; the rest are often consequences of them";
    all.push_back(std::move(d));
    return all;
}

}  // namespace ts
