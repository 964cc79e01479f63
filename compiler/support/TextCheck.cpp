#include "compiler/support/TextCheck.h"

namespace ts {

std::optional<NonTextByte> firstNonTextByte(const std::string& t) {
    uint32_t line = 1, col = 1;
    for (size_t i = 0; i < t.size();) {
        const auto c = static_cast<unsigned char>(t[i]);
        size_t len = c < 0x80           ? 1
                     : (c >> 5) == 0x6  ? 2
                     : (c >> 4) == 0xE  ? 3
                     : (c >> 3) == 0x1E ? 4
                                        : 0;
        bool ok = c != 0 && len != 0 && i + len <= t.size();
        for (size_t k = 1; ok && k < len; ++k)
            ok = (static_cast<unsigned char>(t[i + k]) >> 6) == 0x2;
        // Well-formed UTF-8 only (Unicode Standard, Table 3-7): no overlong forms (C0, C1; E0 80..9F;
        // F0 80..8F), no surrogates (ED A0..BF), nothing past U+10FFFF (F4 90..BF; F5..FF).
        if (ok && len >= 2) {
            const auto c1 = static_cast<unsigned char>(t[i + 1]);
            ok = !(c == 0xC0 || c == 0xC1 || (c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) ||
                   (c == 0xF4 && c1 >= 0x90) || c >= 0xF5);
        }
        if (!ok) {
            NonTextByte n;
            n.at.line = line, n.at.col = col;
            n.at.endLine = line, n.at.endCol = col + 1;
            n.offset = i;
            n.byte = c;
            return n;
        }
        if (c == '\n')
            ++line, col = 1;
        else
            col += static_cast<uint32_t>(len);
        i += len;
    }
    return std::nullopt;
}

}  // namespace ts
