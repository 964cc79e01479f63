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

namespace {
/// The code point at s[i] (UTF-8; a malformed byte counts as itself) and its length in bytes.
char32_t decodeAt(std::string_view s, size_t i, size_t& len) {
    const auto c = static_cast<unsigned char>(s[i]);
    len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    if (i + len > s.size()) len = 1;
    if (len == 1) return c;
    char32_t cp = c & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    return cp;
}
uint32_t widthOf(char32_t cp) {
    if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0xFE00 && cp <= 0xFE0F)) return 0;
    static const char32_t wide[][2] = {
        {0x1100, 0x115F},   {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF}, {0x4E00, 0x9FFF},
        {0xA000, 0xA4CF},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE30, 0xFE4F}, {0xFF00, 0xFF60},
        {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
    };
    for (auto& r : wide)
        if (cp >= r[0] && cp <= r[1]) return 2;
    return 1;
}
}  // namespace

uint32_t displayWidth(std::string_view s) {
    uint32_t w = 0;
    for (size_t i = 0, len = 0; i < s.size(); i += len) w += widthOf(decodeAt(s, i, len));
    return w;
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
