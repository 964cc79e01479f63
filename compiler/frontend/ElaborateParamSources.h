// Where a kernel's parameters get values the user did not pass (--param) and the factory does not
// default: the first @autotune config, and the file's own call of the kernel (TileLang's
// quickstart: `matmul.compile(M=M, ..., block_K=block_K)` at module level; most examples:
// `matmul(M, N, K, 128, 128, 32)` in main()). Used by runFrontend before binding parameters.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "compiler/frontend/Module.h"
#include "compiler/support/Diagnostic.h"

namespace ts::fe {

/// Appends to `values` (NAME, VALUE-repr) each parameter of an autotuned `entry` without a default
/// and not already in `values`, from the first config of its @autotune list (autotuned kernels
/// often leave tile sizes without defaults).
void takeAutotuneConfigValues(const Module& mod, const KernelEntry& entry,
                              std::vector<std::pair<std::string, std::string>>& values, DiagnosticEngine& diags);
/// Appends to `values` (NAME, VALUE-repr) each parameter of `entry` that has no default and is
/// not already in `values`, taken from entry.callSite. One note at the call says which values
/// it took and which defaults the kernel keeps against a different value of the call.
void takeCallSiteValues(const KernelEntry& entry, std::vector<std::pair<std::string, std::string>>& values,
                        DiagnosticEngine& diags);

}  // namespace ts::fe
