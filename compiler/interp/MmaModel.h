// What one T.gemm adds to an accumulator element, as both interpreters (tile-level TileOps.cpp
// and thread-level ThreadIntrinsics.cpp) model the mma.sync atoms of
// analysis::selectMmaAtom, so that the two agree with each other exactly and with the GPU up to
// the hardware's internal accumulation order.
//
// Model (the PTX ISA, §9.7.14 mma, leaves the internal precision of the accumulation
// unspecified): operands enter as analysis::mmaOperandValue gives them (tf32 rounding for
// float32, exact otherwise: fp16/bf16/fp8/int8 products are exact); one instruction covers
// kStep = atom K consecutive k; its products and the incoming accumulator are summed exactly and
// rounded once to the accumulator dtype (round to nearest even for f32/f16; int32 exact). Real
// tensor cores align and truncate inside the sum (Fasi et al., "Numerical behavior of NVIDIA
// tensor cores", PeerJ CS 2021), so the GPU can differ in the last bit of a step; for fp8 below
// sm_89 the device runs each k32 atom as two k16 instructions (one more rounding per 16 k).
// With an f16 accumulator this per-step rounding is what makes fp16 accumulation lose
// precision as K grows, which a single rounding at the end would hide.
#pragma once
#include <cstdint>

#include "compiler/interp/Machine.h"

namespace ts::interp::detail {

/// c + sum_k a[k*as] * b[k*bs] over k < K, in K/kStep instructions of kStep products each
/// (kStep <= 0 or > K: one), each rounded to cType. a, b: operand values already passed
/// through analysis::mmaOperandValue.
inline double mmaAccumulate(double c, const double* a, int64_t as, const double* b, int64_t bs,
                            int64_t K, int64_t kStep, ir::DType cType) {
    if (kStep <= 0 || kStep > K) kStep = K;
    for (int64_t k0 = 0; k0 < K; k0 += kStep) {
        double s = 0;
        const int64_t end = k0 + kStep < K ? k0 + kStep : K;
        for (int64_t k = k0; k < end; ++k) s += a[k * as] * b[k * bs];
        c = roundValue(cType, c + s);
    }
    return c;
}

}  // namespace ts::interp::detail
