// The tilec subcommands (one file each) and their options, filled by main.cpp's CLI11 parser.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "app/cli/CliCommon.h"
#include "compiler/PassManager.h"
#include "profiler/cuda/PtxasInfo.h"

namespace ts::cli {

struct CompileCommand {
    CompileFlags flags;
    std::string emit;        ///< "", "ir", "cuda"
    std::string printAfter;  ///< "", "all", or a pass name
    bool printChanged = false;
    std::string stopAfter, dumpDir;
    bool noNvrtc = false, noCache = false;
    bool listKernels = false;  ///< --list-kernels: list the file's kernels, compile nothing
};
int runCompile(const CompileCommand& c);
/// Whether `emit` (--emit) is a kind tilec prints (ir, cuda, hip; empty: none); else prints the
/// kinds with a hint and returns false (the command exits 1, a user error).
bool validEmitKind(const std::string& emit);
/// ptxas's figures per kernel as info lines on `info` ("ptxas sm_90a: NAME: N registers, ..."),
/// and warnings on stderr for spills and ptxas remarks such as a serialized wgmma (CmdCompile.cpp;
/// also `compile --kernel all`).
void printPtxasInfo(const rt::PtxasInfo& p, const std::string& arch, std::ostream& info);

struct RunCommand {
    CompileFlags flags;
    std::string interp;         ///< "" GPU; "tile": tile-level interpreter; "lowered": thread-level
    std::string check = "ref";  ///< "ref" (ref_program in float64) or "interp"
    uint64_t seed = 0;          ///< 0: fresh seed each run
    double rtol = 0;            ///< rel-L2 tolerance for float outputs; 0: the dtype's default
    double timeLimitS = 60;     ///< --time-limit: interpreter wall-clock limit (0 = none)
    bool progress = false;      ///< --progress: interpreter progress even when stderr is no tty
    bool quiet = false;
    std::string
        ref;  ///< --ref NAME: reference function (dotted for nested); "": pragma/ref_program
    /// --chain K1,K2,...: run these kernels of the file in order, outputs feeding later inputs
    /// (app/cli/CmdChain.cpp); empty: one kernel.
    std::vector<std::string> chain;
    std::vector<std::string> binds;  ///< --bind K.param=K0.param (chain only)
    /// --dump-outputs DIR: write the outputs of this execution there (app/cli/DumpOutputs.h).
    std::string dumpOutputs;
};
int runRun(const RunCommand& c);
/// `tilec run --chain` (app/cli/CmdChain.cpp).
int runChain(const RunCommand& c);

struct BenchCommand {
    CompileFlags flags;
    int reps = 50, warmup = 10;
    std::string json;   ///< write results here ("-" = stdout)
    bool check = true;  ///< compare the first launch against the reference
    std::string ref;    ///< --ref NAME, as for run
    std::string baseline;  ///< --baseline cublas: time the library on the same GEMM too
};
int runBench(const BenchCommand& c);

/// `tilec profile`: CUPTI activity duration + range-profiler counters (app/cli/CmdProfile.cpp).
struct ProfileCommand {
    CompileFlags flags;
    std::vector<std::string> metrics;  ///< keys of rt::defaultMetrics() or CUPTI names; empty: all
    int reps = 20;                     ///< event-timed and activity-recorded launches
    bool noCounters = false;           ///< skip the range profiler
    std::string json;                  ///< write the figures here ('-' = stdout)
    std::string ref;                   ///< --ref NAME, as for run
};
int runProfile(const ProfileCommand& c);

/// `tilec tune`: variants from @autotune(configs=...) or --sweep, compiled on worker threads,
/// each run checked (and timed) in the GPU worker or on the interpreter (app/cli/CmdTune.cpp).
struct TuneCommand {
    CompileFlags flags;
    std::vector<std::string> sweeps;  ///< "name=v1,v2,..." (cartesian product); empty: configs=
    int jobs = 2;                     ///< compile threads
    int reps = 20;                    ///< timed launches per variant
    std::string interp;               ///< "" GPU; "tile": tile interpreter (correctness only)
    std::string json;                 ///< write every variant here ('-' = stdout)
    std::string ref;                  ///< --ref NAME
    double rtol = 0;                  ///< rel-L2 tolerance; 0: the dtype's
    bool noCache = false;             ///< re-run variants the store already has
    int maxConfigs = 0;               ///< only the first N configs (0 = all)
    std::string devices;  ///< --devices 0,1: GPU ordinals, one worker each ("": every device)
    std::string baseline;  ///< --baseline cublas: time the library on the same GEMM too
    /// --seed: input seed shared by all variants; 0: fresh inputs drawn for every variant
    /// (flags.inputRules, --input, fill named inputs by rule either way)
    uint64_t seed = 0x7e57;
};
int runTune(const TuneCommand& c);

/// The outputs `outs` against `refs` without printing: "pass" or "fail" with `reason` naming the
/// output and its error. `exact`: the reference is a float64 ref_program (its tolerance rule).
std::string checkOutputsQuiet(const CompileResult& r, const std::vector<HostTensor>& outs,
                              const std::vector<HostTensor>& refs, bool exact, double rtol,
                              std::string& reason);

/// `tilec launch FILE.cu --kernel K1,K2,...`: raw CUDA kernels in the GPU worker one after the
/// other (a debugging aid and the fault-isolation check: a faulting kernel is reported and the
/// next one runs in a fresh worker) (app/cli/CmdLaunch.cpp).
struct LaunchCommand {
    std::string file;
    std::vector<std::string> kernels;
    unsigned grid = 1, block = 32;
    int64_t elements = 1024;  ///< each kernel gets (float* out, int n): n = elements
};
int runLaunch(const LaunchCommand& c);

/// `tilec kernels FILE` (and `tilec compile --list-kernels`): the file's kernels with their
/// shape, line and settable parameters; the default one is marked (app/cli/CmdKernels.cpp).
int runKernels(const CompileFlags& flags);
/// `tilec compile --kernel all`: compiles every kernel of the file and prints one line each
/// (ok with launch shape / error); exit 1 if any failed (app/cli/CmdKernels.cpp).
int runCompileAll(const CompileCommand& c);

/// `tilec passes`: the pipeline's passes with one-line summaries.
/// Lists the passes `target` runs ("" = the default target: the attached GPU, else cuda:sm_80).
int runPasses(const std::string& target = "");

/// `tilec banks`: predicted shared-memory bank conflicts per access (app/cli/CmdBanks.cpp).
struct BanksCommand {
    CompileFlags flags;
    bool sortByExcess = false;  ///< sort the table by excess wavefronts
    int heatmap = -1;           ///< print the lanes x banks map of this access index
    std::string json;           ///< write predicted totals as JSON to FILE ('-' = stdout)
    bool measure = false;       ///< also run on the GPU under CUPTI and print measured counters
    bool listMetrics = false;   ///< list the chip's CUPTI metrics containing metricFilter
    std::string metricFilter = "shared";
};
int runBanks(const BanksCommand& c);

/// `tilec layout`: the layout grid of one buffer, or of a hardware layout of
/// compiler/analysis/HwLayouts.h (--builtin, no program needed), as text or SVG
/// (app/cli/CmdBanks.cpp).
struct LayoutCommand {
    CompileFlags flags;        ///< flags.file may be empty with --builtin
    std::string builtin;       ///< NAME[:N] of a catalogue layout (analysis::builtinLayouts)
    std::string shape, warps;  ///< with builtin: "ROWSxCOLS" block tile, "AxB" warp grid
    std::string buffer;        ///< empty: list the buffers with layouts
    std::string svg;           ///< write an SVG picture here
    int64_t tile = 0;          ///< leading index (pipeline stage) of a rank-3 shared tile
    int64_t thread = -1;       ///< outline this thread's cells in the SVG
};
int runLayout(const LayoutCommand& c);

/// `tilec debug`: run one block of the kernel in the step debugger (compiler/debugger/), stop at
/// breakpoints, step, print values of one thread (app/cli/CmdDebug.cpp).
struct DebugCommand {
    CompileFlags flags;
    std::string block;                  ///< "bx,by" (default 0,0)
    std::vector<int> breakLines;        ///< --break LINE (source lines)
    std::vector<std::string> breakOps;  ///< --break-op gemm|copy|...
    bool breakBarrier = false;          ///< --break-barrier
    int steps = 0;                      ///< --step N
    std::string stepKind = "tile-op";   ///< tile-op|into|over|out|barrier|iteration|continue
    int back = 0;                       ///< --back N: reverse steps after stepping
    std::vector<std::string> prints;    ///< --print NAME[idx] (watch expressions)
    std::vector<std::string> holds;     ///< --holds BUF: the fragment elements of --thread
    bool printBarriers = false;         ///< --print-barriers: named barriers and mbarriers
    int thread = 0;
    uint64_t seed = 0x5eed;  ///< inputs as `tilec run --seed`
};
int runDebug(const DebugCommand& c);

/// `tilec validate`: the interpreter after every pass against the reference; the first pass
/// that changes the result is named (app/cli/CmdValidate.cpp). Exit 1 when one does.
struct ValidateCommand {
    CompileFlags flags;
    uint64_t seed = 0x5eed;
    int64_t maxBlocks = -1;  ///< interpret only the first N blocks (large grids)
    std::string ref;         ///< --ref NAME, as for run
    /// Test-only: passes inserted after the named pass (a deliberately broken pass).
    std::vector<std::pair<std::string, PassInfo>> inject;
};
int runValidate(const ValidateCommand& c);
/// `tilec export FILE --out DIR`: the standalone nvcc project of app/cli/ProjectExport.h (what
/// the IDE's File › Export writes), for the target's architecture, with its CPU-reference check
/// data (app/cli/CmdExport.cpp).
struct ExportCommand {
    CompileFlags flags;
    std::string out;   ///< folder to write (created)
    std::string name;  ///< executable name; empty = the file's stem
};
int runExport(const ExportCommand& c);

/// `tilec timeline`: the static pipeline timeline of every T.Pipelined loop (issue timeline
/// order per warp role, stage occupancy) from the planned pipeline (app/cli/CmdTimeline.cpp).
struct TimelineCommand {
    CompileFlags flags;
    std::string json;   ///< write JSON here ('-' = stdout); empty: text table
    int64_t trips = 0;  ///< trip count for a loop whose extent is not a constant
};
int runTimeline(const TimelineCommand& c);

}  // namespace ts::cli
