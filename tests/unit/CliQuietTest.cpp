// `-q/--quiet` (app/cli/main.cpp, CliCommon setQuiet/noteShown): the compiling subcommands print
// no notes (why a copy did not take TMA, the T.gemm path, the pragma's values) but still every
// warning and error; notes about errors (the error cap) stay. In-process through the
// subcommands, and once through the tilec binary for the flag itself.
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <map>
#include <regex>

#include <sys/wait.h>
#include <unistd.h>

#include "compiler/analysis/LoopLayouts.h"
#include "CliTestUtil.h"
#include "profiler/store/ResultsStore.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {

// At sm_90a the copy into `s` does not take TMA (a 60-element float16 row is 120 bytes, not a
// multiple of 16): a note; the factory's `try` is skipped at compile time: a warning.
const char* kProgram = R"(# tilescope: N=60
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def copy2d(M=128, N=64):
    try:
        pass
    except Exception:
        pass

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(1, threads=128) as bx:
            s = T.alloc_shared((M, N), "float16")
            T.copy(A, s)
            T.copy(s, B)

    return main
)";

CliOutcome compileSm90a(const std::string& path, bool quietRun) {
    CompileCommand c;
    c.flags.file = path;
    c.flags.target = "cuda:sm_90a";
    c.noNvrtc = true;
    setQuiet(quietRun);
    auto o = captureCli([&] { return runCompile(c); });
    setQuiet(false);
    return o;
}

const char* kTmaNote = "note: T.copy into 's' does not use TMA: a tile row is 120 bytes";
const char* kTryWarning = ":8:5: warning: 'try' statement skipped at compile time";
const char* kPragmaNote = "tilec: note: parameters from the file's '# tilescope:' pragma";

}  // namespace

TEST(CliQuiet, NotesArePrintedByDefault) {
    auto o = compileSm90a(writeScratch("quiet_notes.py", kProgram), false);
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.err, kTmaNote)) << o.err;
    EXPECT_TRUE(contains(o.err, kTryWarning)) << o.err;
    EXPECT_TRUE(contains(o.err, kPragmaNote)) << o.err;
}

TEST(CliQuiet, QuietDropsNotesAndKeepsWarnings) {
    auto o = compileSm90a(writeScratch("quiet_notes.py", kProgram), true);
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_FALSE(contains(o.err, "note:")) << o.err;
    EXPECT_TRUE(contains(o.err, kTryWarning)) << o.err;
    // The pass table (stdout) is unchanged: only stderr's notes go.
    EXPECT_TRUE(contains(o.out, "infer-layouts")) << o.out;
}

TEST(CliQuiet, QuietKeepsErrorsAndTheNoteThatStopsThem) {
    // 30 syntax errors: the parser reports 25 and a note that it stops there (Parser.h
    // kMaxParseErrors); under --quiet both stay: that note is about the errors.
    std::string text = "import tilelang.language as T\n";
    for (int i = 0; i < 30; ++i) text += "x = = 1\n";
    const std::string path = writeScratch("quiet_errors.py", text);
    auto o = compileSm90a(path, true);
    EXPECT_EQ(o.rc, 1) << o.err;
    EXPECT_TRUE(contains(o.err, "quiet_errors.py:2:5: error:")) << o.err;
    EXPECT_TRUE(contains(o.err, "note: too many syntax errors; stopping here")) << o.err;
    EXPECT_EQ(o.err, compileSm90a(path, false).err);
}

namespace {

/// The built tilec run with `args` (a shell command line after the binary; the tree's files by
/// TS_SOURCE_DIR-relative paths through `src`): its exit status and stdout+stderr (or only what
/// `redirect` keeps).
struct BinaryRun {
    int rc = -1;
    std::string out;
};
BinaryRun runTilec(const std::string& args, const std::string& redirect = " 2>&1") {
    std::string cmd = std::string(TS_TILEC_PATH) + " " + args + redirect;
    BinaryRun r;
    std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
    if (!p) return r;
    std::array<char, 4096> buf{};
    while (size_t n = fread(buf.data(), 1, buf.size(), p.get())) r.out.append(buf.data(), n);
    int status = pclose(p.release());
    r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = cmd + "\n" + r.out;  // the command leads every failure message
    return r;
}
std::string src(const std::string& rel) { return std::string(TS_SOURCE_DIR) + "/" + rel; }

}  // namespace

