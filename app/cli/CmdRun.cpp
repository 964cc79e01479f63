// `tilec run` and `tilec bench`: compile, draw seeded random inputs, poison outputs, execute on
// the GPU (or the CPU interpreter), compare every output with the float64 reference, time.
#include <chrono>
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <cctype>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "app/cli/Baseline.h"
#include "app/cli/Commands.h"
#include "app/cli/DumpOutputs.h"
#include "app/cli/GpuWorker.h"
#include "app/cli/HostMemory.h"
#include "app/cli/InterpProgress.h"
#include "app/cli/Record.h"
#include "app/cli/PointerTables.h"
#include "compiler/interp/Pointers.h"
#include "app/cli/RunSupport.h"
#include "profiler/check/InputRules.h"
#include "compiler/LaunchArgs.h"
#include "compiler/frontend/Ast.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Functor.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "profiler/cuda/Driver.h"
#include "profiler/Runtime.h"
#include "profiler/check/Compare.h"
#include "profiler/check/Inputs.h"
#include "profiler/check/Reference.h"

namespace ts::cli {

namespace {
/// The selected kernel's pointer tables and their pointees (PointerTables.h), set by runRun.
PointerTableRun g_pointers;
}  // namespace

std::string inputRuleHint(const std::string& example) {
    // Every form parseInputRule accepts (profiler/check/Inputs.cpp), and the CLI's @PATH. A
    // malformed value printed only the parse error ("uniform takes 2 numbers"): a fresh user did
    // not learn how the option is written (helper-95).
    return "write --input NAME=RULE, RULE one of offsets:TOTAL, int:LO:HI, uniform:LO:HI, distinct:N, fill:V, arange, "
           "sparse:N:M, values:V1,V2,... or @PATH (a file holding the rule); e.g. --input " +
           (example.empty() ? std::string("A") : example) + "=uniform:-1:1";
}

std::string inputRuleProblem(const std::string& kv) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return "'" + kv + "' is not NAME=RULE";
    const std::string text = kv.substr(eq + 1);
    if (!text.empty() && text[0] == '@') return {};
    std::string error;
    if (!rt::parseInputRule(text, error)) return kv.substr(0, eq) + ": " + error;
    return {};
}

/// Random inputs for the kernel's signature; false (after an error on stderr) when they do not
/// fit in host memory or the signature is unusable.
bool makeInputsOrReport(const std::vector<rt::TensorParam>& sig, rt::InputOptions io,
                        rt::InputSet& set, const std::vector<std::string>& ruleTexts) {
    std::map<std::string, rt::InputRule> rules;
    // The example of the hint names one of the kernel's inputs.
    std::string example;
    for (auto& p : sig)
        if (!p.isOutput && example.empty()) example = p.name;
    for (const std::string& kv : ruleTexts) {
        size_t eq = kv.find('=');
        std::string error;
        if (eq == std::string::npos || eq == 0) {
            std::cerr << "tilec: error: --input " << inputRuleProblem(kv) << "\n  hint: " << inputRuleHint(example) << "\n";
            return false;
        }
        std::string text = kv.substr(eq + 1);
        // NAME=@PATH: the rule is the text of file PATH (a values: list of half a million block
        // indices does not fit a command line: execve's E2BIG, bench/conformance/run.py).
        if (!text.empty() && text[0] == '@') {
            std::ifstream in(text.substr(1), std::ios::binary);
            if (!in) {
                std::cerr << "tilec: error: --input " << kv.substr(0, eq) << ": cannot read '"
                          << text.substr(1) << "'\n";
                return false;
            }
            std::ostringstream buf;
            buf << in.rdbuf();
            text = buf.str();
            while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
                text.pop_back();
        }
        auto rule = rt::parseInputRule(text, error);
        if (!rule) {
            std::cerr << "tilec: error: --input " << kv.substr(0, eq) << ": " << error << "\n  hint: " << inputRuleHint(example)
                      << "\n";
            return false;
        }
        rules[kv.substr(0, eq)] = *rule;
    }
    if (auto problem = hostMemoryProblem(sig, physicalMemoryBytes())) {
        std::cerr << "tilec: error: " << *problem << "\n";
        return false;
    }
    try {
        set = rt::makeInputs(sig, io, rules);
        return true;
    } catch (const std::bad_alloc&) {
        std::cerr << "tilec: error: the kernel's tensors do not fit in host memory (check the "
                     "shape parameters)\n";
    } catch (const std::exception& e) {
        std::cerr << "tilec: error: " << e.what() << "\n";
    }
    return false;
}

std::vector<rt::TensorParam> signatureOf(const CompileResult& r) {
    std::vector<rt::TensorParam> sig;
    for (auto& a : r.kernel.args) sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
    return sig;
}

/// The signature inputs are made from: --inout outputs are filled like inputs (random values,
/// --input rules), so they reach the kernel with data, which it keeps where it does not write.
/// False (after an error on stderr) when a name is not an output tensor of the kernel.
bool inoutSignature(const CompileResult& r, const CompileFlags& flags,
                    std::vector<rt::TensorParam>& sig) {
    for (size_t i = 0; i < flags.inout.size(); ++i) {
        const std::string& name = flags.inout[i];
        if (std::find(flags.inout.begin(), flags.inout.begin() + long(i), name) != flags.inout.begin() + long(i)) {
            // The second mention found the output already turned into an input: "no output 'C' (outputs: C)".
            std::cerr << "tilec: error: --inout names '" << name << "' twice\n";
            return false;
        }
        auto it = std::find_if(sig.begin(), sig.end(),
                               [&](const rt::TensorParam& p) { return p.name == name; });
        if (it == sig.end() || !it->isOutput) {
            std::string outs;
            for (const auto& a : r.kernel.args)
                if (a.isOutput) outs += (outs.empty() ? "" : ", ") + a.name;
            std::cerr << "tilec: error: --inout " << name << ": the kernel has no output tensor '"
                      << name << "' (outputs: " << (outs.empty() ? "none" : outs) << ")\n";
            return false;
        }
        it->isOutput = false;
    }
    return true;
}

