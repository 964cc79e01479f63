// Inputs for a checked kernel run: seeded random tensors for every input parameter and "poison"
// for outputs. Random data is produced by a portable generator (SplitMix64, not <random>
// distributions, whose output differs between standard libraries), so a seed printed by tilec on
// one machine reproduces the same inputs on any other, and in the interpreter.
// Poison makes an output element the kernel forgot to write stand out: NaN for float outputs
// (fails the comparison by itself), 0x7F7F... for integers (an implausible value).
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/support/HostTensor.h"
#include "profiler/cuda/Launch.h"

namespace ts::rt {

/// How random inputs are drawn.
struct InputOptions {
    uint64_t seed = 0x5eed;  ///< fixed seed; same seed + same signature = same tensors
    bool fresh = false;      ///< ignore `seed` and draw one from the clock (see freshSeed)
    double floatLo = -1.0;   ///< float values are uniform in [floatLo, floatHi), then rounded
    double floatHi = 1.0;    ///< to the dtype (so e.g. float16 inputs are exact float16 values)
};

/// Inputs for one run plus the seed that produced them (report it so a failure can be replayed).
struct InputSet {
    uint64_t seed = 0;
    /// One tensor per signature entry, in order. Inputs carry data; outputs carry dtype and shape
    /// only (empty data), to be poisoned on the device. Dynamic (negative) extents are an error.
    std::vector<HostTensor> tensors;
};

/// A seed from the system clock mixed with a counter (distinct across quick successive calls).
uint64_t freshSeed();

/// The integer range random inputs of `t` use: [-8, 8] for signed ints, [0, 8] for unsigned
/// (small, so integer GEMMs stay far from overflow), the full range for int4 [-8, 7] and uint4
/// [0, 15], {0, 1} for bool. Returns {lo, hi} inclusive; meaningless for float dtypes.
std::pair<int64_t, int64_t> intInputRange(ir::DType t);

/// A random tensor for parameter `p`, deterministic in (seed, paramIndex). Floats are uniform in
/// [opt.floatLo, opt.floatHi) rounded to the dtype; integers uniform in intInputRange.
/// Throws std::invalid_argument if p.shape has a negative (dynamic) extent.
HostTensor randomTensor(const TensorParam& p, uint64_t seed, size_t paramIndex,
                        const InputOptions& opt = {});

/// Random tensors for every non-output parameter of `signature` (see InputSet).
InputSet makeInputs(const std::vector<TensorParam>& signature, const InputOptions& opt = {});

/// The byte repeated over an output buffer before launch: 0xFF for floats (a NaN in every float
/// format: f16/bf16/f32/f64 all-ones is a quiet NaN, e4m3 0xFF is its NaN, e5m2 0xFF is NaN), 0x7F
/// for integers and bool (0x7F, 0x7F7F, ...: int4 nibbles 7 and 0xF).
uint8_t poisonByte(ir::DType t);

/// encodedSize(t, numel) poison bytes (for hosts that poison before upload).
std::vector<uint8_t> poisonBytes(ir::DType t, int64_t numel);

}  // namespace ts::rt
