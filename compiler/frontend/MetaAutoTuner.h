// TileLang's programmatic autotuner at the meta level (LANGUAGE.md §1, autotune): a factory that
// builds `AutoTuner.from_kernel(kernel=fn, configs=configs)` (with the chained
// `.set_compile_args(...)` / `.set_profile_args(...)`), returns it, or returns what its
// `.run(...)` gives, or returns only the tunable `fn` that the file hands to such an autotuner
// elsewhere. TileScope does not time configurations: like the @autotune decorator's parameters
// without a value, such a kernel is compiled at the FIRST config of the tuner's list (what the
// tuner tries first), and a note says so. `tilelang.TensorSupplyType` members evaluate to their
// names (profiling arguments only).
#pragma once
#include <string>

#include "compiler/frontend/Ast.h"
#include "compiler/frontend/MetaEval.h"

namespace ts::fe {

/// Registers tilelang.autotuner.AutoTuner and tilelang.TensorSupplyType in `in`.
void registerAutoTuner(Interp& in);

/// What a factory named `factory` returned, resolved to the kernel it stands for: a
/// @T.prim_func function is returned unchanged; an AutoTuner (or its run() result) calls its
/// kernel function with the first config; a tuple/list resolves to its first element that is
/// one of those; a plain function whose call builds the kernel takes the configs of the file's
/// `AutoTuner.from_kernel(kernel=factory(), configs=...)` call (`mod`, evaluated in `globals`).
/// Each config used is reported as a note at `where`. Anything else is returned unchanged (the
/// caller reports it). Throws CompileError when the configs cannot be found or are malformed.
Value resolveTunedKernel(Interp& in, Value result, const std::string& factory,
                         const ast::Module& mod, const EnvPtr& globals, Span where);

}  // namespace ts::fe
