// How one input tensor is filled instead of uniform random values (Inputs.h): integer inputs such
// as sequence offsets, block indices or group sizes must be valid for the kernel (and its
// reference), which random values are not. Written `NAME=RULE` (tilec run --input, the
// conformance catalogue's "inputs"); RULE is one of
//   offsets:TOTAL     a nondecreasing sequence from 0 to TOTAL (cu_seqlens of a varlen batch:
//                     entry b+1 - entry b is sequence b's length), random cut points
//   offsets:TOTAL:MAX the same with every length at most MAX (a kernel sized by max_seqlen)
//   int:LO:HI         uniform integers in [LO, HI) (torch.randint's convention)
//   uniform:LO:HI     floats uniform in [LO, HI), rounded to the dtype (the default range is
//                     [-1, 1)): operands a file normalizes (F.normalize over a 128-wide head:
//                     entries ~0.09) or gates it makes nonpositive (logsigmoid), where [-1, 1)
//                     values grow a recurrence's state past float16's range
//   distinct:N        each row (last dimension) holds distinct values of [0, N), sorted
//                     (top-k or block indices); the row length must be at most N
//   fill:V            every element V
//   arange            0, 1, 2, ... in row-major order
//   values:V1,V2,...  exactly these values in row-major order (one per element: group sizes
//                     and their offsets, as the file's own test builds them)
//   sparse:N:M        random values with N of every M consecutive elements of a row kept and
//                     the others zero (2:4 structured sparsity: sparse:2:4), as semi-sparse
//                     operands are made for mma.sp; the row length must be a multiple of M
// Values are drawn from the same seeded SplitMix64 streams as random inputs: reproducible.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "profiler/check/Inputs.h"

namespace ts::rt {

struct InputRule {
    enum class Kind { Offsets, Ints, Distinct, Fill, Arange, Values, Sparse, Uniform } kind = Kind::Fill;
    double a = 0, b = 0;         ///< TOTAL (, MAX: b > 0); LO, HI (int:, uniform:); N; V; N, M
    std::vector<double> values;  ///< values:
};

/// Parses RULE; nullopt with `error` set on bad text.
std::optional<InputRule> parseInputRule(const std::string& text, std::string& error);

/// makeInputs (Inputs.h), then the inputs named in `rules` filled by their rule. Throws
/// std::invalid_argument for a name that is not an input, or a rule that cannot fill it.
InputSet makeInputs(const std::vector<TensorParam>& signature, const InputOptions& opt,
                    const std::map<std::string, InputRule>& rules);

}  // namespace ts::rt
