// `tilec run FILE --chain K1,K2,...`: several kernels of one file run in order on one device (the
// GPU, or the tile / thread-level interpreter), outputs of earlier kernels feeding inputs of later
// ones (a forward pass, then its backward's preprocess, main and postprocess kernels), and the
// chain's final outputs checked against a float64 reference or the same chain on the tile
// interpreter.
//
// Binding, in this order for each input parameter `p` of kernel K:
//   1. `--bind K.p=K0.q`: the tensor K0's parameter q held after K0 ran (its output, or the input
//      it was given); K0 must come earlier in the chain;
//   2. the latest earlier tensor named `p` (an earlier kernel's output or input of that name);
//   3. else a fresh seeded random tensor, a *free input* of the chain, shared by name with every
//      later kernel.
// A bound tensor must have the parameter's dtype and shape (no silent conversion). The chain's
// final outputs are the outputs no later kernel consumed, in the order they were produced.
//
// Reference (--ref NAME, or --ref FILE::NAME for a function of another file): its leading
// parameters are named after free inputs and receive them by name (every free input must be one
// of them); its other parameters take the chain's factory values of the same name (e.g.
// is_causal), else their defaults. It returns the final outputs in chain order (a tuple).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "app/cli/Commands.h"
#include "app/cli/GpuWorker.h"
#include "app/cli/InterpProgress.h"
#include "app/cli/RunSupport.h"
#include "compiler/frontend/MetaValue.h"
#include "compiler/frontend/Parser.h"
#include "profiler/check/Compare.h"
#include "profiler/check/Reference.h"

