// Exit codes of `tilec compile` for bad pass names and output folders, and the argument limits
// of `tilec layout` (app/cli/CmdCompile.cpp, CmdBanks.cpp): every bad value is an error with
// exit 1 that names the valid range, never a warning, a crash (std::bad_alloc) or a grid of
// offsets outside the allocation.
#include <set>
#include <sstream>

#include "CliTestUtil.h"
#include "tests/support/SourceDir.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {
const std::string kGemm = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";

CompileCommand gemmCompile() {
    CompileCommand c;
    c.flags.file = kGemm;
    c.flags.target = "cuda:sm_80";
    c.noNvrtc = true;
    return c;
}

LayoutCommand builtin(const std::string& name, const std::string& shape = {},
                      const std::string& warps = {}) {
    LayoutCommand c;
    c.builtin = name;
    c.shape = shape;
    c.warps = warps;
    return c;
}

LayoutCommand gemmBuffer(const std::string& buffer) {
    LayoutCommand c;
    c.flags.file = kGemm;
    c.flags.target = "cuda:sm_80";
    c.buffer = buffer;
    return c;
}
}  // namespace

TEST(CliCompile, UnknownPrintAfterIsAnError) {
    auto c = gemmCompile();
    c.printAfter = "bogus";
    auto o = captureCli([&] { return runCompile(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "error: --print-after: no pass named 'bogus'")) << o.err;
}

TEST(CliCompile, UnknownStopAfterIsAnError) {
    auto c = gemmCompile();
    c.stopAfter = "bogus";
    auto o = captureCli([&] { return runCompile(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "error: --stop-after: no pass named 'bogus'")) << o.err;
}

TEST(CliCompile, DumpDirThatIsAFileIsAnError) {
    auto c = gemmCompile();
    c.dumpDir = writeScratch("not_a_dir", "x");
    auto o = captureCli([&] { return runCompile(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "cannot write into --dump-dir")) << o.err;
}

TEST(CliCompile, ValidFlagsStillSucceed) {
    auto c = gemmCompile();
    c.printAfter = "all";
    c.dumpDir = (std::filesystem::path(testing::TempDir()) / "ts_cli_dump").string();
    auto o = captureCli([&] { return runCompile(c); });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_FALSE(std::filesystem::is_empty(c.dumpDir));
}

TEST(CliLayout, HugeBuiltinShapesAreRefused) {
    // Each used to throw std::bad_alloc (65536^2 cells; 4294967296x8 = 2^35).
    for (const char* shape : {"65536x65536", "99999984x8", "4294967296x8", "1025x1024"}) {
        auto o = captureCli([&] { return runLayout(builtin("mma_c", shape)); });
        EXPECT_EQ(o.rc, 1) << shape;
        EXPECT_TRUE(contains(o.err, "has too many elements (at most 1048576")) << o.err;
    }
    // 1024x1024 = 2^20 exactly is allowed (mma_c tiles it: 16 | 1024, 8 | 1024).
    auto ok = captureCli([&] { return runLayout(builtin("mma_c", "1024x1024")); });
    EXPECT_EQ(ok.rc, 0) << ok.err;
}

TEST(CliLayout, WarpGridLimitedTo1024Threads) {
    auto o = captureCli([&] { return runLayout(builtin("mma_c", {}, "64x64")); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "more than 1024 threads per block (at most 32 groups of 32"))
        << o.err;
    // 32 warps x 32 threads = 1024: allowed; 33 warps are not.
    EXPECT_EQ(captureCli([&] { return runLayout(builtin("mma_c", {}, "8x4")); }).rc, 0);
    EXPECT_EQ(captureCli([&] { return runLayout(builtin("mma_c", {}, "33x1")); }).rc, 1);
    // wgmma counts warpgroups of 128 threads: 8 at most.
    EXPECT_EQ(captureCli([&] { return runLayout(builtin("wgmma_c", {}, "3x3")); }).rc, 1);
}

TEST(CliLayout, LdmatrixAcceptsPtxSpelling) {
    auto plain = captureCli([&] { return runLayout(builtin("ldmatrix:4")); });
    auto ptx = captureCli([&] { return runLayout(builtin("ldmatrix:x4")); });
    ASSERT_EQ(plain.rc, 0) << plain.err;
    ASSERT_EQ(ptx.rc, 0) << ptx.err;
    // Same grid; only the title line (the spec as typed) differs.
    EXPECT_EQ(plain.out.substr(plain.out.find('\n')), ptx.out.substr(ptx.out.find('\n')));
    EXPECT_EQ(captureCli([&] { return runLayout(builtin("ldmatrix_t:x2")); }).rc, 0);
}

TEST(CliLayout, TileOutsideTheStagesIsAnError) {
    // gemm.py's A_shared is multi-buffered over num_stages=4 stages: valid tiles are 0..3.
    for (int64_t tile : {9, -1, 4}) {
        auto c = gemmBuffer("A_shared");
        c.tile = tile;
        auto o = captureCli([&] { return runLayout(c); });
        EXPECT_EQ(o.rc, 1) << tile;
        EXPECT_TRUE(contains(o.err, "'A_shared' has 4 stages (0..3)")) << o.err;
        EXPECT_TRUE(o.out.empty()) << o.out;
    }
    auto c = gemmBuffer("A_shared");
    c.tile = 3;
    EXPECT_EQ(captureCli([&] { return runLayout(c); }).rc, 0);
}

TEST(CliLayout, ThreadOutsideTheKernelIsAnError) {
    auto c = gemmBuffer("C_local");  // gemm.py: threads=128
    c.thread = 5000;
    auto o = captureCli([&] { return runLayout(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err,
                         "--thread 5000 is out of range (the kernel has 128 threads: "
                         "0..127)"))
        << o.err;
    c.thread = 127;
    EXPECT_EQ(captureCli([&] { return runLayout(c); }).rc, 0);
}

TEST(CliGuard, EscapingExceptionBecomesInternalErrorExit2) {
    // What used to end in std::terminate (exit 134) for e.g. compare()'s shape exception.
    auto o = captureCli(
        [] { return runGuarded([]() -> int { throw std::invalid_argument("compare: boom"); }); });
    EXPECT_EQ(o.rc, 2);
    EXPECT_TRUE(contains(o.err, "tilec: internal error: compare: boom (please report)")) << o.err;
    auto oom = captureCli([] { return runGuarded([]() -> int { throw std::bad_alloc(); }); });
    EXPECT_EQ(oom.rc, 2);
    // Running out of host memory is a limit of the run, not a compiler fault: a plain error with
    // what to do (smaller --param sizes, the GPU), never "internal error ... please report".
    EXPECT_EQ(oom.err,
              "tilec: error: out of host memory: this run needs more memory than the process may use\n"
              "  hint: run at smaller sizes (--param NAME=VALUE; `tilec kernels FILE` lists the parameters) -- "
              "the interpreters hold every tensor and the reference in float64 -- or on the GPU\n");
    EXPECT_EQ(runGuarded([] { return 7; }), 7);
}

TEST(CliJson, UnwritablePathIsAnErrorAndBadUtf8IsReplaced) {
    nlohmann::json j;
    j["file"] = std::string("a\xff.py");  // not UTF-8: dump() would throw type_error 316
    auto o = captureCli([&] { return writeJson(j, "/nonexistent-dir/x.json") ? 0 : 1; });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "cannot write --json '/nonexistent-dir/x.json'")) << o.err;
    auto ok = captureCli([&] { return writeJson(j, "-") ? 0 : 1; });
    EXPECT_EQ(ok.rc, 0);
    EXPECT_TRUE(contains(ok.out, "\"a\xef\xbf\xbd.py\"")) << ok.out;  // U+FFFD
}

// A shared tile of more than 10000 elements (the staged 128x256 fp16 epilogue tile of the sm_90a
// GEMM, 32768 offsets): every offset in the grid is its own whitespace-separated number, so the
// grid reads back as the tile's offsets (the fixed 5-column width ran 5-digit offsets together).
TEST(CliLayout, FiveDigitSharedOffsetsStaySeparate) {
    auto c = gemmBuffer("C_local_stage");
    c.flags.target = "cuda:sm_90a";
    c.flags.params = {"M=256", "N=256", "K=128", "block_N=256", "threads=256"};
    auto o = captureCli([&] { return runLayout(c); });
    ASSERT_EQ(o.rc, 0) << o.err;
    std::istringstream in(o.out);
    std::string header, line;
    std::getline(in, header);
    std::set<long long> seen;
    int rows = 0;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        std::istringstream ls(line);
        long long v = 0;
        int cols = 0;
        while (ls >> v) {
            ASSERT_GE(v, 0);
            ASSERT_LT(v, 128 * 256) << "row " << rows << ": " << line.substr(0, 200);
            seen.insert(v);
            ++cols;
        }
        EXPECT_EQ(cols, 256) << "row " << rows;
        ++rows;
    }
    EXPECT_EQ(rows, 128);
    EXPECT_EQ(seen.size(), size_t(128 * 256));  // a bijection onto the tile's elements
}