TEST(CliQuiet, TilecBinaryTakesShortAndLongFlag) {
    const std::string path = writeScratch("quiet_notes.py", kProgram);
    for (const char* flag : {"", " -q", " --quiet"}) {
        auto r = runTilec("compile '" + path + "' --target cuda:sm_90a --no-nvrtc" + flag);
        EXPECT_EQ(r.rc, 0) << r.out;
        EXPECT_EQ(contains(r.out, kTmaNote), *flag == '\0') << r.out;
        EXPECT_TRUE(contains(r.out, kTryWarning)) << r.out;
    }
}

// `tilec foo`: CLI11 alone said "A subcommand is required"; the word and the commands are named.
TEST(CliQuiet, UnknownCommandIsNamedWithTheCommands) {
    auto r = runTilec("complie " + src("samples/gemm.py"));
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_TRUE(contains(r.out, "tilec: error: unknown command 'complie' (commands: compile, run, bench,")) << r.out;
    EXPECT_FALSE(contains(r.out.substr(r.out.find('\n')), "worker")) << r.out;
}

// Targets accepted without a Hopper path of their own say which path they get (not under -q).
TEST(CliQuiet, Sm90WithoutAAndNewerTargetsSayWhichPathTheyGet) {
    auto notes = [](const std::string& args) {
        return runTilec("compile " + src("samples/gemm.py") + " --no-nvrtc " + args, " 2>&1 >/dev/null").out;
    };
    // compile()'s own note (Compile.cpp), so the IDE shows the same words.
    EXPECT_TRUE(contains(notes("--target cuda:sm_90"),
                         "note: cuda:sm_90: every T.gemm takes mma.sync and no copy takes TMA (cp.async and plain loads and "
                         "stores, as on cuda:sm_80): TileScope generates its Hopper path (wgmma, TMA, setmaxnreg) for the "
                         "architecture-specific cuda:sm_90a only"));
    EXPECT_TRUE(contains(notes("--target cuda:sm_100a"),
                         "note: cuda:sm_100a: every T.gemm takes mma.sync and no copy takes TMA (cp.async and plain loads and "
                         "stores, as on cuda:sm_80): TileScope has no path of its own for this GPU"));
    EXPECT_FALSE(contains(notes("--target cuda:sm_90a"), "architecture-specific"));
    EXPECT_FALSE(contains(notes("--target cuda:sm_90 -q"), "architecture-specific"));
    EXPECT_TRUE(contains(notes("--target cuda:sm_75"), "TileScope generates code for sm_80 and newer"));
}

// --bind only means something with --chain: alone it was ignored, now it is an error.
TEST(CliQuiet, BindWithoutChainIsAnError) {
    auto r = runTilec("run " + src("samples/gemm.py") + " --bind K2.A=K1.C");
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "tilec: error: --bind connects the kernels of a --chain; this run has no --chain")) << r.out;
}

// A T.copy starting at a negative scalar argument reads zeros on both interpreters, as the
// generated code's guard does (tests/e2e/programs/copy_scalar_offset.py; ScriptFacts checks the
// guard in the CUDA): against the file's float64 reference, through the binary.
TEST(CliQuiet, NegativeScalarOffsetRunsOnBothInterpreters) {
    for (const char* interp : {"--interp", "--interp=lowered"})
        for (const char* off : {"-3", "-200", "7"}) {
            auto r = runTilec("run " + src("tests/e2e/programs/copy_scalar_offset.py") + " -q " + interp + " --param off=" + off);
            EXPECT_EQ(r.rc, 0) << r.out;
            EXPECT_TRUE(contains(r.out, "B: rel-L2 0.0e+00")) << r.out;
            EXPECT_TRUE(contains(r.out, "\nPASS\n")) << r.out;
        }
}

// `tilec --version`: the project version and the revision the build saw (none outside git;
// "-dirty" when tracked files differed from that commit, cmake/GitRevision.cmake).
TEST(CliQuiet, VersionPrintsTheVersionAndRevision) {
    auto r = runTilec("--version", " 2>&1");
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(r.out.substr(r.out.find('\n') + 1), "tilec " + ts::rt::versionText() + "\n");
    EXPECT_TRUE(std::regex_match(ts::rt::versionText(), std::regex(R"(\d+\.\d+( \([0-9a-f]{7,}(-dirty)?\))?)")))
        << ts::rt::versionText();
}