/// Outputs the kernel only accumulates into with atomics start at zero (LaunchArgs.h) instead of
/// being poisoned: on the GPU an output with data is uploaded as its initial value.
void zeroAtomicOutputs(const CompileResult& r, rt::InputSet& set) {
    if (!r.elaborated) return;
    for (int i : atomicOnlyOutputs(*r.elaborated)) {
        HostTensor& t = set.tensors[static_cast<size_t>(i)];
        if (t.hasData()) continue;  // an --inout output keeps its initial values
        t.data.assign(static_cast<size_t>(t.numel()), 0.0);
        info() << "output " << r.kernel.args[static_cast<size_t>(i)].name
               << " starts at zero (only T.atomic_* write it)\n";
    }
}

/// Scalar-argument values (symbolic sizes, `n: T.int32`) of this run, per KernelInfo::scalars.
static std::vector<double> g_scalars;

/// Fixes the sizes of a kernel with scalar arguments for this run (--param values or the
/// documented defaults, compiler/LaunchArgs.h): concrete tensor shapes and grid are written into
/// r.kernel, the values kept for the launch. Prints what was chosen; false after an error.
bool applyLaunchValues(CompileResult& r) {
    g_scalars.clear();
    // Pointer tables: their pointees become tensor arguments after the kernel's own.
    if (std::string why; !addPointees(r, g_pointers, why)) {
        std::cerr << "tilec: error: " << why << "\n";
        return false;
    }
    if (r.kernel.scalars.empty()) return true;
    std::string error;
    Span at;
    auto lv = resolveLaunch(r.kernel, r.lowered, error, at);
    if (!lv) {
        if (at.valid() && r.source)  // FILE:LINE:COL and the source line, as every compile error
            std::cerr << formatDiagnostic(Diagnostic{Severity::Error, at, error, {}, "launch"}, r.source.get());
        else
            std::cerr << "tilec: error: " << error << "\n";
        return false;
    }
    for (size_t i = 0; i < r.kernel.args.size() && i < lv->shapes.size(); ++i) r.kernel.args[i].shape = lv->shapes[i];
    for (int d = 0; d < 3; ++d) r.kernel.grid[d] = lv->grid[d], r.kernel.gridExtent[d] = nullptr;
    g_scalars = lv->scalars;
    for (auto& n : lv->notes) info() << "scalar argument " << n << "\n";
    // The launches of a several-block function share the scalars; each has its own grid.
    for (CompileResult& l : r.launches) {
        auto llv = resolveLaunch(l.kernel, l.lowered, error);
        if (!llv) {
            std::cerr << "tilec: error: " << error << "\n";
            return false;
        }
        for (size_t i = 0; i < l.kernel.args.size(); ++i) l.kernel.args[i].shape = llv->shapes[i];
        for (int d = 0; d < 3; ++d) l.kernel.grid[d] = llv->grid[d], l.kernel.gridExtent[d] = nullptr;
    }
    return true;
}

bool oneLaunchOrReport(const CompileResult& r, const char* command) {
    if (r.launches.empty()) return true;
    std::string lines;
    for (const CompileResult& l : r.launches)
        lines += (lines.empty() ? "" : ", ") + std::to_string(l.elaborated->span.line);
    std::cerr << "tilec: error: `tilec " << command << "` works on one kernel launch, and "
              << (r.selected() ? "'" + r.selected()->name + "'" : std::string("this kernel"))
              << " launches " << r.launches.size() << " T.Kernel blocks in order (lines " << lines
              << ")\n  hint: tilec run checks the whole sequence (GPU, --interp, --interp=lowered); "
                 "for tilec "
              << command << ", move the block you want into a kernel function of its own\n";
    return false;
}

std::optional<std::vector<HostTensor>> runLaunchesOnGpu(CompileResult& r, rt::InputSet& set,
                                                        const CompileFlags& flags,
                                                        const std::string& deviceArch,
                                                        rt::RunResult& last, double& launchMs,
                                                        std::string& why) {
    launchMs = 0;
    for (size_t li = 0; li < r.launches.size(); ++li) {
        const CompileResult& l = r.launches[li];
        last = runInWorker(requestFor(l, set, flags, deviceArch));
        if (!last.ok) {
            why = "launch " + std::to_string(li + 1) + " of " + std::to_string(r.launches.size()) +
                  " (" + l.kernel.name + "): " + rt::stageName(last.failedStage) + " failed: " +
                  last.error;
            return std::nullopt;
        }
        launchMs += last.launchMs;
        // What this launch wrote is what the next one reads (outputs come back in order).
        size_t k = 0;
        for (size_t i = 0; i < l.kernel.args.size() && k < last.outputs.size(); ++i)
            if (l.kernel.args[i].isOutput) set.tensors[i] = std::move(last.outputs[k++].tensor);
    }
    std::vector<HostTensor> outs;
    for (size_t i = 0; i < r.kernel.args.size(); ++i)
        if (r.kernel.args[i].isOutput) outs.push_back(set.tensors[i]);
    return outs;
}

static rt::LaunchConfig launchOf(const CompileResult& r) {
    rt::LaunchConfig lc;
    for (int i = 0; i < 3; ++i) lc.grid[i] = r.kernel.grid[i], lc.block[i] = r.kernel.block[i];
    lc.dynamicSmemBytes = r.kernel.dynamicSmemBytes;
    lc.cooperative = r.kernel.cooperative;
    return lc;
}

