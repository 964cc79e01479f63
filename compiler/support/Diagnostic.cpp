#include "compiler/support/Diagnostic.h"

#include <algorithm>

#include "compiler/support/TextColumn.h"

namespace ts {

namespace {
/// The same message at the same place said twice (one access both read and written, as in
/// `C_local[0, 0] += 1`, meets a layout check twice): the user needs it once.
bool repeated(const std::vector<Diagnostic>& all, Severity sev, const Span& s, const std::string& msg) {
    return std::any_of(all.begin(), all.end(), [&](const Diagnostic& d) { return d.severity == sev && d.span == s && d.message == msg; });
}
}  // namespace

void DiagnosticEngine::error(Span s, std::string msg, std::string hint, std::string origin) {
    if (repeated(m_diags, Severity::Error, s, msg)) return;
    m_diags.push_back({Severity::Error, s, std::move(msg), std::move(hint), std::move(origin)});
}
void DiagnosticEngine::warning(Span s, std::string msg, std::string hint, std::string origin) {
    if (repeated(m_diags, Severity::Warning, s, msg)) return;
    m_diags.push_back({Severity::Warning, s, std::move(msg), std::move(hint), std::move(origin)});
}
bool DiagnosticEngine::hasErrors() const {
    return std::any_of(m_diags.begin(), m_diags.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

namespace {
/// Whether `s` is valid UTF-8 without control characters other than tab and carriage return.
bool printableText(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7F) return false;
            ++i;
            continue;
        }
        size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (len == 0 || i + len > s.size()) return false;
        for (size_t k = 1; k < len; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
        i += len;
    }
    return true;
}
}  // namespace

// The echoed source line of a diagnostic: at most this many bytes of a longer line, the span's
// first kMaxEchoSpan bytes with kEchoContext bytes either side.
constexpr size_t kMaxEchoBytes = 240, kEchoContext = 80, kMaxEchoSpan = 120;

std::string formatDiagnostic(const Diagnostic& d, const SourceFile* src) {
    std::string out = src ? src->path() : std::string("<input>");
    std::string_view line = src && d.span.valid() ? src->lineText(d.span.line) : std::string_view();
    const bool text = src && d.span.valid() && printableText(line);
    // Spans count bytes; people count characters: `s = "ééééé"; t = undefined_nm` names
    // undefined_nm at column 22, not at its byte 27. A line that is not UTF-8 text keeps the
    // byte column (its characters are unknown; the non-text error gives the byte offset too).
    if (d.span.valid())
        out += ":" + std::to_string(d.span.line) + ":" +
               std::to_string(text ? charColumn(line, d.span.col) : d.span.col);
    out += d.severity == Severity::Error     ? ": error: "
           : d.severity == Severity::Warning ? ": warning: "
                                             : ": note: ";
    out += d.message + "\n";
    // A line that is not printable text (a binary file, another encoding, terminal escapes) is
    // not echoed: its bytes would garble the terminal and say nothing (the message gives the
    // position).
    if (text) {
        // Bytes of the line before the span, and the span's bytes (up to one past the line's
        // end: a missing ':' is marked after the last character).
        const uint32_t c0 = std::max<uint32_t>(d.span.col, 1);
        uint32_t len = (d.span.endLine == d.span.line && d.span.endCol > d.span.col)
                           ? d.span.endCol - d.span.col
                           : 1;
        len = std::min<uint32_t>(
            len, std::max<uint32_t>(1, static_cast<uint32_t>(line.size()) + 1 -
                                           std::min<uint32_t>(c0, line.size() + 1)));
        size_t before = c0 - 1;
        // A very long line (a generated expression of 60k characters printed an 80 KB caret
        // line) is shown around the span, "... " and " ..." marking what was left out.
        auto continuation = [&](size_t i) { return i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80; };
        bool head = false, tail = false;
        if (line.size() > kMaxEchoBytes) {
            size_t from = before > kEchoContext ? before - kEchoContext : 0;
            while (from > 0 && continuation(from)) --from;
            size_t to = std::min(line.size(), before + std::min<size_t>(len, kMaxEchoSpan) + kEchoContext);
            while (to < line.size() && continuation(to)) ++to;
            head = from > 0, tail = to < line.size();
            if (before < line.size() && before + len > to) len = static_cast<uint32_t>(std::max<size_t>(1, to - std::min(before, to)));
            line = line.substr(from, to - from);
            before -= std::min(before, from);
        }
        out += "  " + std::string(head ? "... " : "") + std::string(line) + (tail ? " ..." : "") + "\n  " + (head ? "    " : "");
        // Pads and marks by terminal columns (TextColumn.h displayWidth), not bytes: a 2-byte 'é'
        // before the span is one column, a CJK character or an emoji two, a zero-width U+200B
        // none; every marked character gets at least one mark (a zero-width one too, so it can
        // be seen). Tabs stay tabs so the caret lines up with the echoed line.
        for (size_t i = 0; i < std::min(before, line.size());) {
            size_t n = 1;
            while (continuation(i + n)) ++n;
            if (line[i] == '\t') out += '\t';
            else out += std::string(displayWidth(line.substr(i, n)), ' ');
            i += n;
        }
        if (before > line.size()) out += std::string(before - line.size(), ' ');
        const size_t inLine = before < line.size() ? std::min<size_t>(len, line.size() - before) : 0;
        uint32_t marks = 0;
        const std::string_view span = line.substr(std::min(before, line.size()), inLine);
        for (size_t i = 0; i < span.size();) {
            size_t n = 1;
            while (i + n < span.size() && (static_cast<unsigned char>(span[i + n]) & 0xC0) == 0x80) ++n;
            marks += std::max<uint32_t>(1, displayWidth(span.substr(i, n)));
            i += n;
        }
        marks += static_cast<uint32_t>(len - inLine);  // bytes past the line's end
        marks = std::max<uint32_t>(marks, 1);
        out += "^" + std::string(marks - 1, '~') + "\n";
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
    d.origin = "errors";  // a note about the errors (tilec --quiet keeps it)
    all.push_back(std::move(d));
    return all;
}

}  // namespace ts