// cmake/GitRevision.cmake on a scratch git repository: the short revision; "-dirty" once a
// tracked file changes; an untracked file alone does not count (build/ of a fresh clone).
TEST(CliQuiet, GitRevisionScriptMarksChangedTrackedFiles) {
    const std::string dir = ::testing::TempDir() + "ts_gitrev_" + std::to_string(::getpid());
    const std::string hdr = dir + "/rev.h";
    auto sh = [&](const std::string& c) { return std::system(("cd '" + dir + "' && " + c + " >/dev/null 2>&1").c_str()); };
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    if (sh("git init -q . && git -c user.email=t@t -c user.name=t commit -q --allow-empty -m x") != 0)
        GTEST_SKIP() << "no git";
    ASSERT_EQ(sh("echo a > f && git add f && git -c user.email=t@t -c user.name=t commit -q -m f"), 0);
    auto revision = [&]() {
        EXPECT_EQ(sh("cmake -DSRC=. -DOUT=rev.h -P '" + src("cmake/GitRevision.cmake") + "'"), 0);
        std::ifstream in(hdr);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::smatch m;
        return std::regex_search(text, m, std::regex("TS_GIT_REV \"([^\"]*)\"")) ? m[1].str() : text;
    };
    EXPECT_TRUE(std::regex_match(revision(), std::regex("[0-9a-f]{7,}")));
    ASSERT_EQ(sh("echo untracked > g"), 0);
    EXPECT_TRUE(std::regex_match(revision(), std::regex("[0-9a-f]{7,}")));
    ASSERT_EQ(sh("echo b > f"), 0);
    EXPECT_TRUE(std::regex_match(revision(), std::regex("[0-9a-f]{7,}-dirty"))) << revision();
    std::filesystem::remove_all(dir);
}

// A name list given something that starts with '-': `--chain -x` (the value forgotten) and
// `--chain=-x` (the value given) read alike, so the error names both readings.
TEST(CliQuiet, NameStartingWithDashIsRefusedInBothSpellings) {
    for (const char* form : {" --chain -x", " --chain=-x", " --ref-inputs=A,-B"}) {
        auto r = runTilec("run " + src("samples/gemm.py") + form);
        EXPECT_EQ(r.rc, 2) << r.out;
        EXPECT_TRUE(contains(r.out, "is not a name (names do not start with '-'; if it is an option, the value "
                                    "before it is missing)")) << r.out;
    }
}

// A misspelt option: CLI11 said "The following arguments were not expected: M=4 --parm"; now the
// option, the nearest one of that command (none for a one-letter typo) and the command's help.
TEST(CliQuiet, UnknownOptionNamesTheNearestOptionAndTheHelp) {
    auto after = [](const BinaryRun& r) { return r.out.substr(r.out.find('\n') + 1); };
    auto r = runTilec("run " + src("samples/gemm.py") + " --parm M=4");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r), "tilec: error: unknown option '--parm' for 'tilec run' (did you mean '--param'?)\n"
                        "  hint: run 'tilec run --help' for its options\n");
    r = runTilec("compile " + src("samples/gemm.py") + " -x");
    EXPECT_EQ(after(r), "tilec: error: unknown option '-x' for 'tilec compile'\n"
                        "  hint: run 'tilec compile --help' for its options\n");
    EXPECT_TRUE(contains(runTilec("--verison").out, "unknown option '--verison' for 'tilec' (did you mean '--version'?)"));
}

