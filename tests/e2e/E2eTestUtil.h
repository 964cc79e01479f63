// Helpers shared by the end-to-end tests (tests/e2e/*.cpp): reading repository files through
// TS_SOURCE_DIR, printing a compile's diagnostics for assertion messages, and checking a kernel
// on both interpreters against its float64 reference.
#pragma once
#include <set>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/LaunchArgs.h"
#include "compiler/frontend/Module.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "profiler/check/Compare.h"
#include "profiler/check/Inputs.h"
#include "profiler/check/Reference.h"
#include "tests/support/SourceDir.h"

namespace ts::e2e {

/// Compiles the repository file `file` (readRepoFile) for `target` with factory parameters `p`,
/// without per-pass snapshots; `kernel`: the file's kernel (default: its first).
inline CompileResult compileRepoFile(const std::string& file, const std::map<std::string, std::string>& p = {},
                                     const std::string& target = "cuda:sm_90a", const std::string& kernel = {});

/// Whether r has a note whose message contains `part`.
inline bool hasNote(const CompileResult& r, const std::string& part) {
    for (auto& d : r.diagnostics)
        if (d.severity == Severity::Note && d.message.find(part) != std::string::npos) return true;
    return false;
}

/// Runs `cmd` through the shell with stderr joined to stdout; appends the output to *out and
/// returns the exit status (-1 when it could not run or did not exit normally).
inline int shell(const std::string& cmd, std::string* out) {
    std::FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return -1;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out->append(buf, n);
    const int rc = ::pclose(p);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/// Text of `rel` (relative to the repository root); empty when the file is missing.
inline std::string readRepoFile(const std::string& rel) {
    std::ifstream in(std::filesystem::path(TS_SOURCE_DIR) / rel);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline CompileResult compileRepoFile(const std::string& file, const std::map<std::string, std::string>& p, const std::string& target,
                                     const std::string& kernel) {
    CompileOptions o;
    o.params = p;
    o.target = target;
    o.kernel = kernel;
    o.recordSnapshots = false;
    return compile(file, readRepoFile(file), o);
}

/// How many final accumulator stores of r stage-epilogue (compiler/transforms/StageEpilogue.cpp)
/// sent through shared memory and a TMA store (on sm_90a): each adds a shared tile
/// "<fragment>_stage", a tensor map over the stored tensor, one fence.proxy.async and two block
/// barriers (before the tile's writes, before the store).
inline size_t stagedEpilogues(const CompileResult& r) {
    size_t n = 0;
    for (auto& d : r.diagnostics)  // (its other notes say why a candidate was not staged)
        n += d.origin == "stage-epilogue" && d.message.find("goes through a shared tile") != std::string::npos;
    return n;
}

/// Every diagnostic of `r`, formatted as tilec prints them.
inline std::string diagText(const CompileResult& r) {
    std::string s;
    for (auto& d : r.diagnostics) s += formatDiagnostic(d, r.source.get());
    return s;
}

/// Fresh random inputs for r's kernel and the outputs of the file's reference function
/// `refName` on them (rt::findReferenceProgram: a top-level name or a dotted path such as
/// run_row_mean.ref_program), evaluated in float64.
struct CheckedInputs {
    std::vector<rt::TensorParam> sig;  ///< the kernel's tensor parameters, in order
    rt::InputSet set;                  ///< one tensor per parameter (outputs without data)
    rt::ReferenceResult ref;           ///< ref.ok false: see ref.diagnostics
};
inline CheckedInputs makeCheckedInputs(const CompileResult& r,
                                       const std::string& refName = "ref_program") {
    CheckedInputs c;
    for (auto& a : r.kernel.args) c.sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
    rt::InputOptions io;
    io.fresh = true;
    c.set = rt::makeInputs(c.sig, io);
    std::vector<HostTensor> inputs;
    for (size_t i = 0; i < c.sig.size(); ++i)
        if (!c.sig[i].isOutput) inputs.push_back(c.set.tensors[i]);
    std::map<std::string, std::string> fp;
    for (auto& p : r.params) fp[p.name] = p.value;
    rt::ReferenceOptions ro;
    ro.functionName = refName;
    c.ref = rt::evalReference(*r.module->ast(), fp, inputs, ro);
    return c;
}

/// The kernel's output tensors after running r with ci's inputs (outputs poisoned with NaN
/// first) on the tile interpreter, or with `lowered` on the thread-level interpreter of the
/// lowered IR (every launch in order). Empty with *error set when the run fails.
inline std::vector<HostTensor> runOutputs(const CompileResult& r, const CheckedInputs& ci,
                                          bool lowered, std::string* error) {
    std::vector<HostTensor> args = ci.set.tensors;
    // Outputs only atomics write start at zero, as under tilec (LaunchArgs.h atomicOnlyOutputs).
    std::set<int> atomicOnly;
    if (r.elaborated)
        for (int i : atomicOnlyOutputs(*r.elaborated)) atomicOnly.insert(i);
    for (size_t i = 0; i < args.size(); ++i)
        if (ci.sig[i].isOutput)
            args[i].data.assign(static_cast<size_t>(args[i].numel()), atomicOnly.count(int(i)) ? 0.0 : std::nan(""));
    // A function with several T.Kernel blocks: the tile level runs them all in order itself;
    // the thread level runs each launch's lowered IR in turn (CompileResult::launches).
    for (const CompileResult* l : lowered ? launchesOf(r) : std::vector<const CompileResult*>{&r}) {
        auto run = lowered ? interp::runLowered(l->lowered, args) : interp::run(r.elaborated, args);
        if (!run.ok) {
            *error = run.error ? formatDiagnostic(*run.error, r.source.get()) : "failed";
            return {};
        }
    }
    std::vector<HostTensor> outs;
    for (size_t i = 0; i < args.size(); ++i)
        if (ci.sig[i].isOutput) outs.push_back(std::move(args[i]));
    return outs;
}

/// Runs r on both interpreters (tile level, then the lowered IR) and expects every output to
/// match ci's float64 reference under `co`; results[0/1] receive the outputs of each.
inline void expectBothInterpretersMatchReference(const CompileResult& r, const CheckedInputs& ci,
                                                 const rt::CompareOptions& co,
                                                 const std::string& label,
                                                 std::vector<HostTensor> (&results)[2]) {
    for (int level = 0; level < 2; ++level) {
        const char* what = level == 0 ? "tile interpreter" : "thread-level interpreter (lowered IR)";
        std::string err;
        results[level] = runOutputs(r, ci, level == 1, &err);
        ASSERT_TRUE(err.empty()) << label << " " << what << ": " << err;
        ASSERT_EQ(results[level].size(), ci.ref.outputs.size());
        for (size_t k = 0; k < ci.ref.outputs.size(); ++k) {
            // Without an explicit tolerance: the float64-reference rule (output and inputs).
            rt::CompareOptions use = co;
            if (!use.relL2Tolerance) {
                std::vector<ir::DType> argTypes;
                for (auto& a : ci.sig) argTypes.push_back(a.dtype);
                auto ref = rt::referenceOptions(results[level][k].dtype, argTypes);
                use.relL2Tolerance = ref.relL2Tolerance;
                if (!use.elementFactor) use.elementFactor = ref.elementFactor;
            }
            auto cmp = rt::compare(results[level][k], ci.ref.outputs[k], use);
            EXPECT_TRUE(cmp.pass) << label << " " << what << " output " << k << " seed "
                                  << ci.set.seed << ": " << rt::describe(cmp);
            EXPECT_EQ(cmp.nanCount, 0) << label << " " << what << ": unwritten output elements";
        }
    }
}

/// Runs r's kernel on fresh random inputs on both interpreters and expects every output to
/// match the reference function `refName` (see makeCheckedInputs) evaluated in float64, with no
/// unwritten element (rt::referenceTolerance of each output and the kernel's arguments). Use inside a TEST (gtest assertions; a fatal
/// one ends only this helper: wrap the call in ASSERT_NO_FATAL_FAILURE).
inline void expectInterpretersMatchReference(const CompileResult& r, const std::string& label,
                                             const std::string& refName = "ref_program") {
    auto ci = makeCheckedInputs(r, refName);
    ASSERT_TRUE(ci.ref.ok) << label << ": "
                           << (ci.ref.diagnostics.empty() ? "" : ci.ref.diagnostics[0].message);
    std::vector<HostTensor> results[2];
    expectBothInterpretersMatchReference(r, ci, {}, label, results);
}

}  // namespace ts::e2e
