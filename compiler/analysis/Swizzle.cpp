#include "compiler/analysis/Swizzle.h"

namespace ts::analysis {

int chooseSwizzleMode(int64_t rowBytes, int64_t rows) {
    if (rowBytes <= 0 || rowBytes % 16 != 0) return 0;
    if ((rowBytes * rows) % 128 != 0) return 0;
    // Rows narrower than 128 B share a line; the key then advances once per line, which still
    // separates 8 consecutive rows when rowBytes is 16, 32 or 64. Wider rows need multiples of
    // 128 B so that every row starts a new line.
    if (rowBytes >= 128 && rowBytes % 128 != 0) return 0;
    if (rowBytes < 128 && 128 % rowBytes != 0) return 0;
    return 128;
}

}  // namespace ts::analysis