// CLI11's other parse errors printed its own text ("Could not convert: --seed = abc", "file is
// required", "--param: 1 required TEXT missing") with exit codes 104-114, and bare `tilec` said
// only "A subcommand is required": now tilec's format, a hint with how to write it, exit 2.
TEST(CliQuiet, ParseErrorsUseTilecsFormatAndExitTwo) {
    auto after = [](const BinaryRun& r) { return r.out.substr(r.out.find('\n') + 1); };
    const std::string gemm = src("samples/gemm.py");
    auto r = runTilec("debug " + gemm + " --seed abc");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r), "tilec: error: --seed expects a non-negative integer, got 'abc'\n"
                        "  hint: --seed UINT: seed of the random inputs (as tilec run); run 'tilec debug --help' for its options\n");
    r = runTilec("run " + gemm + " --seed");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r), "tilec: error: --seed needs a value (a non-negative integer)\n"
                        "  hint: --seed UINT: random seed for the inputs (default: fresh); run 'tilec run --help' for its options\n");
    // A single-value option given twice (helper-100: it said "--ref needs a value"), a negative seed
    // (it wrapped around to 2^64 - 1).
    r = runTilec("run " + gemm + " --interp --ref a --ref b");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r).substr(0, after(r).find('\n')),
              "tilec: error: --ref is given more than once; it takes one value (the last -p/--param of a name wins, but this option does not repeat)");
    r = runTilec("run " + gemm + " --interp --seed -1");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r).substr(0, after(r).find('\n')), "tilec: error: --seed: a seed is a non-negative integer, got '-1'");
    r = runTilec("run " + gemm + " --param");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r), "tilec: error: --param needs a value\n"
                        "  hint: --param TEXT: override a factory parameter: NAME=VALUE (repeatable); run 'tilec run --help' for its options\n");
    r = runTilec("run " + gemm + " --interp=banana");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r), "tilec: error: --interp: 'banana' is not one of tile, lowered\n"
                        "  hint: --interp: run on the CPU interpreter instead of the GPU: --interp (tile-level IR) or "
                        "--interp=lowered (thread-level, ...; run 'tilec run --help' for its options\n");
    r = runTilec("run " + gemm + " --time-limit -5");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r).substr(0, after(r).find('\n')), "tilec: error: --time-limit: expected a number >= 0, got '-5'");
    r = runTilec("run");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r), "tilec: error: 'tilec run' needs a FILE\n"
                        "  hint: 'tilec run FILE', FILE being the tile program (.py, TileLang syntax); run 'tilec run --help' for its options\n");
    r = runTilec("trace " + gemm);
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r), "tilec: error: 'tilec trace' needs --out\n"
                        "  hint: --out TEXT: Chrome trace JSON to write ('-' = stdout); run 'tilec trace --help' for its options\n");
    r = runTilec("");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r), "tilec: error: no command given (commands: compile, run, bench, profile, tune, results, launch, "
                        "passes, kernels, banks, layout, debug, validate, timeline, trace, export)\n"
                        "  hint: tilec COMMAND FILE [OPTIONS], e.g. 'tilec run samples/gemm.py --interp'; "
                        "'tilec --help' describes the commands\n");
    // --help stays CLI11's, exit 0 (--version: VersionPrintsTheVersionAndRevision).
    for (const char* help : {"--help", "run --help", "debug -h"}) {
        r = runTilec(help);
        EXPECT_EQ(r.rc, 0) << r.out;
        EXPECT_TRUE(contains(r.out, "Usage: ")) << r.out;
    }
}

// A malformed --input is a usage error found before the compile (exit 2), and its hint lists the
// accepted forms with an example: it exited 1 after compiling with the parse error alone
// ("uniform takes 2 numbers"; helper-95).
TEST(CliQuiet, MalformedInputRuleListsTheAcceptedForms) {
    auto after = [](const BinaryRun& r) { return r.out.substr(r.out.find('\n') + 1); };
    const std::string gemm = src("samples/gemm.py");
    const std::string forms =
        "  hint: write --input NAME=RULE, RULE one of offsets:TOTAL, int:LO:HI, uniform:LO:HI, distinct:N, fill:V, arange, "
        "sparse:N:M, values:V1,V2,... or @PATH (a file holding the rule); e.g. --input A=uniform:-1:1; ";
    auto r = runTilec("run " + gemm + " --interp --input A=uniform:1");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r), "tilec: error: --input A: input rule 'uniform:1': uniform takes 2 numbers\n" + forms +
                            "run 'tilec run --help' for its options\n");
    r = runTilec("debug " + gemm + " --input A");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r), "tilec: error: --input 'A' is not NAME=RULE\n" + forms + "run 'tilec debug --help' for its options\n");
    r = runTilec("validate " + gemm + " --input B=gauss:0:1");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_EQ(after(r), "tilec: error: --input B: unknown input rule 'gauss:0:1'\n" + forms +
                            "run 'tilec validate --help' for its options\n");
    // A well-formed rule still runs.
    r = runTilec("run " + gemm + " --interp -q --param M=64 --param N=64 --param K=64 --input A=uniform:-1:1");
    EXPECT_EQ(r.rc, 0) << r.out;
}

