// The LDS reads of the HIP block GEMM (resources/ts_hip.h GemmSS::step), for the AMD bank model
// (Banks.h, BankRules::AmdLds): per wave, k-step and MFMA atom, the byte offset every lane reads
// its operand items from. The port of the header's addressing; like Ldmatrix.h for the CUDA
// GemmSS, it is what the bank analysis and the Banks panel see of a T.gemm on hip:gfx90a.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "compiler/analysis/Ldmatrix.h"

namespace ts::analysis {

/// One wave-wide LDS read of an MFMA operand: item `item` (0..3; or all four when bytes covers
/// them) of atom `index` (mi for A, ni for B) at k-step kk. laneOffset: byte offset from the
/// operand tile's base (swizzle applied) per lane.
struct MfmaOperandRead {
    char operand = 'A';
    int kk = 0, index = 0, item = 0;
    int bytes = 2;  ///< 2 (one 16-bit item, ds_read_u16) or 8 (the four items contiguous and
                    ///< 8-byte aligned for every lane: LLVM merges them into ds_read_b64)
    std::array<int64_t, 64> laneOffset{};
};

/// The reads of wave `wave` (0 <= wave < wm*wn) for one whole gemm_ss (every k-step), in issue
/// order (A atoms then B atoms per k-step). g.eltBytes must be 2 (fp16/bf16).
std::vector<MfmaOperandRead> mfmaOperandReads(const GemmSSShape& g, int wave);

}  // namespace ts::analysis
