// Autotune drivers (LANGUAGE.md §1, autotune; MetaAutoTuner.h): module-level functions of a
// TileLang file that build an autotuner with `AutoTuner.from_kernel(kernel=fn, configs=...)`
// (and often run it, returning its result: a config, a latency and a compiled kernel) instead of
// being a kernel. TileLang's gemm examples have them: `get_best_config` builds a tuner over its
// nested `kernel` function and returns `autotuner.run(...)`; `_build_autotuner` returns
// `(autotuner, configs, kernel)`; another `get_best_config` only runs the tuner
// `_build_autotuner` builds. TileScope compiles a driver as its tuned kernel at the tuner's
// first config and lists it as an autotune driver, not as a kernel (a builder's listing also
// names the drivers that only run its tuner).
// Syntactic, like the rest of the file-level analysis (Module.cpp).
#pragma once
#include <cstdint>
#include <string>

#include "compiler/frontend/Ast.h"

namespace ts::fe {

/// The autotuner a driver builds, as written.
struct TunerSite {
    const ast::Call* fromKernel = nullptr;  ///< the `X.from_kernel(...)` call
    std::string kernelText;  ///< its kernel argument: "kernel", "make_kernel()", "" if other
    bool runs = false;       ///< the function also calls `.run(...)` (on the tuner)
};

/// The `<...>.from_kernel(...)` call in `f`'s body (nested defs included), with the kernel it
/// tunes; fromKernel is null when there is none.
TunerSite tunerSiteOf(const ast::FunctionDef& f);

/// The module function whose `from_kernel` autotuner `f` stands for, when `f` returns a value:
/// `f` itself when it builds one, else a module function it calls by name that builds one
/// (`get_best_config` -> `_build_autotuner`); null otherwise.
const ast::FunctionDef* autoTunerBuilder(const ast::Module& mod, const ast::FunctionDef& f);

/// True when `f`'s body calls `.run(...)` on something (an autotuner: `autotuner.run(...)`).
bool callsRun(const ast::FunctionDef& f);

}  // namespace ts::fe
