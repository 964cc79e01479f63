// Source files and spans. Every AST and IR node carries a Span so diagnostics, the pass viewer
// and cross-highlighting can point back at the user's text (DESIGN.md §2).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

/// A half-open region of one source file. Lines and columns are 1-based; columns count bytes.
/// A default Span (line 0) means "no location" (compiler-made nodes without a user origin).
struct Span {
    uint32_t line = 0, col = 0;        ///< first character
    uint32_t endLine = 0, endCol = 0;  ///< one past the last character
    bool valid() const { return line != 0; }
    /// Smallest span covering both (invalid spans are ignored).
    static Span merge(const Span& a, const Span& b);
    bool operator==(const Span&) const = default;
};

/// An immutable source text with its path and a line index.
class SourceFile {
public:
    SourceFile(std::string path, std::string text);
    const std::string& path() const { return m_path; }
    const std::string& text() const { return m_text; }
    /// Text of 1-based line `line` without its newline; empty if out of range.
    std::string_view lineText(uint32_t line) const;
    uint32_t lineCount() const { return static_cast<uint32_t>(m_lineStarts.size()); }

private:
    std::string m_path, m_text;
    std::vector<size_t> m_lineStarts;
};

using SourcePtr = std::shared_ptr<const SourceFile>;

}  // namespace ts
