#include "compiler/support/Source.h"

#include <algorithm>
#include <tuple>

namespace ts {

Span Span::merge(const Span& a, const Span& b) {
    if (!a.valid()) return b;
    if (!b.valid()) return a;
    Span s = a;
    if (std::tie(b.line, b.col) < std::tie(s.line, s.col)) s.line = b.line, s.col = b.col;
    if (std::tie(b.endLine, b.endCol) > std::tie(s.endLine, s.endCol))
        s.endLine = b.endLine, s.endCol = b.endCol;
    return s;
}

SourceFile::SourceFile(std::string path, std::string text)
    : m_path(std::move(path)), m_text(std::move(text)) {
    // Python reads source with universal newlines: a lone carriage return (classic Mac OS line
    // ends) ends a line too. Rewritten in place, one byte for one, so byte offsets still match
    // the caller's text (the IDE's editor positions); "\r\n" stays as it is.
    for (size_t i = 0; i < m_text.size(); ++i)
        if (m_text[i] == '\r' && (i + 1 == m_text.size() || m_text[i + 1] != '\n')) m_text[i] = '\n';
    m_lineStarts.push_back(0);
    for (size_t i = 0; i < m_text.size(); ++i)
        if (m_text[i] == '\n') m_lineStarts.push_back(i + 1);
}

std::string_view SourceFile::lineText(uint32_t line) const {
    if (line == 0 || line > m_lineStarts.size()) return {};
    size_t b = m_lineStarts[line - 1];
    size_t e = line < m_lineStarts.size() ? m_lineStarts[line] : m_text.size();
    while (e > b && (m_text[e - 1] == '\n' || m_text[e - 1] == '\r')) --e;
    return std::string_view(m_text).substr(b, e - b);
}

}  // namespace ts
