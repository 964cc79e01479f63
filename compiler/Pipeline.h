// The lowering pipeline (Pipeline.cpp lists the passes in order) and the instruments that record
// pass snapshots and verify IR. compile() (Compile.cpp) runs front end -> pipeline -> codegen.
#pragma once
#include <atomic>
#include <string>
#include <vector>

#include "compiler/Compile.h"
#include "compiler/PassManager.h"

namespace ts {

/// All passes for `target` in lowering order.
std::vector<PassInfo> pipelineFor(const Target& target);

struct PipelineOutput {
    ir::PrimFunc lowered;            ///< result of the last pass that ran
    std::vector<PassSnapshot> passes;
    bool ok = false;
    bool stopped = false;            ///< stopAfter reached or cancelled
    double micros = 0;               ///< sum of pass times
};

/// Runs the pipeline over an elaborated function, recording snapshots (if asked) and verifying
/// the IR after each pass (if asked). Diagnostics go to `diags`.
/// Passes named in `skip` are left out (compile() skips "insert-sync" for a kernel whose
/// @tilelang.jit(pass_configs=...) sets TL_DISABLE_THREAD_STORAGE_SYNC: TileLang's switch for
/// kernels that place their own T.sync_threads()).
PipelineOutput runPipeline(const ir::PrimFunc& elaborated, const Target& target, const CompileOptions& opts,
                           DiagnosticEngine& diags, const std::vector<std::string>& skip = {});

}  // namespace ts
