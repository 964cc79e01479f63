// The body of the "generated CUDA compiles for sm_80 and sm_90a" e2e tests: compile the program
// for both CUDA targets and NVRTC-compile each result for its architecture.
#pragma once
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace ts::e2e {

/// The program `text` (shown as `name` in diagnostics), e.g. a sample edited by a test; `kernel`
/// picks one of a file with several (empty: the default kernel).
inline void expectNvrtcCompilesForSm80AndSm90aText(const std::string& name, const std::string& text,
                                                   const std::map<std::string, std::string>& params,
                                                   const std::string& kernel = "") {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        SCOPED_TRACE(name + (kernel.empty() ? "" : " -k " + kernel) + " " + target);
        CompileOptions opts;
        opts.params = params;
        opts.kernel = kernel;
        opts.target = target;
        opts.recordSnapshots = false;
        CompileResult r = compile(name, text, opts);
        ASSERT_TRUE(r.ok) << diagText(r);
        if (!rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
        auto nv = rt::compileCuda(r.cuda, parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << target << "\n" << nv.log;
    }
}

/// The repository file `path`.
inline void expectNvrtcCompilesForSm80AndSm90a(const std::string& path,
                                               const std::map<std::string, std::string>& params,
                                               const std::string& kernel = "") {
    expectNvrtcCompilesForSm80AndSm90aText(path, readRepoFile(path), params, kernel);
}

}  // namespace ts::e2e
