// The kernels of a program and which one a compile uses (DESIGN.md §2b), between the front
// end's entry analysis (fe::Module::entries) and compile(): the source-ordered list that
// CompileResult::kernels exposes, and the parameter overrides that reach the selected kernel's
// factory. Internal to compiler/ (Compile.cpp); callers read CompileResult.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "compiler/Compile.h"
#include "compiler/frontend/Module.h"

namespace ts {

/// Every kernel entry of `mod` in source order; `isDefault` marks mod.entry() (the best-ranked).
std::vector<ProgramKernel> programKernels(const fe::Module& mod);

/// Index in programKernels(mod) of `e`, or -1.
int programKernelIndex(const std::vector<ProgramKernel>& kernels, const fe::KernelEntry& e);

/// The overrides that go to `selected`'s factory: `params` without the pragma settings ('@'
/// names) and without values that come from the file's `# tilescope:` pragma (`text`) for a
/// parameter only other kernels of the file have (the pragma keeps every kernel's values).
/// Everything else stays, so a command-line name of another kernel is reported by bindParams.
std::map<std::string, std::string> overridesFor(const fe::Module& mod,
                                                const fe::KernelEntry& selected,
                                                const std::map<std::string, std::string>& params,
                                                const std::string& text);

/// Where an unknown kernel name is reported: at `@kernel=` in the pragma when the name is the
/// pragma's value, else nowhere in the file (an invalid Span: a command-line flag).
Span kernelNameSpan(const std::string& text, const std::string& name);

}  // namespace ts
