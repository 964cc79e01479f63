#include "compiler/support/Source.h"
#include "compiler/support/TextColumn.h"

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

uint32_t codePointCount(std::string_view s) {
    return static_cast<uint32_t>(std::count_if(s.begin(), s.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

uint32_t charColumn(std::string_view line, uint32_t byteCol) {
    if (byteCol <= 1) return byteCol;
    const size_t before = byteCol - 1;  // bytes before the column
    if (before <= line.size()) return codePointCount(line.substr(0, before)) + 1;
    return codePointCount(line) + static_cast<uint32_t>(before - line.size()) + 1;
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
