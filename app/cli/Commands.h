// The tilec subcommands (one file each) and their options, filled by main.cpp's CLI11 parser.
#pragma once
#include <string>

#include "app/cli/CliCommon.h"

namespace ts::cli {

struct CompileCommand {
    CompileFlags flags;
    std::string emit;        ///< "", "ir", "cuda"
    std::string printAfter;  ///< "", "all", or a pass name
    bool printChanged = false;
    std::string stopAfter, dumpDir;
    bool noNvrtc = false, noCache = false;
};
int runCompile(const CompileCommand& c);

struct RunCommand {
    CompileFlags flags;
    bool interp = false;      ///< run on the CPU interpreter instead of the GPU
    std::string check = "ref";  ///< "ref" (ref_program in float64) or "interp"
    uint64_t seed = 0;        ///< 0: fresh seed each run
    bool quiet = false;
};
int runRun(const RunCommand& c);

struct BenchCommand {
    CompileFlags flags;
    int reps = 50, warmup = 10;
    std::string json;         ///< write results here ("-" = stdout)
    bool check = true;        ///< compare the first launch against the reference
};
int runBench(const BenchCommand& c);

/// `tilec passes`: the pipeline's passes with one-line summaries.
int runPasses();

}  // namespace ts::cli
