#include "compiler/frontend/UnicodeSpaces.h"

#include <array>
#include <cstdio>
#include <string>

namespace ts::fe {
namespace {

// Unicode's White_Space characters outside ASCII, then the zero-width ones that editors do not
// show (U+FEFF is the byte order mark: accepted only as the file's first character, which the
// lexer skips before looking here), then the invisible format characters (general category Cf)
// CPython refuses as "invalid non-printable character", the bidirectional controls among them
// (U+202E RIGHT-TO-LEFT OVERRIDE can make code read differently from how it runs).
constexpr std::array<UnicodeSpace, 41> kSpaces{{
    {0x0085, "NEXT LINE", false},
    {0x00A0, "NO-BREAK SPACE", false},
    {0x1680, "OGHAM SPACE MARK", false},
    {0x2000, "EN QUAD", false},
    {0x2001, "EM QUAD", false},
    {0x2002, "EN SPACE", false},
    {0x2003, "EM SPACE", false},
    {0x2004, "THREE-PER-EM SPACE", false},
    {0x2005, "FOUR-PER-EM SPACE", false},
    {0x2006, "SIX-PER-EM SPACE", false},
    {0x2007, "FIGURE SPACE", false},
    {0x2008, "PUNCTUATION SPACE", false},
    {0x2009, "THIN SPACE", false},
    {0x200A, "HAIR SPACE", false},
    {0x2028, "LINE SEPARATOR", false},
    {0x2029, "PARAGRAPH SEPARATOR", false},
    {0x202F, "NARROW NO-BREAK SPACE", false},
    {0x205F, "MEDIUM MATHEMATICAL SPACE", false},
    {0x3000, "IDEOGRAPHIC SPACE", false},
    {0x200B, "ZERO WIDTH SPACE", true},
    {0x2060, "WORD JOINER", true},
    {0xFEFF, "ZERO WIDTH NO-BREAK SPACE", true},
    {0x00AD, "SOFT HYPHEN", true},
    {0x180E, "MONGOLIAN VOWEL SEPARATOR", true},
    {0x200C, "ZERO WIDTH NON-JOINER", true},
    {0x200D, "ZERO WIDTH JOINER", true},
    {0x200E, "LEFT-TO-RIGHT MARK", true},
    {0x200F, "RIGHT-TO-LEFT MARK", true},
    {0x202A, "LEFT-TO-RIGHT EMBEDDING", true},
    {0x202B, "RIGHT-TO-LEFT EMBEDDING", true},
    {0x202C, "POP DIRECTIONAL FORMATTING", true},
    {0x202D, "LEFT-TO-RIGHT OVERRIDE", true},
    {0x202E, "RIGHT-TO-LEFT OVERRIDE", true},
    {0x2061, "FUNCTION APPLICATION", true},
    {0x2062, "INVISIBLE TIMES", true},
    {0x2063, "INVISIBLE SEPARATOR", true},
    {0x2064, "INVISIBLE PLUS", true},
    {0x2066, "LEFT-TO-RIGHT ISOLATE", true},
    {0x2067, "RIGHT-TO-LEFT ISOLATE", true},
    {0x2068, "FIRST STRONG ISOLATE", true},
    {0x2069, "POP DIRECTIONAL ISOLATE", true},
}};

}  // namespace

const UnicodeSpace* unicodeSpaceAt(std::string_view text, size_t pos, size_t& bytes) {
    if (pos >= text.size()) return nullptr;
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[pos + i]); };
    const unsigned char b0 = byte(0);
    // Every character of the table is 2 or 3 bytes long in UTF-8.
    size_t n = (b0 & 0xE0) == 0xC0 ? 2 : (b0 & 0xF0) == 0xE0 ? 3 : 0;
    if (n == 0 || pos + n > text.size()) return nullptr;
    uint32_t cp = b0 & (n == 2 ? 0x1F : 0x0F);
    for (size_t i = 1; i < n; ++i) {
        if ((byte(i) & 0xC0) != 0x80) return nullptr;
        cp = cp << 6 | (byte(i) & 0x3F);
    }
    for (const auto& s : kSpaces)
        if (s.codePoint == cp) {
            bytes = n;
            return &s;
        }
    return nullptr;
}

std::string codePointText(const UnicodeSpace& s) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "%04X", static_cast<unsigned>(s.codePoint));
    return "U+" + std::string(hex) + " " + std::string(s.name);
}

}  // namespace ts::fe
