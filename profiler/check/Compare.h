// Comparing a kernel's output with a reference (the float64 ref_program or the interpreter) and
// deciding pass/fail (DESIGN.md §3). One rule set for tilec run, the IDE and the e2e tests:
//   - floats: relative L2 error ||actual - ref||_2 / ||ref||_2 below a per-dtype tolerance:
//     1e-2 when the output is a 16-bit float (a float16 rounding alone costs up to 2^-11
//     relative), 5e-2 for float8_e4m3 and 1e-1 for float8_e5m2 outputs (their own rounding: up
//     to 2^-4 / 2^-3), 2.5e-1 for float4, 1e-5 for float32 and float64 outputs;
//   - and no single element off by more than tol * elementFactor * (|ref| + rms(ref)): a few
//     wrong elements of a large output (a zeroed 4x4 corner of a GEMM: rel-L2 5.8e-3) fail on
//     their own. The factor follows the coarsest float the kernel computes with:
//       3 for float16 (and float32 outputs checked at a 16-bit tolerance): 1 (about TileLang's
//         assert_close(rtol=atol=1e-2), absolute part scaled to the data) failed correct bf16
//         chains (rmsnorm_mlp: one element at 1.5% of the scale);
//       10 for bfloat16 outputs, and outputs computed from bfloat16 / fp8 / fp4 arguments
//         (referenceOptions): a bfloat16 rounding is 8x a float16
//         one, and a difference of two rounded values keeps the rounding error, not the
//         size: MHA backward in bfloat16 (dQ of the first causal rows, where P is nearly one-hot
//         and dS = P * (dP - Delta) cancels; Delta from the bf16-rounded O) reached 5.0 x tol x
//         (|r| + rms) over 5 seeds, on the GPU and in the interpreter alike (2026-12-03);
//       10 for float32 outputs (tol 1e-5..1e-3), above what accumulation order alone moves one
//         element.
//     A zeroed element still fails at 10 unless |r| < 0.11 rms;
//   - a NaN in the output where the reference is not NaN fails regardless of the error norm (it
//     is how a poisoned element that was never written shows up); so does any other mismatch of
//     non-finite values (inf vs finite, NaN in the reference only);
//   - integers and bool: exact equality.
// The reference should be computed in float64 from the exact (dtype-rounded) inputs; it need not
// be rounded to the output dtype, the tolerances absorb that.
#pragma once
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compiler/support/HostTensor.h"