/// The launch request for a compiled kernel: its CUDA, signature, launch shape and inputs, for
/// the --target arch (default: the device's).
rt::RunRequest requestFor(const CompileResult& r, const rt::InputSet& set,
                          const CompileFlags& flags, const std::string& deviceArch) {
    rt::RunRequest req;
    req.source = r.cuda;
    req.kernel = r.kernel.name;
    req.signature = signatureOf(r);
    req.config = launchOf(r);
    req.tensors = set.tensors;
    for (auto& m : r.kernel.tensorMaps) req.tensorMaps.push_back({m.tensor, m.boxInner, m.boxOuter, m.swizzleBytes, m.rowDim});
    for (size_t i = 0; i < r.kernel.scalars.size() && i < g_scalars.size(); ++i)
        req.scalars.push_back({r.kernel.scalars[i].dtype, g_scalars[i]});
    if (g_pointers.active()) {  // PointerTables.h: the tables hold the pointees' device addresses
        req.kernelTensors = static_cast<int>(g_pointers.kernelTensors);
        for (auto& t : g_pointers.tables) req.pointerFills.push_back({t.param, t.pointees});
    }
    auto t = parseTarget(flags.target.empty() ? "cuda:" + deviceArch : flags.target);
    req.arch = t ? rt::loadableArch(t->arch(), deviceArch) : deviceArch;
    static bool noted = false;
    if (t && req.arch != t->arch() && !noted && !quiet()) {
        noted = true;
        std::cerr << "note: the " << t->arch() << " code path is compiled for " << req.arch
                  << " to load on this GPU (a cubin runs only on its own major compute capability)\n";
    }
    return req;
}

namespace {
double g_interpTimeLimitS = 0;  ///< setInterpTimeLimit
const std::atomic<bool>* g_interpCancel = nullptr;  ///< setInterpCancel
}  // namespace

void setInterpTimeLimit(double seconds) { g_interpTimeLimitS = seconds; }
void setInterpCancel(const std::atomic<bool>* cancel) { g_interpCancel = cancel; }

/// Runs the program on the interpreter with the given inputs; outputs NaN-poisoned. `lowered`:
/// the thread-level interpreter on the IR after the last pass, else the tile-level one on the
/// elaborated IR.
std::optional<std::vector<HostTensor>> runInterp(const CompileResult& r,
                                                 const std::vector<HostTensor>& inputs,
                                                 std::string& why, bool lowered,
                                                 bool interactive) {
    std::vector<HostTensor> args = inputs;
    for (size_t i = 0; i < args.size(); ++i)
        if (r.kernel.args[i].isOutput && !args[i].hasData()) {  // zero-started outputs keep theirs
            int64_t n = 1;
            for (auto e : args[i].shape) n *= e;
            args[i].data.assign(static_cast<size_t>(n), std::nan(""));
        }
    interp::InterpOptions io;
    // Pointer tables (PointerTables.h): the pointees are the interpreter's memory, the tables
    // hold pointer values into it (interp/Pointers.h); they rejoin the arguments afterwards.
    std::vector<HostTensor> memory;
    const size_t ownTensors = g_pointers.active() ? std::min(g_pointers.kernelTensors, args.size()) : args.size();
    if (g_pointers.active()) {
        memory.assign(std::make_move_iterator(args.begin() + ownTensors), std::make_move_iterator(args.end()));
        args.resize(ownTensors);
        for (auto& t : g_pointers.tables) {
            HostTensor& tab = args[size_t(t.param)];
            tab.data.assign(t.pointees.size(), 0.0);
            for (size_t g = 0; g < t.pointees.size(); ++g)
                tab.data[g] = interp::pointerValue(int64_t(t.pointees[g]) - int64_t(ownTensors));
        }
    }
    io.scalars = g_scalars;
    io.cancel = g_interpCancel;  // an interactive run replaces it with its own Ctrl-C guard
    io.timeLimitS = g_interpTimeLimitS;
    io.timeLimitHint = "--time-limit SECONDS raises the limit (0: none)";
    // The tile level runs a several-block function's blocks in order itself (elaborated holds
    // them all); the thread level runs each launch's lowered IR in turn on the same tensors.
    std::vector<const ir::PrimFunc*> steps;
    if (lowered && !r.launches.empty())
        for (const CompileResult& l : r.launches) steps.push_back(&l.lowered);
    else
        steps.push_back(lowered ? &r.lowered : &r.elaborated);
    std::optional<InterruptGuard> ctrlC;
    std::optional<InterpProgress> progress;
    auto t0 = std::chrono::steady_clock::now();
    if (interactive) {
        ctrlC.emplace();
        io.cancel = ctrlC->cancelFlag();
        if (progressWanted()) progress.emplace(std::cerr, isatty(STDERR_FILENO) != 0);
    }
    for (size_t step = 0; step < steps.size(); ++step) {
        const ir::PrimFunc* f = steps[step];
        if (progress) {
            io.onBlock = [&](int64_t done, int64_t total) {
                progress->update(done, total, int(step) + 1, int(steps.size()));
            };
            io.onLoop = [&](const interp::LoopProgress& l) {
                progress->loop(l.loop.line, l.iteration, l.extent, l.block, l.blocks);
            };
        }
        auto res = g_pointers.active() ? interp::runWithMemory(*f, args, memory, io, lowered)
                   : lowered           ? interp::runLowered(*f, args, io)
                                       : interp::run(*f, args, io);
        if (progress) progress->finish();
        if (!res.ok && ctrlC && ctrlC->interrupted()) {
            // The user's Ctrl-C, not the kernel's failure: say how far it got and stop.
            double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::cerr << "tilec: stopped (Ctrl-C) after " << res.blocksRun
                      << (progress && progress->total() > 0
                              ? " of " + std::to_string(progress->total())
                              : std::string())
                      << " blocks" << (steps.size() > 1 ? " of launch " + std::to_string(step + 1) : "")
                      << " on the interpreter (" << std::fixed << std::setprecision(1) << s
                      << " s); smaller --param sizes run faster\n";
            std::exit(130);
        }
        // Problems that did not stop the run (reads of never-written float shared memory):
        // printed before the verdict, since they explain a NaN the check then reports.
        for (const Diagnostic& w : res.warnings) std::cerr << formatDiagnostic(w, r.source.get());
        // T.print's lines of the run the user asked for (not of a reference run), on stdout as
        // the GPU's printf, in the interpreter's order.
        if (interactive)
            for (const std::string& line : res.log) std::cout << line << "\n";
        if (!res.ok) {
            why = res.error ? formatDiagnostic(*res.error, r.source.get()) : "interpreter failed";
            return std::nullopt;
        }
    }
    for (auto& m : memory) args.push_back(std::move(m));
    std::vector<HostTensor> outs;
    for (size_t i = 0; i < args.size(); ++i)
        if (r.kernel.args[i].isOutput) outs.push_back(std::move(args[i]));
    return outs;
}