namespace ts::cli {
namespace {

/// One `--bind K.param=K0.param`.
struct Bind {
    std::string kernel, param, fromKernel, fromParam;
};

std::optional<Bind> parseBind(const std::string& s) {
    auto eq = s.find('=');
    if (eq != std::string::npos) {
        std::string l = s.substr(0, eq), r = s.substr(eq + 1);
        // The last dot: a parameter name has none, a kernel's may (`test_x.k`, a kernel
        // defined in a test; helper-125 #14).
        auto dl = l.rfind('.'), dr = r.rfind('.');
        if (dl != std::string::npos && dr != std::string::npos && dl > 0 && dr > 0 &&
            dl + 1 < l.size() && dr + 1 < r.size())
            return Bind{l.substr(0, dl), l.substr(dl + 1), r.substr(0, dr), r.substr(dr + 1)};
    }
    std::cerr << "tilec: error: --bind '" << s
              << "': expected KERNEL.PARAM=KERNEL0.PARAM0 (e.g. "
                 "flashattn_bwd_preprocess.O=flashattn_fwd.Output)\n";
    return std::nullopt;
}

/// One kernel of the chain, compiled.
struct Step {
    std::string name;
    CompileResult r;
};

/// Where a chain's execution happens.
enum class Device { Gpu, Tile, Lowered };

/// What one execution of the chain produced.
struct ChainRun {
    std::vector<std::string> finalKeys;  ///< "kernel.param" of each final output
    std::vector<HostTensor> finals;
    std::map<std::string, HostTensor> freeInputs;  ///< by parameter name
};

std::string key(const std::string& k, const std::string& p) { return k + "." + p; }

/// Runs the chain once. `verbose` prints the bindings and per-kernel timings.
std::optional<ChainRun> execute(std::vector<Step>& steps, const std::vector<Bind>& binds,
                                uint64_t seed, Device dev, const rt::DeviceInfo* gpu,
                                const CompileFlags& flags, bool verbose) {
    std::map<std::string, HostTensor> byKey;        // every tensor so far, "K.p"
    std::map<std::string, std::string> lastByName;  // p -> key of the latest tensor named p
    std::vector<std::string> produced;              // output keys in order
    std::set<std::string> consumed;                 // output keys a later kernel read
    ChainRun run;
    size_t freeIndex = 0;
    for (auto& st : steps) {
        CompileResult& r = st.r;
        if (!applyLaunchValues(r)) return std::nullopt;
        auto sig = signatureOf(r);
        rt::InputSet set;
        set.seed = seed;
        std::string notes;
        for (size_t j = 0; j < sig.size(); ++j) {
            const auto& a = sig[j];
            if (a.isOutput) {
                set.tensors.push_back(HostTensor{a.dtype, a.shape, {}});
                continue;
            }
            std::string from;
            for (auto& b : binds)
                if (b.kernel == st.name && b.param == a.name) from = key(b.fromKernel, b.fromParam);
            bool isBind = !from.empty();
            if (from.empty()) {
                auto it = lastByName.find(a.name);
                if (it != lastByName.end()) from = it->second;
            }
            HostTensor t;
            if (!from.empty()) {
                auto it = byKey.find(from);
                if (it == byKey.end()) {
                    std::cerr << "tilec: error: --bind " << key(st.name, a.name) << "=" << from
                              << ": no earlier kernel of the chain has a parameter " << from
                              << "\n  hint: the source must be a parameter of a kernel that runs "
                                 "before "
                              << st.name << " (tilec kernels FILE lists them)\n";
                    return std::nullopt;
                }
                t = it->second;
                if (t.dtype != a.dtype || t.shape != a.shape) {
                    std::cerr << "tilec: error: " << key(st.name, a.name) << " ("
                              << ir::dtypeName(a.dtype) << ", " << formatShape(a.shape)
                              << ") cannot take " << from << " (" << ir::dtypeName(t.dtype)
                              << ", " << formatShape(t.shape) << ")"
                              << (isBind ? "" : ", bound by the same name") << "\n  hint: "
                              << (isBind ? "bind another parameter" :
                                         "--bind " + key(st.name, a.name) + "=KERNEL.PARAM names "
                                         "the right one")
                              << "\n";
                    return std::nullopt;
                }
                consumed.insert(from);
                notes += " " + a.name + "<-" + from;
            } else {
                try {
                    t = rt::randomTensor(a, seed, freeIndex++);
                } catch (const std::exception& e) {
                    std::cerr << "tilec: error: " << e.what() << "\n";
                    return std::nullopt;
                }
                run.freeInputs[a.name] = t;
                notes += " " + a.name + "(random)";
            }
            std::string k = key(st.name, a.name);
            byKey[k] = t;
            lastByName[a.name] = k;
            set.tensors.push_back(std::move(t));
        }
        zeroAtomicOutputs(r, set);
        std::vector<HostTensor> outs;
        std::string why;
        auto t0 = std::chrono::steady_clock::now();
        if (dev == Device::Gpu && !r.launches.empty()) {  // several T.Kernel blocks
            rt::RunResult last;
            double launchMs = 0;
            auto o = runLaunchesOnGpu(r, set, flags, rt::archFor(*gpu), last, launchMs, why);
            if (!o) {
                std::cerr << "tilec: error: " << st.name << ": " << why << "\n";
                return std::nullopt;
            }
            outs = std::move(*o);
        } else if (dev == Device::Gpu) {
            auto res = runInWorker(requestFor(r, set, flags, rt::archFor(*gpu)));
            if (!res.ok) {
                std::cerr << "tilec: error: " << st.name << ": " << rt::stageName(res.failedStage)
                          << " failed: " << res.error << "\n";
                return std::nullopt;
            }
            for (auto& o : res.outputs) outs.push_back(std::move(o.tensor));
        } else {
            auto o = runInterp(r, set.tensors, why, dev == Device::Lowered, /*interactive=*/true);
            if (!o) {
                std::cerr << "tilec: error: " << st.name << ": " << why << "\n";
                return std::nullopt;
            }
            outs = std::move(*o);
        }
        double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        size_t k = 0;
        std::string made;
        for (auto& a : sig) {
            if (!a.isOutput) continue;
            if (k >= outs.size()) {
                std::cerr << "tilec: error: " << st.name << " produced " << outs.size()
                          << " outputs\n";
                return std::nullopt;
            }
            std::string kk = key(st.name, a.name);
            byKey[kk] = std::move(outs[k++]);
            lastByName[a.name] = kk;
            produced.push_back(kk);
            made += " " + a.name;
        }
        if (verbose && !quiet())
            std::printf("  %-28s %8.1f ms  in:%s  out:%s\n", st.name.c_str(), ms, notes.c_str(),
                        made.c_str());
    }
    for (auto& p : produced)
        if (!consumed.count(p)) {
            run.finalKeys.push_back(p);
            run.finals.push_back(byKey[p]);
        }
    return run;
}

/// The float64 reference of the chain (see the file comment). nullopt after an error on stderr.
std::optional<std::vector<HostTensor>> chainReference(const std::string& refFlag,
                                                      const std::string& chainFile,
                                                      const std::vector<Step>& steps,
                                                      const ChainRun& run) {
    std::string path = chainFile, name = refFlag;
    if (auto sep = refFlag.find("::"); sep != std::string::npos)
        path = refFlag.substr(0, sep), name = refFlag.substr(sep + 2);
    if (path.empty() || name.empty()) {
        std::cerr << "tilec: error: --ref " << refFlag
                  << ": FILE::NAME needs both a file and a function name (e.g. --ref refs.py::bwd_ref)\n";
        return std::nullopt;
    }
    auto text = readFile(path);
    if (!text) return std::nullopt;
    auto src = std::make_shared<SourceFile>(path, *text);
    DiagnosticEngine diags;
    auto mod = fe::parseModule(src, diags);
    if (diags.hasErrors()) {
        for (auto& d : diags.all()) std::cerr << formatDiagnostic(d, src.get());
        return std::nullopt;
    }
    const fe::ast::FunctionDef* fn = rt::findReferenceProgram(*mod, name);
    if (!fn) {
        auto names = rt::referenceCandidates(*mod);
        std::string list, near = fe::closestMatch(name, names);
        for (auto& n : names) list += (list.empty() ? "" : ", ") + n;
        std::cerr << "tilec: error: --ref: no function '" << name << "' in " << path
                  << (near.empty() ? "" : " (did you mean '" + near + "'?)")
                  << (list.empty() ? "" : "; functions: " + list) << "\n";
        return std::nullopt;
    }
    // Leading parameters named after free inputs receive them, positionally for the evaluator.
    std::vector<HostTensor> inputs;
    std::set<std::string> used;
    for (auto& p : fn->params) {
        auto it = run.freeInputs.find(p.name);
        if (it == run.freeInputs.end()) break;
        inputs.push_back(it->second);
        used.insert(p.name);
    }
    std::string missing, free;
    for (auto& [n, _] : run.freeInputs) {
        free += (free.empty() ? "" : ", ") + n;
        if (!used.count(n)) missing += (missing.empty() ? "" : ", ") + n;
    }
    if (!missing.empty()) {
        std::cerr << "tilec: error: --ref " << name << ": the chain's free input(s) " << missing
                  << " are not among its leading parameters\n  hint: the chain's free inputs are "
                  << free << "; name the reference's first parameters after them\n";
        return std::nullopt;
    }
    std::map<std::string, std::string> params;
    for (auto& st : steps)
        for (auto& p : st.r.params) params[p.name] = p.value;
    rt::ReferenceOptions opt;
    opt.functionName = name;
    auto res = rt::evalReference(*mod, params, inputs, opt);
    if (!res.ok) {
        for (auto& d : res.diagnostics)
            if (d.severity == Severity::Error) std::cerr << formatDiagnostic(d, src.get());
        return std::nullopt;
    }
    return res.outputs;
}

/// Compares the final outputs (rtol > 0: that rel-L2 tolerance for floats, else the rule of one
/// kernel's check, rt::referenceOptions, over the argument dtypes of every kernel of the chain: a
/// float32 output computed from 16-bit tensors -- MHA backward's dQ_acc -- carries their rounding);
/// prints one line each and PASS/FAIL. 0 pass, 2 fail, 1 on a reference that does not fit.
/// Without `byArgDtypes` (the lowered IR against the tile interpreter: the same arithmetic) each
/// output takes its dtype's own tolerance, as one kernel's check does.
int check(const std::vector<Step>& steps, const ChainRun& run, const std::vector<HostTensor>& ref, double rtol, bool byArgDtypes) {
    std::vector<rt::OutputSpec> specs;
    for (size_t i = 0; i < run.finals.size(); ++i)
        specs.push_back({run.finalKeys[i], run.finals[i].shape});
    // A chain's final outputs depend on which inputs were bound (a missing --bind leaves an
    // extra output): the reference must return all of them, no prefix rule as for one kernel.
    std::string bad;
    if (ref.size() != specs.size()) {
        std::string names;
        for (const auto& o : specs) names += (names.empty() ? "" : ", ") + o.name;
        bad = "ref_program returned " + std::to_string(ref.size()) +
              (ref.size() == 1 ? " value" : " values") + " for " + std::to_string(specs.size()) +
              " outputs (" + names + ")";
    } else {
        bad = rt::referenceMismatch(specs, ref);
    }
    if (!bad.empty()) {
        std::cerr << "tilec: error: " << bad
                  << "\n  hint: the reference returns the chain's final outputs in chain order\n";
        return 1;
    }
    std::vector<ir::DType> argTypes;
    bool tf32 = false;
    // A tensor one kernel of the chain rounds to 16 (or 8) bits and a later one reads (MHA
    // backward's O, from which Delta = rowsum(O * dO) and then dP - Delta cancel) carries that
    // rounding into every later output: a float32 final output is held to the 16-bit output's
    // tolerance, not to one rounding of a kernel's own intermediate.
    double intermediateTol = 0;
    const std::set<std::string> finals(run.finalKeys.begin(), run.finalKeys.end());
    for (const auto& st : steps) {
        for (const auto& a : st.r.kernel.args) {
            argTypes.push_back(a.dtype);
            if (a.isOutput && ir::isFloat(a.dtype) && ir::dtypeBits(a.dtype) <= 16 && !finals.count(key(st.name, a.name)))
                intermediateTol = std::max(intermediateTol, rt::defaultTolerance(a.dtype));
        }
        tf32 = tf32 || hasFloat32Gemm(st.r);
    }
    bool pass = true;
    for (size_t i = 0; i < specs.size(); ++i) {
        rt::CompareOptions opt = byArgDtypes ? rt::referenceOptions(run.finals[i].dtype, argTypes, tf32) : rt::CompareOptions{};
        if (byArgDtypes && ir::isFloat(run.finals[i].dtype) && intermediateTol > *opt.relL2Tolerance) opt.relL2Tolerance = intermediateTol;
        if (rtol > 0) opt.relL2Tolerance = rtol;  // --rtol, as for one kernel
        auto c = rt::compare(run.finals[i], ref[i], opt);
        std::cout << "  " << specs[i].name << ": " << rt::describe(c, &run.finals[i], &ref[i])
                  << "\n";
        pass &= c.pass;
    }
    std::cout << (pass ? "PASS" : "FAIL") << "\n";
    return pass ? 0 : 2;
}

}  // namespace

int runChain(const RunCommand& c) {
    setInterpTimeLimit(c.timeLimitS);
    setProgressForced(c.progress);
    if (!c.flags.inputRules.empty() || !c.flags.refParams.empty() || !c.flags.refInputs.empty()) {
        std::cerr << "tilec: error: --input, --ref-param and --ref-inputs apply to one kernel, not "
                     "to --chain\n";
        return 1;
    }
    if (!c.flags.kernel.empty()) {
        std::cerr << "tilec: error: --kernel " << c.flags.kernel
                  << " and --chain both choose kernels\n  hint: list every kernel to run in "
                     "--chain K1,K2,...\n";
        return 1;
    }
    std::vector<Bind> binds;
    for (auto& s : c.binds) {
        auto b = parseBind(s);
        if (!b) return 1;
        binds.push_back(*b);
    }
    auto text = readFile(c.flags.file);
    if (!text) return 1;
    auto params = parseParams(c.flags.params);
    if (!params) return 1;
    std::vector<Diagnostic> diags;
    auto kernels = listKernels(c.flags.file, *text, &diags);
    // Compile every kernel first, so a typo fails before anything runs. A --param goes to every
    // kernel of the chain that has it (like the pragma); one none of them has is an error.
    std::vector<Step> steps;
    std::set<std::string> usedParams;
    for (auto& name : c.chain) {
        for (auto& st : steps)
            if (st.name == name) {
                std::cerr << "tilec: error: --chain names kernel '" << name
                          << "' twice (each kernel runs once)\n";
                return 1;
            }
        const ProgramKernel* pk = nullptr;
        for (auto& k : kernels)
            if (k.name == name) pk = &k;
        CompileFlags f = c.flags;
        f.kernel = name;
        f.pragmaNote = steps.empty();
        f.params.clear();
        for (auto& kv : c.flags.params) {
            std::string p = kv.substr(0, kv.find('='));
            if (pk && std::find(pk->params.begin(), pk->params.end(), p) == pk->params.end())
                continue;
            f.params.push_back(kv);
            usedParams.insert(p);
        }
        CompileOptions opts;
        opts.recordSnapshots = false;
        auto r = compileFile(f, opts);
        if (!r) return 1;
        if (printDiagnostics(*r) || !r->ok) return 1;
        steps.push_back({name, std::move(*r)});
    }
    for (auto& [p, _] : *params)
        if (!usedParams.count(p)) {
            std::cerr << "tilec: error: --param " << p << ": no kernel of the chain has it\n";
            return 1;
        }
    // A kernel of the chain as --bind names it: as --chain spells it, or the same kernel with or
    // without its test (`shift` for `test_affine.shift` and back) when that names one kernel
    // (helper-126 D8: the spellings had to match exactly).
    auto bare = [](const std::string& n) { return n.substr(n.rfind('.') == std::string::npos ? 0 : n.rfind('.') + 1); };
    auto resolve = [&](std::string& name) {
        std::vector<std::string> hits;
        for (auto& st : steps)
            if (st.name == name) return;
        for (auto& st : steps)
            if (bare(st.name) == bare(name) && (st.name == bare(name) || name == bare(name)))
                hits.push_back(st.name);
        if (hits.size() == 1) name = hits.front();
    };
    std::string chainList;
    for (auto& st : steps) chainList += (chainList.empty() ? "" : ", ") + st.name;
    std::set<std::string> boundParams;
    for (auto& b : binds) {
        resolve(b.kernel);
        resolve(b.fromKernel);
        bool found = false;
        for (auto& st : steps)
            if (st.name == b.kernel)
                for (auto& a : st.r.kernel.args) found |= !a.isOutput && a.name == b.param;
        if (!found) {
            std::cerr << "tilec: error: --bind " << b.kernel << "." << b.param
                      << ": no kernel of the chain named '" << b.kernel
                      << "' has an input parameter '" << b.param << "'\n  hint: the chain's kernels are "
                      << chainList << "; write --bind KERNEL.PARAM=KERNEL0.PARAM0\n";
            return 1;
        }
        if (!boundParams.insert(key(b.kernel, b.param)).second) {
            std::cerr << "tilec: error: --bind " << key(b.kernel, b.param)
                      << " is given twice\n  hint: bind each input once\n";
            return 1;
        }
    }
    const uint64_t seed = c.seed ? c.seed : rt::freshSeed();
    std::string why;
    const auto device = !c.interp.empty() ? std::nullopt : workerDevice(why);
    const rt::DeviceInfo* gpu = device ? &*device : nullptr;
    Device dev = gpu ? Device::Gpu : c.interp == "lowered" ? Device::Lowered : Device::Tile;
    if (!gpu && c.interp.empty())
        info() << "no GPU (" << why << "): running on the CPU interpreter\n";
    info() << "chain of " << steps.size() << (steps.size() == 1 ? " kernel on " : " kernels on ")
              << (dev == Device::Gpu    ? gpu->name
                  : dev == Device::Tile ? std::string("the tile-level interpreter")
                                        : std::string("the thread-level interpreter (lowered)"))
              << "; seed " << seed << "\n";
    auto run = execute(steps, binds, seed, dev, gpu, c.flags, true);
    if (!run) return 1;
    std::string finals;
    for (auto& k : run->finalKeys) finals += " " + k;
    info() << "final outputs:" << finals << "\n";
    if (!c.ref.empty() && c.check == "ref") {
        auto t0 = std::chrono::steady_clock::now();
        auto ref = chainReference(c.ref, c.flags.file, steps, *run);
        if (!ref) return 1;
        std::printf("check against %s (float64, %.2f s):\n", c.ref.c_str(),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        return check(steps, *run, *ref, c.rtol, true);
    }
    if (dev == Device::Tile) {
        std::cout << "no --ref: nothing to check against (the tile-level interpreter is the "
                     "reference)\nNOT CHECKED\n";
        return 0;
    }
    std::cout << "check against the same chain on the tile-level interpreter:\n";
    auto ref = execute(steps, binds, seed, Device::Tile, nullptr, c.flags, false);
    if (!ref) return 1;
    return check(steps, *run, ref->finals, c.rtol, dev == Device::Gpu);  // the GPU's arithmetic differs in the last bits
}

}  // namespace ts::cli
