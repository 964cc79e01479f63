// Helpers shared by the end-to-end tests (tests/e2e/*.cpp): reading repository files through
// TS_SOURCE_DIR, printing a compile's diagnostics for assertion messages, and checking a kernel
// on both interpreters against its float64 reference.
#pragma once
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/frontend/Module.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "profiler/check/Compare.h"
#include "profiler/check/Inputs.h"
#include "profiler/check/Reference.h"

namespace ts::e2e {

/// Text of `rel` (relative to the repository root); empty when the file is missing.
inline std::string readRepoFile(const std::string& rel) {
    std::ifstream in(std::filesystem::path(TS_SOURCE_DIR) / rel);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Every diagnostic of `r`, formatted as tilec prints them.
inline std::string diagText(const CompileResult& r) {
    std::string s;
    for (auto& d : r.diagnostics) s += formatDiagnostic(d, r.source.get());
    return s;
}

/// Runs r's kernel on fresh random inputs (outputs poisoned with NaN) on the tile interpreter
/// and on the thread-level interpreter of the lowered IR, and expects every output to match the
/// file's reference function `refName` (rt::findReferenceProgram: a top-level name or a dotted
/// path such as run_row_mean.ref_program) evaluated in float64, with no unwritten element. Use
/// inside a TEST (gtest assertions; a fatal one ends only this helper: wrap the call in
/// ASSERT_NO_FATAL_FAILURE).
inline void expectInterpretersMatchReference(const CompileResult& r, const std::string& label,
                                             const std::string& refName = "ref_program") {
    std::vector<rt::TensorParam> sig;
    for (auto& a : r.kernel.args) sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
    rt::InputOptions io;
    io.fresh = true;
    auto set = rt::makeInputs(sig, io);
    std::vector<HostTensor> inputs;
    for (size_t i = 0; i < sig.size(); ++i)
        if (!sig[i].isOutput) inputs.push_back(set.tensors[i]);
    std::map<std::string, std::string> fp;
    for (auto& p : r.params) fp[p.name] = p.value;
    rt::ReferenceOptions ro;
    ro.functionName = refName;
    auto ref = rt::evalReference(*r.module->ast(), fp, inputs, ro);
    ASSERT_TRUE(ref.ok) << label << ": "
                        << (ref.diagnostics.empty() ? "" : ref.diagnostics[0].message);

    for (int level = 0; level < 2; ++level) {
        std::vector<HostTensor> args = set.tensors;
        for (size_t i = 0; i < args.size(); ++i)
            if (sig[i].isOutput)
                args[i].data.assign(static_cast<size_t>(args[i].numel()), std::nan(""));
        auto run = level == 0 ? interp::run(r.elaborated, args) : interp::runLowered(r.lowered, args);
        const char* what =
            level == 0 ? "tile interpreter" : "thread-level interpreter (lowered IR)";
        ASSERT_TRUE(run.ok) << what << ": "
                            << (run.error ? formatDiagnostic(*run.error, r.source.get()) : "");
        size_t k = 0;
        for (size_t i = 0; i < args.size(); ++i) {
            if (!sig[i].isOutput) continue;
            ASSERT_LT(k, ref.outputs.size());
            auto cmp = rt::compare(args[i], ref.outputs[k++]);
            EXPECT_TRUE(cmp.pass) << label << " " << what << " " << sig[i].name << " seed "
                                  << set.seed << ": " << rt::describe(cmp);
            EXPECT_EQ(cmp.nanCount, 0) << what << ": unwritten output elements";
        }
    }
}

}  // namespace ts::e2e
