#pragma once
// The math calls (T.exp, exp2, log, log2, sqrt, rsqrt, tanh, sin, cos, floor, ceil; T.sigmoid and
// T.abs are spelled by their users: an expression, and integers), TVM's math functions TileLang re-exports as T.* (T.erf, T.pow,
// T.round, ...), its fast-math spellings (T.__exp: CUDA's intrinsics of the same name) and its
// IEEE operations with an explicit rounding mode (T.ieee_add(x, y, "rz")). One table for the
// front end (which names exist, their arity), the interpreters (the float64 value) and the code
// generators (the device function).
//
// Device functions: CUDA C++ Programming Guide / CUDA Math API, "Single Precision Mathematical
// Functions", "Double Precision Mathematical Functions", "Single Precision Intrinsics" (__expf,
// __sinf, ...: hardware approximations, their error bounds in the guide's "Intrinsic Functions"
// table) and the directed-rounding intrinsics (__fadd_rz, __dmul_ru, __fmaf_rd, __frcp_rn, ...).
// HIP spells them the same (HIP Math API); it has the round-to-nearest IEEE ones only.
#include <cstdint>
#include <string>
#include <string_view>

namespace ts::ir {

struct MathFn {
    std::string_view name;        ///< T.<name> and the IR call's op
    int arity;                    ///< 1 or 2
    double (*f1)(double);         ///< value in float64 (interpreters, constant folding); arity 1
    double (*f2)(double, double); ///< arity 2
    std::string_view cudaFloat;   ///< float32 device function
    std::string_view cudaDouble;  ///< float64 device function
    bool integerIsItself;         ///< an integer argument is its own result (trunc, round)
};

/// The entry of `name`, or null. "round" is TVM's round (ties to even, as nearbyint);
/// "round_away" is T.round(x, "ties-away-from-zero").
const MathFn* findMathFn(std::string_view name);

/// IEEE operations with a rounding mode: T.ieee_add/sub/mul/fdiv(x, y, mode), T.ieee_fmaf(x, y,
/// z, mode), T.ieee_frcp/fsqrt(x, mode), T.ieee_frsqrt(x) (round to nearest only). The IR call's op
/// is "<name>.<mode>" ("ieee_add.rz"), so every pass sees one pure call.
struct IeeeOp {
    std::string_view name;         ///< "ieee_add"
    int arity;                     ///< 1, 2 or 3
    std::string_view cudaFloat;    ///< prefix: "__fadd_" + mode
    std::string_view cudaDouble;   ///< prefix: "__dadd_" + mode; empty: no double form
    bool modeArgument;             ///< takes a rounding mode (T.ieee_frsqrt does not)
};
const IeeeOp* findIeeeOp(std::string_view name);

/// "rn", "rz", "ru", "rd" (PTX ISA §9.7.3 "Floating-Point Instructions": round to nearest even,
/// toward zero, toward +inf, toward -inf).
bool isRoundingMode(std::string_view mode);

/// Splits an IR op "ieee_add.rz" into the operation and the mode; null when op is not one.
const IeeeOp* parseIeeeCall(std::string_view op, std::string* mode);

/// The value of an IEEE operation computed in `bits`-bit floating point (32 or 64) with the
/// rounding mode applied by the host's floating-point unit: exact as the GPU's, not a float64
/// result rounded again. 16-bit dtypes compute in float32 (round to nearest only), as the GPU does.
double evalIeee(const IeeeOp& op, std::string_view mode, int bits, const double* args);

}  // namespace ts::ir