namespace ts::rt {

/// Overrides for compare().
struct CompareOptions {
    std::optional<double> relL2Tolerance;  ///< replaces defaultTolerance(dtype) for floats
    /// replaces elementFactor(tol, dtype): the per-element bound's multiple of the tolerance
    std::optional<double> elementFactor;
};

/// A value as the check lines print it: "%.9g" (every float32 exactly, no trailing zeros).
std::string numberText(double v);

/// Outcome of comparing one output tensor.
struct Comparison {
    double relL2 = 0;      ///< ||a - r||_2 / ||r||_2 over elements where both are finite
                           ///< (0 if both norms are 0; +inf if only the reference norm is)
    double maxAbs = 0;     ///< max |a - r| over elements where both are finite
    int64_t nanCount = 0;  ///< NaNs in actual where the reference is not NaN
    int64_t nonFiniteMismatches = 0;  ///< elements whose NaN/inf status differs (incl. nanCount)
    int64_t nonFiniteAlike = 0;       ///< floats: NaN in both, or the same inf (alike; describe() names the count)
    int64_t badCount = 0;             ///< elements judged bad (see firstBadIndex)
    /// First element (row-major flat index) judged bad, -1 if none: for integers any difference;
    /// for floats a non-finite mismatch or |a - r| > tol * elementFactor(tol) * (|r| + rms(r)).
    /// Any bad element fails the check (as does relL2 >= tol).
    int64_t firstBadIndex = -1;
    /// The value the element at firstBadIndex was compared with: the reference as the output
    /// dtype holds it where the float64 value does not fit (float16 -120000 is -inf, e4m3 1e4 is
    /// 448, bool 2 is 1; see compare()), else the reference itself. NaN when there is none.
    double firstBadExpected = NAN;
    int64_t finitePairs = -1;  ///< floats: elements finite in both (relL2's support); -1 = n/a
    double tolerance = 0;  ///< rel-L2 tolerance applied (0 = exact)
    /// floats: every finite reference element is exactly 0, so there is no scale to be relative
    /// to (rel-L2 would be +inf for any rounding residue). relL2 then holds the RMS of a - r and
    /// the tolerance is applied to it, and to each |a - r| times the element factor, as absolute
    /// values (unit scale); describe() says "absolute".
    bool zeroReference = false;
    bool pass = false;
};

/// The per-element bound's multiple of the rel-L2 tolerance `tol` for an output of dtype `out`:
/// 10 for a bfloat16 output or below tol 1e-2 (float32/float64 outputs), else 3 (float16; fp8
/// and fp4, whose tolerance is their own rounding already).
double elementFactor(double tol, ir::DType out);

/// Whether `t` is a float coarser than float16 (bfloat16, fp8, fp4): its rounding is >= 8x a
/// float16 one, which sets the per-element factor of outputs computed from it (10, not 3).
bool coarseFloat(ir::DType t);

/// Default rel-L2 tolerance for an output of dtype `t`: 1e-2 (float16, bfloat16), 5e-2
/// (float8_e4m3), 1e-1 (float8_e5m2), 2.5e-1 (float4_e2m1), 1e-5 (float32, float64), 0
/// (integers, bool: exact).
double defaultTolerance(ir::DType t);

/// rel-L2 tolerance for an output of dtype `out` checked against an exact float64 reference when
/// the kernel computes from tensors of dtypes `args`: defaultTolerance(out), loosened to 1e-3 for
/// a float16 argument and to defaultTolerance(arg) for a bfloat16/fp8 argument. A kernel reading float16 values computes float16 intermediates (a
/// product of two float16 values is a float16 value, in TileLang and in the generated CUDA), so
/// a float32 output of float16 arithmetic carries float16 rounding (e.g. rowsum(O * dO): ~2e-4
/// relative). Against the interpreter (the same arithmetic) use defaultTolerance(out).
/// `tf32Products`: the kernel has a T.gemm of float32 operands, which tensor cores (and both
/// interpreters, analysis::mmaOperandValue) round to tf32: 10 mantissa bits, 2^-11 relative as
/// float16, so a float32 output gets the float16 bound 1e-3. Against the GPU the interpreter's
/// tf32 rounding is the same, but an intermediate that differs by one float32 ulp (accumulation
/// order) can round to the neighbouring tf32 value when a later gemm reads it: a 2^-10 step
/// that the chained gemms carry on (kda wy_fast_bwd dA: rel-L2 4.0e-5 GPU vs interpreter).
double referenceTolerance(ir::DType out, std::span<const ir::DType> args, bool tf32Products = false);

/// Compare options for an output of dtype `out` checked against an exact float64 reference:
/// referenceTolerance(out, args, tf32Products), and the element factor 10 when an argument is a
/// coarse float (a float32 output of bfloat16 arithmetic carries bfloat16 rounding).
CompareOptions referenceOptions(ir::DType out, std::span<const ir::DType> args, bool tf32Products = false);

/// Compares `actual` with `reference` elementwise as values of dtype `t`. Throws
/// std::invalid_argument if the sizes differ.
Comparison compare(std::span<const double> actual, std::span<const double> reference, ir::DType t,
                   const CompareOptions& opt = {});

/// Compares two tensors; the dtype of `actual` selects the rules. Throws std::invalid_argument if
/// the shapes differ or either tensor has no data.
Comparison compare(const HostTensor& actual, const HostTensor& reference,
                   const CompareOptions& opt = {});

/// One kernel output as the check sees it: its name and shape.
struct OutputSpec {
    std::string name;
    std::vector<int64_t> shape;
};

/// Whether a ref_program's results can be compared with the kernel's outputs at all: one result
/// per output, each of the output's shape (no broadcasting: a reference of another shape is a
/// wrong reference, not a tolerance question). Empty when they fit; else one sentence naming the
/// output(s) and both shapes, e.g. "ref_program returned 2 values for 1 output (C)" or
/// "ref_program's value for output C has shape (3, 130), but C has shape (100, 130)". Call it
/// before compare(), which throws on such input.
std::string referenceMismatch(const std::vector<OutputSpec>& outputs,
                              const std::vector<HostTensor>& references);

/// "[3, 17]": the multi-index of row-major flat index `flat` in `shape`.
std::string indexText(std::span<const int64_t> shape, int64_t flat);

/// One line for logs and tilec: "rel-L2 3.1e-04 (tol 1e-02), max-abs 2.0e-03, 0 NaN: PASS";
/// on failure it adds the first bad index with both values when `actual`/`reference` are given.
std::string describe(const Comparison& c, const HostTensor* actual = nullptr,
                     const HostTensor* reference = nullptr);

}  // namespace ts::rt
