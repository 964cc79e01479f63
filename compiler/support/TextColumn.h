// Character columns for text shown to people. Spans count bytes (UTF-8 code units: the lexer, the
// passes and the IDE's editor positions, QScintilla's included, all use bytes); a person counts
// characters, so printed columns and caret runs count code points (formatDiagnostic, the CLI).
#pragma once
#include <cstdint>
#include <string_view>

namespace ts {

/// Number of code points in `s` (UTF-8): the bytes that are not continuation bytes (10xxxxxx).
uint32_t codePointCount(std::string_view s);

/// The 1-based code-point column of 1-based byte column `byteCol` of the line text `line`
/// (`s = "é"; x`: x is byte 11, character 10). Columns past the end of the line count one per
/// byte there (the newline, end of file). Equal to `byteCol` on ASCII text.
uint32_t charColumn(std::string_view line, uint32_t byteCol);

/// Terminal columns of the UTF-8 text `s` (the caret line under an echoed source line): 2 for an
/// East Asian wide or fullwidth character or an emoji (Unicode Standard Annex #11, W and F), 0
/// for a combining mark or a zero-width character (U+200B..U+200F, U+FE00..U+FE0F), 1 otherwise.
uint32_t displayWidth(std::string_view s);

}  // namespace ts
