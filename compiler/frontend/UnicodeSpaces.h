// Non-ASCII spaces and invisible characters in Python source. CPython rejects them outside
// strings and comments ("invalid non-printable character U+00A0"); they arrive pasted from web
// pages, chat and word processors and look exactly like (or hide next to) a plain space, so the
// lexer names the character instead of folding it into an identifier (fresh-user trial
// 2026-12-04: `B[i] =<U+00A0>A[i]` was reported as "name ' A' is not defined").
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ts::fe {

struct UnicodeSpace {
    uint32_t codePoint;
    std::string_view name;  ///< the Unicode character name, e.g. "NO-BREAK SPACE"
    bool invisible;         ///< zero width: the fix is to delete it, not to replace it
};

/// The character starting at byte `pos` of `text` when it is one of these (with its UTF-8 length
/// in `bytes`); nullptr otherwise.
const UnicodeSpace* unicodeSpaceAt(std::string_view text, size_t pos, size_t& bytes);

/// "U+00A0 NO-BREAK SPACE".
std::string codePointText(const UnicodeSpace& s);

}  // namespace ts::fe
