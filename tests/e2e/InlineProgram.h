// Tests of a kernel written inline (a source string, no file): compile it, run it in place on one
// interpreter. Kept out of E2eTestUtil.h, which about a hundred test files include.
#pragma once

#include <string>
#include <vector>

#include "compiler/Compile.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/support/HostTensor.h"

namespace ts::e2e {

/// Compiles `src` (named `name` in diagnostics) for `target` (default: the options' default),
/// without the pass snapshots a test does not read.
inline CompileResult compileInline(const std::string& name, const std::string& src, const std::string& target = {}) {
    CompileOptions o;
    o.recordSnapshots = false;
    if (!target.empty()) o.target = target;
    return compile(name, src, o);
}

/// Runs r with `args` (updated in place) on the tile interpreter, or with `lowered` on the
/// thread-level interpreter of the lowered IR; empty on success, else the error message.
inline std::string runInterpreter(const CompileResult& r, std::vector<HostTensor>& args, bool lowered) {
    auto run = lowered ? interp::runLowered(r.lowered, args) : interp::run(r.elaborated, args);
    return run.ok ? std::string() : (run.error ? run.error->message : std::string("failed"));
}

}  // namespace ts::e2e