// A diagnostic's column counts characters, not UTF-8 bytes, through the binary (five 2-byte 'é'
// before the name: character 22, byte 27).
TEST(CliQuiet, DiagnosticColumnCountsCharacters) {
    const std::string path = writeScratch("utf8_column.py", R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def k(M=128):
    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(M):
                B[i] = A[i]

    s = "ééééé"; t = undefined_nm
    return main
)");
    auto r = runTilec("compile '" + path + "' --no-nvrtc", " 2>&1 >/dev/null");
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_TRUE(contains(r.out, path + ":13:22: error: ")) << r.out;
    EXPECT_TRUE(contains(r.out, "\n      s = \"ééééé\"; t = undefined_nm\n  " + std::string(21, ' ') + "^" + std::string(11, '~') + "\n")) << r.out;
}

// `tilec run -q` prints the check and nothing else (no default-target note, kernel and seed line,
// where it ran): stdout and stderr together are its three lines.
TEST(CliQuiet, QuietRunPrintsOnlyTheCheck) {
    for (const char* interp : {"--interp", "--interp=lowered"}) {
        auto r = runTilec("run " + src("samples/gemm.py") + " -q " + interp + " --seed 1 --param M=128 --param N=128 --param K=64");
        EXPECT_EQ(r.rc, 0) << r.out;
        const std::string out = r.out.substr(r.out.find('\n') + 1);
        EXPECT_EQ(out.rfind("check against ref_program (float64, ", 0), 0u) << r.out;
        EXPECT_TRUE(contains(out, " s):\n  C: rel-L2 ")) << r.out;
        EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 3) << r.out;
        EXPECT_TRUE(contains(out, ": PASS\nPASS\n")) << r.out;
    }
    // A --chain run likewise: no chain/seed line, steps or final outputs.
    const std::string dir = src("tests/e2e/programs/");
    auto r = runTilec("run " + dir + "multi_kernel.py -q --interp -p M=128 -p N=64 --chain affine_fwd,row_mean --bind row_mean.A=affine_fwd.B --ref " +
                      dir + "multi_kernel_chain_ref.py::chain_ref");
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(r.out.substr(r.out.find('\n') + 1).rfind("check against ", 0), 0u) << r.out;
}

// An interpreter run of a tensor over the interpreters' 2^28 elements is refused before its host
// tensors are allocated (C alone would be 4 Gi doubles), naming the --param its shape is written with.
TEST(CliQuiet, OversizedInterpreterRunNamesTheParamsBeforeAllocating) {
    const std::string file = src("samples/gemm.py");
    auto r = runTilec("run " + file + " --interp --param M=65536 --param N=65536 --param K=64");
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_EQ(r.out.substr(r.out.find('\n') + 1),
              "tilec: error: tensors too large for the CPU interpreter (at most 268435456 = 2^28 elements each): "
              "C (65536, 65536): 4294967296 elements\n"
              "  hint: pass smaller sizes: --param M=..., --param N=... (C's shape is written at " + file + ":18:25)\n");
}

// Each tensor within the limit but all together beyond it (a fresh user's attention at
// seq_len=65536: four tensors of 134 M elements spent 30 s and 7 GB before the time limit could
// stop the run): refused up front as well, every tensor named.
TEST(CliQuiet, InterpreterRunOverTheLimitInAllIsRefusedToo) {
    const std::string file = src("samples/gemm.py");
    auto r = runTilec("run " + file + " --interp --param M=16384 --param N=16384 --param K=4096");
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_EQ(r.out.substr(r.out.find('\n') + 1),
              "tilec: error: tensors too large for the CPU interpreter together (at most 268435456 = 2^28 elements in all): "
              "A (16384, 4096): 67108864 elements, B (4096, 16384): 67108864 elements, C (16384, 16384): 268435456 elements\n"
              "  hint: pass smaller sizes: --param M=..., --param K=..., --param N=... (A's shape is written at " + file + ":16:25)\n");
    // Within the limit in all: run as before.
    auto ok = runTilec("run " + file + " --interp -q --param M=256 --param N=256 --param K=256");
    EXPECT_EQ(ok.rc, 0) << ok.out;
    EXPECT_EQ(ok.out.find("too large for the CPU interpreter"), std::string::npos) << ok.out;
}

