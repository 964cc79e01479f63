// Launch values of a kernel with scalar arguments (KernelInfo::scalars): symbolic sizes
// (T.dynamic / T.symbolic) take their values from tensor dimensions, scalar parameters
// (`n: T.int32`) are passed by value, and grid extents that use them (T.ceildiv(n, 128)) are
// computed from them. One compile serves every size; these functions turn the compiled
// signature into the concrete shapes, scalar values and grid of one launch, and check a
// caller's tensors against it (a disagreement names the tensor and the dimension). Pure: used
// by tilec run/bench, the interpreters' callers and tests alike.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/Compile.h"

namespace ts {

/// The value `tilec run` uses for a symbolic size or an integer scalar parameter without a
/// `--param NAME=VALUE`; float parameters default to 1.0 and bool parameters to True.
inline constexpr int64_t kDefaultSymbolicSize = 256;

/// Everything one launch needs beyond the tensors' data.
struct LaunchValues {
    std::vector<std::vector<int64_t>> shapes;  ///< per KernelInfo::args, every extent concrete
    std::vector<double> scalars;               ///< per KernelInfo::scalars (ints exact < 2^53)
    unsigned grid[3] = {1, 1, 1};
    /// "n = 256 (default)" / "n = 300 (--param)" per scalar, for the run's report.
    std::vector<std::string> notes;
};

/// Launch values without caller tensors: each scalar from its --param value (ScalarArg::value),
/// else the defaults above; tensor shapes and grid evaluated from them. `f` is the compiled
/// kernel (CompileResult::lowered: shape expressions). nullopt with `error` for a value that is
/// not a number, a size < 1, a grid extent outside 1..2^31-1 (y, z: 65535).
std::optional<LaunchValues> resolveLaunch(const KernelInfo& k, const ir::PrimFunc& f,
                                          std::string& error);
/// As above; `errorAt` gets the source position the error is about where it has one (a view of
/// symbolic extents whose bytes do not match its tensor's: the view's T.view), else a default Span.
std::optional<LaunchValues> resolveLaunch(const KernelInfo& k, const ir::PrimFunc& f, std::string& error, Span& errorAt);

/// Launch values for the caller's tensor shapes (one per KernelInfo::args): symbolic sizes are
/// bound from the dimension that defines them, then every shape is checked against the
/// signature, e.g. "argument 'B' (#1) dimension 0: expected 256 (n, from 'A' dimension 0), got
/// 300". By-value scalars come from ScalarArg::value or the defaults.
std::optional<LaunchValues> bindLaunch(const KernelInfo& k, const ir::PrimFunc& f,
                                       const std::vector<std::vector<int64_t>>& shapes,
                                       std::string& error);

/// Output tensors (indices into f.params) that the kernel only accumulates into with
/// T.atomic_* (split-K GEMM, dQ accumulation): a run must start them at zero, as the callers of
/// such kernels do (torch.zeros), instead of poisoning them. `f` is tile-level (elaborated) IR.
std::vector<int> atomicOnlyOutputs(const ir::PrimFuncNode& f);

/// Evaluates an integer/float scalar expression over the kernel's scalar arguments (`values`
/// per f.scalars). nullopt if it reads memory, another variable, or divides by zero.
std::optional<double> evalScalarExpr(const ir::Expr& e, const ir::PrimFuncNode& f,
                                     const std::vector<double>& values);

}  // namespace ts