bool hasFloat32Gemm(const CompileResult& r) {
    bool found = false;
    if (r.elaborated)
        ir::walk(r.elaborated->body, [&](const ir::Stmt& st) {
            auto* t = ir::as<ir::TileOpNode>(st);
            if (t && t->op == ir::TileOpKind::Gemm && !t->args.empty() && t->isRegion(0) &&
                t->region(0).buffer->dtype == ir::DType::Float32)
                found = true;
        });
    return found;
}

namespace {
std::vector<rt::OutputSpec> outputSpecs(const CompileResult& r) {
    std::vector<rt::OutputSpec> specs;
    for (auto& a : r.kernel.args)
        if (a.isOutput) specs.push_back({a.name, a.shape});
    return specs;
}

/// Compares outputs with the reference, prints one line per output; true if all pass. With
/// `byArgDtypes` (see tolerancesByArgDtypes), outputs without an explicit tolerance in `opt` use
/// rt::referenceTolerance over the kernel's argument dtypes. A
/// reference that does not fit the outputs (count or shape) is an error, printed to stderr.
bool checkOutputs(const CompileResult& r, const std::vector<HostTensor>& outs,
                  const std::vector<HostTensor>& refs, const rt::CompareOptions& opt,
                  bool byArgDtypes) {
    std::vector<ir::DType> argTypes;
    for (auto& a : r.kernel.args) argTypes.push_back(a.dtype);
    const bool tf32 = byArgDtypes && hasFloat32Gemm(r);
    const auto specs = outputSpecs(r);
    if (auto bad = rt::referenceMismatch(specs, refs); !bad.empty()) {
        std::cerr << "tilec: error: " << bad << "\n";
        return false;
    }
    if (outs.size() != specs.size()) {
        std::cerr << "tilec: error: the kernel produced " << outs.size() << " outputs, expected "
                  << specs.size() << "\n";
        return false;
    }
    bool all = true;
    if (auto note = rt::uncheckedOutputs(specs, refs); !note.empty())
        std::cout << "  note: " << note << "\n";
    for (size_t k = 0; k < specs.size() && k < refs.size(); ++k) {
        if (outs[k].shape != refs[k].shape || !outs[k].hasData()) {
            std::cerr << "tilec: error: output " << specs[k].name << " has shape "
                      << formatShape(outs[k].shape) << ", the reference "
                      << formatShape(refs[k].shape) << "\n";
            return false;
        }
        rt::CompareOptions use = opt;
        if (!use.relL2Tolerance && byArgDtypes) {
            auto ref = rt::referenceOptions(outs[k].dtype, argTypes, tf32);
            use.relL2Tolerance = ref.relL2Tolerance;
            if (!use.elementFactor) use.elementFactor = ref.elementFactor;
        }
        auto c = rt::compare(outs[k], refs[k], use);
        std::cout << "  " << specs[k].name << ": " << rt::describe(c, &outs[k], &refs[k]) << "\n";
        all &= c.pass;
    }
    return all;
}

/// Where the expected outputs came from.
enum class RefSource { RefProgram, Interpreter };

/// Whether outputs checked against `source` take rt::referenceTolerance's rule over the argument
/// dtypes: a float64 ref_program, and GPU outputs against the tile-level interpreter too. The
/// GPU's float32 arithmetic differs from the interpreter's in the last bits (NVRTC contracts
/// a*b+c into an FMA, tensor cores accumulate in their own order, exp2f/expf are within 2 ulp,
/// atomics land in any order), and a float16/bfloat16 rounding of an intermediate turns one such
/// bit into a 16-bit ulp (2^-11 / 2^-8) that later arithmetic carries on (the recurrent state
/// of gdn/kda chunk_delta_h). The lowered interpreter against the tile-level one is the same
/// arithmetic: the exact per-output rule stays.
bool tolerancesByArgDtypes(RefSource source, bool onGpu) {
    return source == RefSource::RefProgram || onGpu;
}

/// The expected outputs: the file's ref_program in float64 when mode is "ref" and it has one,
/// else the tile-level interpreter. nullopt with `why` on failure.
std::optional<std::vector<HostTensor>> reference(const CompileResult& r,
                                                 const std::vector<HostTensor>& inputs,
                                                 const std::string& mode, std::string& why,
                                                 std::string& label, RefSource& source,
                                                 const std::string& refName,
                                                 const CompileFlags& flags) {
    if (mode == "ref") {
        auto start = std::chrono::steady_clock::now();
        ReferenceExtras extras;
        extras.scalars = g_scalars;
        extras.inputs = flags.refInputs;
        extras.inout = flags.inout;
        for (const std::string& kv : flags.refParams) {
            size_t eq = kv.find('=');
            if (eq == std::string::npos || eq == 0) {
                why = "--ref-param " + kv + ": expected NAME=VALUE";
                return std::nullopt;
            }
            extras.namedValues[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
        auto out = referenceOutputs(r, inputs, why, refName, extras);
        if (out) {
            double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            char buf[256];
            std::snprintf(buf, sizeof buf, "%s (float64, %.2f s)",
                          refName.empty() ? "ref_program" : refName.c_str(), s);
            label = buf;
            source = RefSource::RefProgram;
            return out;
        }
        if (!why.empty()) return std::nullopt;
    }
    label = "the tile-level interpreter";
    source = RefSource::Interpreter;
    return runInterp(r, inputs, why);
}

/// Why there is no reference, for the "checked against the interpreter" line: a kernel other
/// than the file's default one does not use the file's ref_program.
std::string noReferenceText(const CompileResult& r) {
    const ProgramKernel* k = r.selected();
    if (k && !k->isDefault && r.module && rt::findReferenceProgram(*r.module->ast()))
        return "no reference for kernel '" + k->name +
               "' (the file's ref_program is for its default kernel; name one with --ref)";
    return "no ref_program";
}

/// Prints `why` as an error: as it is when it is already a located diagnostic ("FILE:L:C:
/// error: ..."), else after "tilec: error: " (so a diagnostic does not read "error: ... error:").
void printRunError(const std::string& why, const std::string& prefix = {}) {
    const size_t at = why.find(": error: ");
    if (at != std::string::npos && at < why.find('\n')) {
        std::cerr << why;
        if (why.back() != '\n') std::cerr << "\n";
        return;
    }
    std::cerr << "tilec: error: " << prefix << why << "\n";
}

/// Integer input tensors the run filled with random values (no --input rule): when the kernel
/// then indexes out of bounds, these are the likely cause (cu_seqlens, block indices, offsets).
std::string randomIntegerInputsHint(const CompileResult& r, const CompileFlags& flags) {
    std::string names;
    for (const TensorArg& a : r.kernel.args) {
        if (a.isOutput || !ir::isInt(a.dtype)) continue;
        bool ruled = false;
        for (const std::string& rule : flags.inputRules)
            ruled = ruled || rule.rfind(a.name + "=", 0) == 0;
        if (!ruled) names += (names.empty() ? "" : ", ") + a.name;
    }
    if (names.empty()) return {};
    return "  hint: the integer input(s) " + names +
           " were filled with random values; if they are offsets, indices or sizes, give valid "
           "ones with --input NAME=RULE (offsets:TOTAL, int:LO:HI, distinct:N, fill:V, arange, "
           "values:V1,V2,...)\n";
}

/// After a GPU fault: the command that replays the same inputs (--seed) on the tile interpreter,
/// which checks every global and shared access and stops at the first one out of bounds with its
/// file:line:col -- the GPU says only CUDA_ERROR_ILLEGAL_ADDRESS.
std::string faultHint(const CompileResult& r, const RunCommand& c, uint64_t seed) {
    auto quoted = [](const std::string& a) {
        return a.find_first_of(" '\"()[]*$;&|<>") == std::string::npos ? a : "'" + a + "'";
    };
    std::string cmd = "tilec run " + quoted(c.flags.file);
    if (!c.flags.kernel.empty()) cmd += " -k " + quoted(c.flags.kernel);
    if (!c.flags.target.empty()) cmd += " --target " + quoted(c.flags.target);
    for (const std::string& p : c.flags.params) cmd += " -p " + quoted(p);
    for (const std::string& i : c.flags.inputRules) cmd += " --input " + quoted(i);
    cmd += " --seed " + std::to_string(seed) + " --interp";
    return "  hint: find the faulting access on the CPU: `" + cmd +
           "` replays these inputs and names the first access out of bounds (file:line:col)\n" +
           randomIntegerInputsHint(r, c.flags);
}

/// Where to fix a reference whose results do not fit the outputs: its def, located.
std::string referenceShapeHint(const CompileResult& r, const std::string& refName) {
    std::string why;
    auto t = referenceTarget(r, refName, why);
    const fe::ast::FunctionDef* fn = t ? rt::findReferenceProgram(*t->ast, t->name) : nullptr;
    if (!fn) return {};
    return "  hint: " + t->source->path() + ":" + std::to_string(fn->nameSpan.line) + ": '" +
           t->name + "' must return the kernel's outputs in order, each of its output's shape; "
           "fix what it returns, or pick its inputs with --ref-inputs\n";
}

}  // namespace

int runRun(const RunCommand& c) {
    setInterpTimeLimit(c.timeLimitS);
    setProgressForced(c.progress);
    CompileOptions opts;
    opts.recordSnapshots = false;
    auto r = compileFile(c.flags, opts);
    if (!r) return 1;
    if (printDiagnostics(*r) || !r->ok) return 1;
    if (!applyLaunchValues(*r)) return 1;
    const std::string refName = referenceName(*r, c.ref);
    if (c.check == "ref" && !refName.empty()) {
        // A misspelt --ref is reported before the kernel runs (a lowered run takes seconds).
        std::string why;
        if (!referenceTarget(*r, refName, why) && !why.empty()) {
            printRunError(why, "no reference: ");
            return 1;
        }
    }
    auto sig = signatureOf(*r);
    if (!inoutSignature(*r, c.flags, sig)) return 1;
    // HIP kernels never launch here (TileScope has no HIP runtime path and no AMD GPU): they
    // run on the thread interpreter, which executes the HIP lowering (64-lane wavefronts).
    const bool hip = r->language == "hip";
    const bool lowered = c.interp == "lowered" || (hip && c.interp.empty());
    std::string why;
    const auto gpu = !c.interp.empty() || hip ? std::nullopt : workerDevice(why);
    // An interpreter refuses a tensor over its size limit only when it binds it: refuse it
    // before the inputs are allocated (at 65536^3 a gemm's would be ~300 GB of doubles).
    if (auto problem = gpu ? std::nullopt : interpreterSizeProblem(*r)) {
        std::cerr << "tilec: error: " << *problem << "\n";
        return 1;
    }
    rt::InputOptions io;
    io.fresh = c.seed == 0;
    io.seed = c.seed;
    rt::InputSet set;
    if (!makeInputsOrReport(sig, io, set, c.flags.inputRules)) return 1;
    zeroAtomicOutputs(*r, set);
    // What runs and how (target, kernel, seed, where, how long) goes to info(): not under -q.
    auto describe = [](const CompileResult& l) {
        info() << "kernel " << l.kernel.name;
        if (const ProgramKernel* k = l.selected(); k && l.kernels.size() > 1)
            info() << " (" << k->name << ", " << l.selectedKernel + 1 << " of "
                   << l.kernels.size() << " kernels)";
        info() << ": grid (" << l.kernel.grid[0] << ", " << l.kernel.grid[1] << ", "
               << l.kernel.grid[2] << "), ";
        const auto& bd = l.kernel.block;  // threads=(32, 4): 128 threads, not 32
        info() << bd[0] * bd[1] * bd[2] << " threads";
        if (bd[1] > 1 || bd[2] > 1) info() << " (" << bd[0] << ", " << bd[1] << (bd[2] > 1 ? ", " + std::to_string(bd[2]) : "") << ")";
        info() << ", " << l.kernel.dynamicSmemBytes << " B shared";
    };
    // Without a GPU the target is tilec's fallback, not the user's choice: say so (the
    // lowered interpreter and every compile check follow it).
    if (const DefaultTargetChoice& t = lastDefaultedTarget(); !t.target.empty() && !t.fromGpu)
        info() << defaultTargetNote(t) << "\n";
    if (r->launches.empty()) {
        describe(*r);
    } else {
        info() << r->launches.size() << " launches in order (T.Kernel blocks):\n";
        for (size_t i = 0; i < r->launches.size(); ++i) {
            info() << "  " << i + 1 << ". line " << r->launches[i].elaborated->span.line << " ";
            describe(r->launches[i]);
            info() << "\n";
        }
    }
    info() << (r->launches.empty() ? "; seed " : "seed ") << set.seed << "\n";

    std::vector<HostTensor> outs;
    nlohmann::json record;  // GPU runs only: the results store keeps device results
    if (hip && c.interp.empty())
        info() << "hip:gfx90a: no AMD GPU runtime; running the HIP lowering on the thread "
                  "interpreter (--interp=lowered)\n";
    std::cout.flush();  // the kernel line reaches a pipe before the launch (see below)
    if (gpu && !r->launches.empty()) {
        // Several T.Kernel blocks: each launch in turn on the tensors the previous left.
        rt::RunRequest req = requestFor(r->launches.front(), set, c.flags, rt::archFor(*gpu));
        record = baseRecord("run", *r, c.flags, gpu, req.arch);
        rt::RunResult last;
        double ms = 0;
        auto o = runLaunchesOnGpu(*r, set, c.flags, rt::archFor(*gpu), last, ms, why);
        if (!o) {
            std::cerr << "tilec: error: " << why << "\n";
            record["status"] = runFailureStatus(last);
            record["reason"] = why;
            storeRecord(record);
            return 1;
        }
        if (!quiet())
            std::printf("ran %zu launches on %s (%s): %.3f ms (first launch of each, incl. sync)\n",
                        r->launches.size(), gpu->name.c_str(), req.arch.c_str(), ms);
        outs = std::move(*o);
        if (!c.dumpOutputs.empty() && !dumpOutputs(c.dumpOutputs, *r, outs, "gpu", set.seed)) return 1;
    } else if (gpu) {
        rt::RunRequest req = requestFor(*r, set, c.flags, rt::archFor(*gpu));
        record = baseRecord("run", *r, c.flags, gpu, req.arch);
        auto res = runInWorker(req);
        if (!res.ok) {
            std::cerr << "tilec: error: " << rt::stageName(res.failedStage)
                      << " failed: " << res.error << "\n";
            if (runFailureStatus(res) == "fault") std::cerr << faultHint(*r, c, set.seed);
            record["status"] = runFailureStatus(res);
            record["reason"] = res.error;
            storeRecord(record);
            return 1;
        }
        record["resources"] = {{"registers", res.attributes.numRegs},
                               {"local_bytes", res.attributes.localBytes},
                               {"dynamic_smem", r->kernel.dynamicSmemBytes}};
        if (!quiet())
            std::printf("ran on %s (%s): %.3f ms (first launch, incl. sync); nvrtc %.1f ms%s\n",
                        gpu->name.c_str(), req.arch.c_str(), res.launchMs,
                        res.compile.compileMs, res.compile.cacheHit ? " (cached)" : "");
        for (auto& o : res.outputs) outs.push_back(std::move(o.tensor));
        if (!c.dumpOutputs.empty() && !dumpOutputs(c.dumpOutputs, *r, outs, "gpu", set.seed)) return 1;
    } else {
        if (c.interp.empty() && !hip)
            // Which interpreter (fresh-user finding: a user checking sm_90a's lowering got the
            // tile level, which runs before every target pass, and no word about it).
            info() << "no GPU (" << why << "): running on the CPU interpreter (tile level: the program before the "
                   << "target's lowering; --interp=lowered runs the lowered code of --target)\n";
        auto t0 = std::chrono::steady_clock::now();
        auto o = runInterp(*r, set.tensors, why, lowered, /*interactive=*/true);
        if (!o) {
            printRunError(why);
            if (why.find("out-of-bounds") != std::string::npos)
                std::cerr << randomIntegerInputsHint(*r, c.flags);
            return 1;
        }
        outs = std::move(*o);
        if (!c.dumpOutputs.empty() &&
            !dumpOutputs(c.dumpOutputs, *r, outs, lowered ? "lowered" : "tile", set.seed))
            return 1;
        if (!quiet())
            std::printf("ran on the CPU interpreter (%s): %.1f ms\n",
                        lowered ? "thread-level, lowered IR" : "tile-level",
                        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                            .count());
        // The tile-level interpreter is the semantics every other execution is checked
        // against; checking it against itself would prove nothing.
        if (!lowered && (c.check == "interp" || !hasReference(*r, refName))) {
            std::cout << (c.check == "interp" ? "--check interp" : noReferenceText(*r))
                      << ": nothing to check against (the tile-level interpreter is the "
                         "reference)\nNOT CHECKED\n";
            // A file that checks its kernel in its own code (torch.testing in a test function)
            // has no ref_program tilec can call: say how to get a check (helper-116).
            if (c.check != "interp")
                std::cout << "  hint: name the reference function with --ref NAME (e.g. --ref ref_program, --ref "
                             "module.function), or run with --interp=lowered or on the GPU: both are checked against "
                             "this interpreter\n";
            return 0;
        }
    }
    // The run's lines so far reach a pipe before the (possibly long, at real sizes) float64
    // reference starts: a harness that kills a slow run still sees which phase it was in.
    std::cout.flush();
    std::fflush(stdout);
    std::string label;
    why.clear();
    RefSource source{};
    auto ref = reference(*r, set.tensors, c.check, why, label, source, refName, c.flags);
    if (!ref) {
        printRunError(why, "no reference: ");
        return 1;
    }
    if (source == RefSource::Interpreter && c.check == "ref")
        std::cout << noReferenceText(*r) << ": checked against the tile-level interpreter\n";
    std::cout << "check against " << label << ":\n";
    if (auto bad = rt::referenceMismatch(outputSpecs(*r), *ref); !bad.empty()) {
        std::cerr << "tilec: error: " << bad << "\n";
        if (source == RefSource::RefProgram) std::cerr << referenceShapeHint(*r, refName);
        return 1;
    }
    rt::CompareOptions opt;
    if (c.rtol > 0) opt.relL2Tolerance = c.rtol;
    bool pass = checkOutputs(*r, outs, *ref, opt, tolerancesByArgDtypes(source, gpu.has_value()));
    std::cout << (pass ? "PASS" : "FAIL") << "\n";
    if (!record.is_null()) {
        record["status"] = pass ? "ok" : "wrong_result";
        record["check"] = pass ? "pass" : "fail";
        storeRecord(record);
    }
    return pass ? 0 : 2;
}

std::optional<GpuCompile> compileForGpu(const CompileFlags& flags, const char* command) {
    CompileOptions opts;
    opts.recordSnapshots = false;
    auto r = compileFile(flags, opts);
    if (!r) return std::nullopt;
    if (printDiagnostics(*r) || !r->ok) return std::nullopt;
    if (!oneLaunchOrReport(*r, command)) return std::nullopt;
    if (!applyLaunchValues(*r)) return std::nullopt;
    std::string why;
    if (r->language == "hip") {
        std::cerr << "tilec: error: " << command << " needs a GPU of the target: hip:gfx90a kernels cannot "
                     "run here (no AMD GPU or HIP runtime path)\n  hint: export the project "
                     "(tilec export, IDE: File > Export) and build it with hipcc on an AMD machine\n";
        return std::nullopt;
    }
    auto gpu = workerDevice(why);
    if (!gpu) {
        std::cerr << "tilec: error: " << command << " needs a GPU (" << why << ")\n";
        return std::nullopt;
    }
    return GpuCompile{std::move(*r), std::move(*gpu)};
}

int runBench(const BenchCommand& c) {
    if (!c.baseline.empty()) {
        // Before compiling: a library baseline is a GPU measurement, with no interpreter stand-in.
        std::string why;
        if (c.baseline != "cublas") {
            std::cerr << "tilec: error: --baseline '" << c.baseline
                      << "' is not a known library baseline (known: cublas)\n";
            return 1;
        }
        if (!rt::available(&why)) {
            std::cerr << "tilec: error: --baseline cublas needs an NVIDIA GPU: cuBLAS runs on the "
                         "device and has no interpreter stand-in (" << why << ")\n";
            return 1;
        }
    }
    auto compiled = compileForGpu(c.flags, "bench");
    if (!compiled) return 1;
    CompileResult* r = &compiled->r;
    const std::optional<rt::DeviceInfo> gpu = compiled->gpu;
    std::string why;
    auto sig = signatureOf(*r);
    if (!inoutSignature(*r, c.flags, sig)) return 1;
    rt::InputOptions io;
    io.fresh = true;
    rt::InputSet set;
    if (!makeInputsOrReport(sig, io, set, c.flags.inputRules)) return 1;
    zeroAtomicOutputs(*r, set);
    int64_t bytesPerSet = 0;
    for (auto& a : r->kernel.args) {
        int64_t n = dtypeBytes(a.dtype);
        for (auto e : a.shape) n *= e;
        bytesPerSet += n;
    }
    rt::RunRequest req = requestFor(*r, set, c.flags, rt::archFor(*gpu));
    req.timingReps = c.reps;
    req.timingWarmup = c.warmup;
    // Rotate through enough copies that one pass over them exceeds 3x L2 (METHOD.md: inputs
    // that fit in cache measure the cache).
    int64_t l2 = std::max<int64_t>(gpu->l2Bytes, 1);
    req.rotateSets = static_cast<int>(
        std::clamp<int64_t>((3 * l2 + bytesPerSet - 1) / std::max<int64_t>(bytesPerSet, 1), 1, 8));
    std::optional<rt::GemmShape> baselineGemm;
    if (!prepareBaseline(c.baseline, *r, baselineGemm)) return 1;
    nlohmann::json record = baseRecord("bench", *r, c.flags, gpu, req.arch);
    auto res = runInWorker(req);
    if (!res.ok || !res.timing) {
        std::cerr << "tilec: error: " << rt::stageName(res.failedStage) << " failed: " << res.error
                  << "\n";
        record["status"] = runFailureStatus(res);
        record["reason"] = res.error;
        storeRecord(record);
        return 1;
    }
    bool pass = true;
    std::string checkText = "skipped";
    if (c.check) {
        std::vector<HostTensor> outs;
        for (auto& o : res.outputs) outs.push_back(std::move(o.tensor));
        std::string label;
        RefSource source{};
        auto ref = reference(*r, set.tensors, "ref", why, label, source, referenceName(*r, c.ref),
                             c.flags);
        if (ref) {
            if (source == RefSource::Interpreter)
                std::cout << noReferenceText(*r)
                          << ": checked against the tile-level interpreter\n";
            std::cout << "check against " << label << ":\n";
            if (auto bad = rt::referenceMismatch(outputSpecs(*r), *ref); !bad.empty()) {
                std::cerr << "tilec: error: " << bad << "\n";
                return 1;
            }
            pass = checkOutputs(*r, outs, *ref, {}, tolerancesByArgDtypes(source, true));
            checkText = pass ? "pass" : "FAIL";
        } else {
            std::cout << "no reference (" << why << "): correctness not checked\n";
        }
    }
    double ms = res.timing->medianMs;
    std::printf(
        "%s on %s (%s): median %.4f ms over %d reps (min %.4f, max %.4f), %d rotating input sets\n",
        r->kernel.name.c_str(), gpu->name.c_str(), req.arch.c_str(), ms, res.timing->reps,
        res.timing->minMs, res.timing->maxMs, req.rotateSets);
    double tflops = r->flops ? *r->flops / (ms * 1e-3) / 1e12 : 0,
           gbs = r->bytes ? *r->bytes / (ms * 1e-3) / 1e9 : 0;
    if (r->flops) std::printf("  %.1f TFLOP/s\n", tflops);
    if (r->bytes) std::printf("  %.1f GB/s\n", gbs);
    std::printf(
        "  %d registers/thread, %d B local (spills) per thread, %zu B dynamic shared memory\n",
        res.attributes.numRegs, res.attributes.localBytes, r->kernel.dynamicSmemBytes);
    record["status"] = pass ? "ok" : "wrong_result";
    record["check"] = checkText == "pass" ? "pass" : checkText == "FAIL" ? "fail" : "skipped";
    record["time_ms"] = ms;
    record["metrics"] = {{"event_ms", ms}};
    if (r->flops) record["metrics"]["tflops"] = tflops;
    if (r->bytes) record["metrics"]["gbps"] = gbs;
    record["resources"] = {{"registers", res.attributes.numRegs},
                           {"local_bytes", res.attributes.localBytes},
                           {"dynamic_smem", r->kernel.dynamicSmemBytes}};
    storeRecord(record);
    nlohmann::json baselineRec;
    if (baselineGemm) {  // same reps, warm-up and rotating buffer sets as the kernel
        baselineRec = runBaseline(*baselineGemm, *r, c.flags, *gpu, req.arch, c.reps, c.warmup,
                                  req.rotateSets, nullptr, "");
        if (auto t = vsBaselineText(ms, baselineRec); !t.empty())
            std::printf("  %s: %s\n", r->kernel.name.c_str(), t.c_str());
    }
    if (!c.json.empty()) {
        nlohmann::json j;
        std::time_t now = std::time(nullptr);
        char date[32];
        std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
        j["date"] = date;
        j["device"] = gpu->name;
        j["arch"] = req.arch;
        j["file"] = c.flags.file;
        // The overrides in effect: the pragma's and --param's (defaults are implied by the file).
        std::vector<std::string> params;
        for (auto& p : r->params)
            if (p.overridden) params.push_back(p.name + "=" + p.value);
        j["params"] = params;
        j["kernel"] = r->kernel.name;
        if (const ProgramKernel* k = r->selected()) j["program_kernel"] = k->name;
        j["median_ms"] = ms;
        j["min_ms"] = res.timing->minMs;
        j["reps"] = res.timing->reps;
        j["rotate_sets"] = req.rotateSets;
        if (r->flops) j["tflops"] = tflops;
        if (r->bytes) j["gbps"] = gbs;
        j["registers"] = res.attributes.numRegs;
        j["smem_bytes"] = r->kernel.dynamicSmemBytes;
        j["check"] = checkText;
        if (!baselineRec.is_null()) {
            j["baseline"] = baselineRec;
            if (baselineRec.contains("time_ms"))
                j["vs_baseline"] = baselineRec["time_ms"].get<double>() / ms;
        }
        if (!writeJson(j, c.json)) return 1;
    }
    return pass ? 0 : 2;
}

int runPasses(const std::string& target) {
    const std::string spelt = target.empty() ? defaultTarget() : target;
    auto t = parseTarget(spelt);
    if (!t) {
        std::cerr << "tilec: error: --target: unknown target '" << spelt << "'\n  hint: cuda:sm_80, cuda:sm_90a or hip:gfx90a\n";
        return 2;
    }
    // The pipeline differs by target (sm_90a adds stage-epilogue, sink-tma-waits and
    // warp-specialize): say which one this is.
    std::printf("passes for %s, in order:\n", spelt.c_str());
    for (auto& [name, summary] : pipelinePasses(*t))
        std::printf("%-18s %s\n", name.c_str(), summary.c_str());
    return 0;
}

}  // namespace ts::cli
