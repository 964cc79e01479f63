// The steps of one checked kernel execution shared by `tilec run`, `bench` (CmdRun.cpp) and
// `run --chain` (CmdChain.cpp): signature, launch values of symbolic sizes, inputs, a GPU launch
// request, a run on the interpreter.
#pragma once
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/Commands.h"
#include "profiler/Runtime.h"
#include "profiler/cuda/Devices.h"
#include "profiler/check/Inputs.h"

namespace ts::cli {

/// The kernel's tensor parameters in order (name, dtype, shape, isOutput).
std::vector<rt::TensorParam> signatureOf(const CompileResult& r);
/// Random inputs for `sig`, the inputs named in `rules` (--input NAME=RULE texts) filled by their
/// rt::InputRule; false (after an error on stderr) when they do not fit in host memory, the
/// signature is unusable or a rule is malformed or names no input.
bool makeInputsOrReport(const std::vector<rt::TensorParam>& sig, rt::InputOptions io,
                        rt::InputSet& set, const std::vector<std::string>& rules = {});
/// What is wrong with the text of one --input NAME=RULE ("" when it parses; a NAME=@PATH rule is
/// read later and not checked here). tilec's option parsers check every --input with it before
/// compiling (a usage error, exit 2), makeInputsOrReport again for the rules of a @PATH file.
std::string inputRuleProblem(const std::string& nameEqRule);
/// The hint under a malformed --input: the accepted forms and an example (`example` names the
/// tensor of the example, "A" when empty).
std::string inputRuleHint(const std::string& example = {});
/// Outputs the kernel only accumulates into with atomics (LaunchArgs.h) get zero data (the
/// initial value uploaded to the GPU / kept by the interpreter) instead of poison; prints a line.
void zeroAtomicOutputs(const CompileResult& r, rt::InputSet& set);
/// Whether the kernel has a T.gemm of float32 operands (tf32 on the tensor cores and in both
/// interpreters): rt::referenceTolerance's tf32Products.
bool hasFloat32Gemm(const CompileResult& r);
/// Fixes the sizes of a kernel with scalar arguments (--param values or defaults) in r.kernel and
/// keeps the scalar values for the next requestFor/runInterp. Call it right before running `r`
/// (the values are per process, one kernel at a time). False after an error on stderr.
bool applyLaunchValues(CompileResult& r);
/// True for a result with one launch; else prints that `command` (bench, profile, ...) works on
/// one launch while r runs several T.Kernel blocks in order (CompileResult::launches).
bool oneLaunchOrReport(const CompileResult& r, const char* command);
/// Runs every launch of a several-block result (CompileResult::launches) on the GPU worker in
/// order, each on the tensors `set` holds after the previous one (what a launch writes replaces
/// the tensor in `set`). Returns the function's outputs in signature order; nullopt with `why`
/// (and the failing launch's result in `last`). `launchMs`: sum of the launches' times.
std::optional<std::vector<HostTensor>> runLaunchesOnGpu(CompileResult& r, rt::InputSet& set,
                                                        const CompileFlags& flags,
                                                        const std::string& deviceArch,
                                                        rt::RunResult& last, double& launchMs,
                                                        std::string& why);
/// What a GPU-only command (bench, profile) does first: compile `flags` (diagnostics printed),
/// fix the launch values, and ask the worker for its device. Nullopt after an error on stderr
/// ("tilec: error: `command` needs a GPU (why)").
struct GpuCompile {
    CompileResult r;
    rt::DeviceInfo gpu;
};
std::optional<GpuCompile> compileForGpu(const CompileFlags& flags, const char* command);
/// The GPU launch request for `r` with tensors `set` (inputs with data; outputs poisoned unless
/// they carry data), for flags.target (default: `deviceArch`, the worker device's arch).
rt::RunRequest requestFor(const CompileResult& r, const rt::InputSet& set,
                          const CompileFlags& flags, const std::string& deviceArch);
/// Runs `r` on the tile-level interpreter (elaborated IR), or the thread-level one on the lowered
/// IR when `lowered` (every launch in order for a several-block result), with `inputs` = all kernel arguments in order (outputs without data are
/// NaN-poisoned). Returns the outputs in signature order; nullopt with `why` on failure.
/// `interactive` (the run the user waits for, not a reference or a tune variant): progress on
/// stderr after 2 s (a terminal, or TILEC_PROGRESS=1) and Ctrl-C stops the run with a message
/// and exit status 130 (app/cli/InterpProgress.h).
/// Wall-clock limit of every later runInterp in seconds (0 = none; `tilec run --time-limit`,
/// default 60): past it the run ends with an error at the loop it was in
/// (interp::InterpOptions::timeLimitS).
void setInterpTimeLimit(double seconds);
/// Cancel flag every later non-interactive runInterp polls (null: none); `tilec tune` points it
/// at its SIGINT guard so a stopped sweep ends the running variant, not only the next one.
void setInterpCancel(const std::atomic<bool>* cancel);
std::optional<std::vector<HostTensor>> runInterp(const CompileResult& r,
                                                 const std::vector<HostTensor>& inputs,
                                                 std::string& why, bool lowered = false,
                                                 bool interactive = false);

}  // namespace ts::cli