// T.shfl_down in a branch that leaves out the lane it reads: the interpreters stop with the call
// as written (CUDA leaves the value undefined).
TEST(CliQuiet, ShflDownFromALaneOutsideTheBranchIsAnError) {
    const std::string path = writeScratch("shfl_down_divergent.py", R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def shfl_divergent():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), D: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            tx = T.get_thread_binding()
            if tx < 40:
                D[tx] = T.shfl_down(A[tx], 1)

    return main
)");
    for (const char* interp : {"--interp", "--interp=lowered"}) {
        auto r = runTilec("run '" + path + "' -q " + interp);
        EXPECT_EQ(r.rc, 1) << r.out;
        EXPECT_TRUE(contains(r.out, "shfl_down_divergent.py:12:25: error: T.shfl_down: thread 39 reads lane 8 of warp 1, "
                                    "which does not execute the shuffle [block (0)]\n")) << r.out;
    }
}

// Options a fresh user found silently wrong (helper-107), through the binary: --ref-inputs keeps a
// lone comma from swallowing the next option and trims spaces; --max-blocks 0 (it interpreted
// nothing and passed); --svg without --buffer (no file, exit 0); --block with four indices (the
// extra ones were ignored); an unknown --kind of results; an unknown --holds (exit 0 before).
TEST(CliQuiet, OptionValuesAFreshUserGotWrongAreUsageErrors) {
    const std::string gemm = "'" + src("samples/gemm.py") + "'";
    auto comma = runTilec("run " + gemm + " --ref-inputs , --interp");
    EXPECT_EQ(comma.rc, 2) << comma.out;
    EXPECT_TRUE(contains(comma.out, "tilec: error: --ref-inputs ,: an empty item in the comma-separated list")) << comma.out;
    auto swallowed = runTilec("run " + gemm + " --ref-inputs --interp");
    EXPECT_EQ(swallowed.rc, 2) << swallowed.out;
    // CLI11 drops the empty pieces of a comma list: `--chain K1,` ran K1 alone (helper-107).
    for (const char* list : {"--ref-inputs A,", "--ref-inputs=,A", "--ref-inputs 'A,,B'", "--ref-inputs ' , '"}) {
        auto empty = runTilec("run " + gemm + " " + list + " --interp -q");
        EXPECT_EQ(empty.rc, 2) << list << ": " << empty.out;
        EXPECT_TRUE(contains(empty.out, "an empty item in the comma-separated list (a stray comma?)")) << list << ": " << empty.out;
    }
    auto chain = runTilec("run '" + src("samples/mha_bwd.py") + "' --chain mha_fwd, --param seq_len=64 -q");
    EXPECT_EQ(chain.rc, 2) << chain.out;
    EXPECT_TRUE(contains(chain.out, "tilec: error: --chain mha_fwd,: an empty item in the comma-separated list")) << chain.out;
    auto spaced = runTilec("run " + gemm + " --ref-inputs 'A, B' --interp -q");
    EXPECT_EQ(spaced.rc, 0) << spaced.out;
    auto blocks = runTilec("validate " + gemm + " --max-blocks 0");
    EXPECT_EQ(blocks.rc, 2) << blocks.out;
    EXPECT_TRUE(contains(blocks.out, "--max-blocks")) << blocks.out;
    auto svg = runTilec("layout " + gemm + " --svg /tmp/ts_never_written.svg");
    EXPECT_EQ(svg.rc, 2) << svg.out;
    EXPECT_TRUE(contains(svg.out, "tilec: error: --svg draws one buffer's grid: give --buffer NAME")) << svg.out;
    auto four = runTilec("timeline " + gemm + " --target cuda:sm_90a --block 0,0,0,7");
    EXPECT_EQ(four.rc, 2) << four.out;
    EXPECT_TRUE(contains(four.out, "tilec: error: --block takes one to three indices X[,Y[,Z]], got 4")) << four.out;
    auto dbgFour = runTilec("debug " + gemm + " --block 0,0,0,5");
    EXPECT_EQ(dbgFour.rc, 2) << dbgFour.out;
    auto kind = runTilec("results --kind banana");
    EXPECT_EQ(kind.rc, 2) << kind.out;
    auto holds = runTilec("debug " + gemm + " --break-op gemm --holds nope");
    EXPECT_EQ(holds.rc, 2) << holds.out;
    EXPECT_TRUE(contains(holds.out, "tilec: error: --holds nope: not a fragment with a layout in this kernel")) << holds.out;
}

// T.Parallel nests' layouts list after the buffers, by line (as text "@105" sorted before "@17").
TEST(CliQuiet, LoopLayoutKeysListAfterTheBuffersByLine) {
    std::map<std::string, int> layouts{{"T.Parallel@105", 0}, {"T.Parallel@17", 0}, {"T.Parallel@7#2", 0}, {"T.Parallel@7", 0},
                                       {"acc", 0}, {"A_shared", 0}};
    EXPECT_EQ(ts::analysis::layoutKeysInListOrder(layouts),
              (std::vector<std::string>{"A_shared", "acc", "T.Parallel@7", "T.Parallel@7#2", "T.Parallel@17", "T.Parallel@105"}));
}

