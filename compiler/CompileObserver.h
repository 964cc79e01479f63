// A hook at the end of compile() (compiler/Compile.h): a test/CI instrument, kept out of
// Compile.h because only the compiler and the test suite's NVRTC check use it. The test suite
// installs an observer that NVRTC-compiles every kernel any test compiles, for sm_80 and sm_90a
// (tests/e2e/NvrtcEveryKernel.cpp).
#pragma once
#include <string>

#include "compiler/Compile.h"

namespace ts {

/// Called at the end of every compile() that generated CUDA (result.ok), on the compiling
/// thread, with compile()'s arguments and result. Null (the default) = none.
using CompileObserver = void (*)(const std::string& path, const std::string& text,
                                 const CompileOptions& opts, const CompileResult& result);

/// Installs `observer` (null removes it); returns the previous one. Atomic: safe to call while
/// other threads compile (they see the old or the new observer).
CompileObserver setCompileObserver(CompileObserver observer);

}  // namespace ts
