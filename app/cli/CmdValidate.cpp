// `tilec validate`: interpret the kernel after every pass (compiler/debugger/Validate.h) on the
// same seeded inputs and compare each result with the float64 reference (the file's
// ref_program, else the elaborated kernel on the tile interpreter); the first pass whose result
// differs is named. CI runs it on every sample at small sizes (tests/CMakeLists.txt).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "app/cli/Commands.h"
#include "app/cli/RunSupport.h"
#include "compiler/LaunchArgs.h"
#include "compiler/Pipeline.h"
#include "compiler/debugger/Validate.h"
#include "profiler/check/Compare.h"

namespace ts::cli {

int runValidate(const ValidateCommand& c) {
    CompileOptions opts;
    opts.recordSnapshots = false;
    auto rOpt = compileFile(c.flags, opts);
    if (!rOpt) return 1;
    CompileResult& r = *rOpt;
    if (printDiagnostics(r) || !r.ok) return 1;
    if (!oneLaunchOrReport(r, "validate")) return 1;
    std::vector<double> scalars;
    if (!r.kernel.scalars.empty()) {
        std::string error;
        auto lv = resolveLaunch(r.kernel, r.lowered, error);
        if (!lv) {
            std::cerr << "tilec: error: " << error << "\n";
            return 1;
        }
        for (size_t i = 0; i < r.kernel.args.size(); ++i) r.kernel.args[i].shape = lv->shapes[i];
        scalars = lv->scalars;
    }
    rt::InputOptions io;
    io.seed = c.seed;
    rt::InputSet set;
    if (!makeInputsOrReport(signatureOf(r), io, set, c.flags.inputRules)) return 1;
    zeroAtomicOutputs(r, set);
    std::vector<HostTensor> args = set.tensors;
    for (size_t i = 0; i < args.size(); ++i)
        if (r.kernel.args[i].isOutput && !args[i].hasData())
            args[i].data.assign(static_cast<size_t>(args[i].numel()), std::nan(""));

    auto target = parseTarget(c.flags.target.empty() ? "cuda:sm_80" : c.flags.target);
    if (!target) {
        std::cerr << "tilec: error: unknown target '" << c.flags.target << "'\n";
        return 2;
    }
    auto passes = pipelineFor(*target);
    for (auto& [after, pass] : c.inject) {  // test-only: a deliberately broken pass
        auto at = std::find_if(passes.begin(), passes.end(),
                               [name = after](const PassInfo& p) { return p.name == name; });
        passes.insert(at == passes.end() ? at : at + 1, pass);
    }
    if (std::find_if(r.passes.begin(), r.passes.end(),
                     [](const PassSnapshot& s) { return s.name == "insert-sync"; }) ==
        r.passes.end())  // pass_configs turned it off for this kernel (Compile.cpp)
        std::erase_if(passes, [](const PassInfo& p) { return p.name == "insert-sync"; });

    dbg::ValidateOptions vo;
    vo.scalars = scalars;
    vo.maxBlocks = c.maxBlocks;
    auto runs = dbg::interpretAfterEveryPass(r.elaborated, passes, *target, args, vo);

    // The expected outputs.
    std::vector<HostTensor> refs;
    std::string why, label;
    const std::string refName = referenceName(r, c.ref);
    if (hasReference(r, refName)) {
        auto out = referenceOutputs(r, set.tensors, why, refName);
        if (!out) {
            std::cerr << "tilec: error: " << why << "\n";
            return 1;
        }
        refs = std::move(*out);
        label = (refName.empty() ? std::string("ref_program") : refName) + " (float64)";
    } else if (!runs.empty() && !runs[0].error) {
        for (size_t i = 0; i < args.size(); ++i)
            if (r.kernel.args[i].isOutput) refs.push_back(runs[0].outputs[i]);
        label = "the elaborated kernel on the tile interpreter";
    }
    std::vector<ir::DType> argTypes;
    for (auto& a : r.kernel.args) argTypes.push_back(a.dtype);
    std::cout << "validate " << r.source->path() << " (kernel " << r.kernel.name << ", seed "
              << set.seed << (c.maxBlocks >= 0 ? ", " + std::to_string(c.maxBlocks) + " blocks" : "")
              << "): every pass against " << label << "\n";
    std::printf("%-20s %-7s %-8s %s\n", "pass", "level", "changed", "result");

    // With maxBlocks only the blocks run are compared: elements no block wrote stay NaN there.
    auto written = [&](const HostTensor& t, size_t i) { return !std::isnan(t.data[i]); };
    std::string firstBad;
    for (auto& run : runs) {
        std::string result;
        bool pass = true;
        if (run.error) {
            pass = false;
            result = "error: " + *run.error;
        } else {
            size_t k = 0;
            for (size_t i = 0; i < args.size(); ++i) {
                if (!r.kernel.args[i].isOutput) continue;
                if (k >= refs.size()) break;
                HostTensor actual = run.outputs[i], expected = refs[k];
                if (c.maxBlocks >= 0) {
                    std::vector<double> a, e;
                    for (size_t j = 0; j < actual.data.size(); ++j)
                        if (written(actual, j)) a.push_back(actual.data[j]), e.push_back(expected.data[j]);
                    actual.data = a, expected.data = e;
                    actual.shape = expected.shape = {int64_t(a.size())};
                }
                rt::CompareOptions co = rt::referenceOptions(actual.dtype, argTypes);
                auto cmp = rt::compare(actual, expected, co);
                result += (result.empty() ? "" : "; ") + r.kernel.args[i].name + ": " +
                          rt::describe(cmp);
                pass &= cmp.pass;
                ++k;
            }
        }
        if (!run.changed && &run != &runs[0]) result += " (IR unchanged)";
        std::printf("%-20s %-7s %-8s %s\n", run.pass.c_str(), run.threadLevel ? "thread" : "tile",
                    &run == &runs[0] ? "-" : run.changed ? "yes" : "no", result.c_str());
        if (!pass && firstBad.empty()) firstBad = run.pass;
    }
    if (firstBad.empty()) {
        std::cout << "all " << runs.size() << " interpretations match\n";
        return 0;
    }
    if (firstBad == "elaborated")
        std::cout << "the elaborated kernel already differs from the reference: the program "
                     "(or its reference), not a pass\n";
    else
        std::cout << "first pass that changes the result: " << firstBad << "\n";
    return 1;
}

}  // namespace ts::cli