// Options a fresh user found silently wrong (helper-108, 2026-12-06).
TEST(CliQuiet, OptionValuesTheSecondFreshUserGotWrong) {
    const std::string gemm = "'" + src("samples/gemm.py") + "'";
    // --emit names a language the target does not generate: CUDA was printed for --emit hip.
    auto hip = runTilec("compile " + gemm + " --emit hip --target cuda:sm_80");
    EXPECT_EQ(hip.rc, 1) << hip.out;
    EXPECT_TRUE(contains(hip.out, "tilec: error: --emit hip: target cuda:sm_80 generates CUDA")) << hip.out;
    EXPECT_FALSE(contains(hip.out, "__global__")) << hip.out;
    // Empty values meant the default without a word.
    for (const char* opt : {"--target ''", "--kernel ''"}) {
        auto empty = runTilec("compile " + gemm + " " + opt + " --no-nvrtc -q");
        EXPECT_EQ(empty.rc, 2) << opt << ": " << empty.out;
        EXPECT_TRUE(contains(empty.out, "an empty value (leave the option out for its default)")) << opt << ": " << empty.out;
    }
    // "M = 128" was the parameter 'M ' (unknown).
    auto spaced = runTilec("compile " + gemm + " --param 'block_K = 64' --no-nvrtc -q --emit ir");
    EXPECT_EQ(spaced.rc, 0) << spaced.out;
    EXPECT_TRUE(contains(spaced.out, "T.alloc_shared")) << spaced.out;
    // A seed past 2^64 was silently 18446744073709551615.
    auto seed = runTilec("run " + gemm + " --interp -q --seed 99999999999999999999999");
    EXPECT_EQ(seed.rc, 2) << seed.out;
    EXPECT_TRUE(contains(seed.out, "a seed is a non-negative integer below 2^64, got '99999999999999999999999'")) << seed.out;
    EXPECT_EQ(runTilec("run " + gemm + " --interp -q --seed 18446744073709551615").rc, 0);
    // helper-109: a short option's attached list (-ka,,b) skipped the check; one --sweep axis twice
    // kept the last list and printed both in "best:".
    auto attached = runTilec("launch /nonexistent.cu -ka,,b");
    EXPECT_EQ(attached.rc, 2) << attached.out;
    EXPECT_TRUE(contains(attached.out, "tilec: error: -k a,,b: an empty item in the comma-separated list")) << attached.out;
    auto twice = runTilec("tune '" + src("samples/add.py") + "' --interp --sweep block_M=8 --sweep block_M=16");
    EXPECT_EQ(twice.rc, 1) << twice.out;
    EXPECT_TRUE(contains(twice.out, "tilec: error: --sweep block_M is given twice")) << twice.out;
    // helper-109: --inout C,C contradicted itself; --emit '' was no --emit; a flat read of a
    // several-dimensional buffer said nothing about it.
    auto inout = runTilec("run " + gemm + " --interp -q --inout 'C, C'");
    EXPECT_EQ(inout.rc, 1) << inout.out;
    EXPECT_TRUE(contains(inout.out, "tilec: error: --inout names 'C' twice")) << inout.out;
    EXPECT_EQ(runTilec("compile " + gemm + " --emit ''").rc, 2);
    auto trailing = runTilec("debug " + gemm + " --block 0, --break-op gemm");  // was block (0, 0)
    EXPECT_EQ(trailing.rc, 2) << trailing.out;
    EXPECT_TRUE(contains(trailing.out, "--block 0,: an empty item")) << trailing.out;
    auto flat = runTilec("debug " + gemm + " --break-op gemm --print 'A_shared[1]'");
    EXPECT_EQ(flat.rc, 0) << flat.out;
    EXPECT_TRUE(contains(flat.out, "(element 1 as stored (flat, row-major over shape ")) << flat.out;
    // The launch's check of a symbolic-size view names FILE:LINE:COL (helper-109: "(line 15)" only).
    const std::string sym = writeScratch("symbolic_view.py", R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def k(M=8):
    N = T.dynamic("n")

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N // 2), "float32")):
        with T.Kernel(M, threads=32) as bx:
            V = T.view(A, (M, N // 2), dtype="float32")
            for j in T.serial(N // 2):
                B[bx, j] = V[bx, j]

    return main
)");
    auto symbolic = runTilec("run '" + sym + "' --param n=9 -q");
    EXPECT_EQ(symbolic.rc, 1) << symbolic.out;
    EXPECT_TRUE(contains(symbolic.out, "symbolic_view.py:12:")) << symbolic.out;
    EXPECT_TRUE(contains(symbolic.out, ": error: view 'V' (line 12) of shape (8, 4) covers 128 bytes but 'A' has 144 for these sizes")) << symbolic.out;
    // --sweep 32,,64 swept two values.
    auto sweep = runTilec("tune " + gemm + " --interp --sweep block_K=32,,64");
    EXPECT_EQ(sweep.rc, 1) << sweep.out;
    EXPECT_TRUE(contains(sweep.out, "tilec: error: --sweep block_K=32,,64: an empty value in the list (a stray comma?)")) << sweep.out;
    // A float16 input of 1e30 is inf: the check then "passed" an output that was NaN everywhere.
    auto overflow = runTilec("run " + gemm + " --interp --input A=fill:1e30 -q");
    EXPECT_EQ(overflow.rc, 1) << overflow.out;  // well formed, wrong for this input (README: exit 1)
    EXPECT_TRUE(contains(overflow.out, "tilec: error: --input A: 1e+30 is outside float16's range (it would be inf)")) << overflow.out;
    auto inf = runTilec("run " + gemm + " --interp --input A=fill:inf -q");
    EXPECT_EQ(inf.rc, 0) << inf.out;  // infinities asked for by name: the output agrees (helper-109)
    EXPECT_TRUE(contains(inf.out, "no finite element: all 262144 are NaN/inf in both, alike")) << inf.out;
    auto int8 = runTilec("run '" + src("samples/add.py") + "' --interp -q --param dtype=int8 --input B=fill:300");
    EXPECT_EQ(int8.rc, 1) << int8.out;  // was 44 (wrapped), and the check passed
    EXPECT_TRUE(contains(int8.out, "--input B: 300 is outside int8's range (it would be 44)")) << int8.out;
    // The T.Parallel nests' layouts were listed first, as "__loop0".."__loop5" (the IDE opened on
    // __loop0): now by source line, after the buffers.
    auto layouts = runTilec("layout '" + src("samples/flash_attention.py") + "' -q");
    EXPECT_EQ(layouts.rc, 0) << layouts.out;
    EXPECT_FALSE(contains(layouts.out, "__loop")) << layouts.out;
    const size_t firstLoop = layouts.out.find("\nT.Parallel@"), lastBuffer = layouts.out.rfind("\nv_tile: ");
    EXPECT_NE(firstLoop, std::string::npos) << layouts.out;
    EXPECT_LT(lastBuffer, firstLoop) << layouts.out;
}

// `tilec run --help` shows the options as they are typed (helper-116: "--interp{tile}
// :{tile,lowered}", "--seed UINT:UINT", "--time-limit FLOAT:NUMBER >= 0" were CLI11's internals).
TEST(CliQuiet, RunHelpShowsOptionsAsTheyAreTyped) {
    auto r = runTilec("run --help");
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("  --interp [=tile|lowered]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  --seed N "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  --time-limit SECONDS"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("{tile}"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("UINT:UINT"), std::string::npos) << r.out;
}

// A directory instead of a file names the .py files it has (it suggested DIR/gemm.py whether or
// not that existed), and a --param given twice with different values says which one is used.
TEST(CliQuiet, DirectoryHintAndRepeatedParam) {
    auto r = runTilec("compile " + src("samples") + " --no-nvrtc");
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("hint: pass a .py file, e.g. " + src("samples/add.py") + ", "), std::string::npos) << r.out;
    const std::string empty = ::testing::TempDir() + "/cli_quiet_empty_dir";
    std::filesystem::create_directories(empty);
    r = runTilec("compile " + empty + " --no-nvrtc");
    EXPECT_NE(r.out.find("hint: pass a .py file (this directory has none)"), std::string::npos) << r.out;
    r = runTilec("compile " + src("samples/add.py") + " -p M=1024 -p M=64 -q --no-nvrtc");
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("note: --param M is given twice; M=64 (the last) is used, not M=1024"), std::string::npos) << r.out;
}
