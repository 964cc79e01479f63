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
