// Shared-memory swizzle: XOR of the 16-byte chunk index inside each 128-byte line with a row
// key, so the 8 rows read by one ldmatrix phase (or a column of 16-byte vectors) hit 8
// different 16-byte bank groups (32 banks x 4 B, CUDA C++ Programming Guide, "Shared Memory"
// in the compute capability 8.x/9.x sections). The same function is in resources/ts_device.cuh
// (`ts::swizzle<R, MODE>`); the two must stay identical.
#pragma once
#include <cstdint>

namespace ts::analysis {

/// Swizzle modes in bytes: 0 (none), 32, 64, 128 (how many low chunk bits are XORed: 1, 2, 3).
///
/// For a 2-D tile with rows of `rowBytes` bytes and a logical byte offset `o`:
///   key  = (rowBytes >= 128 ? o / rowBytes : o / 128) % 8
///   phys = o ^ ((key & (mode/16 - 1)) << 4)
/// A bijection on every 128-byte line; requires rowBytes to be a multiple of 16.
inline int64_t swizzleBytes(int64_t o, int64_t rowBytes, int mode) {
    if (mode == 0) return o;
    int64_t key = (rowBytes >= 128 ? o / rowBytes : o / 128) % 8;
    return o ^ ((key & (mode / 16 - 1)) << 4);
}

/// The widest mode that makes ldmatrix/16-byte column accesses conflict-free for a tile with
/// `rowBytes` rows of `rows` rows; 0 when the tile can't be swizzled (rowBytes not a multiple of
/// 16, or the tile size not a multiple of 128 bytes).
int chooseSwizzleMode(int64_t rowBytes, int64_t rows);

}  // namespace ts::analysis
