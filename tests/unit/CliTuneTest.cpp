// `tilec tune` on the tile interpreter (no GPU here), the results store it writes and
// `tilec results`: the @autotune configs of tests/e2e/programs/tune_gemm.py (12 good variants and
// a deliberately wrong one), --sweep products, compile errors kept with their reason, CSV/JSON.
#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "app/cli/Record.h"
#include "profiler/cuda/Driver.h"
#include "profiler/store/ResultsStore.h"
#include "tests/unit/CliTestUtil.h"
#include "tests/support/SourceDir.h"

using namespace ts;
using namespace ts::cli;
using namespace ts::cli::test;

namespace {

/// A fresh store file for one test, set as $TILESCOPE_RESULTS for its duration.
struct ScratchStore {
    std::string path;
    explicit ScratchStore(const std::string& name) {
        auto dir = std::filesystem::path(testing::TempDir()) / ("ts_store_" + name);
        std::filesystem::remove_all(dir);
        path = (dir / "results.jsonl").string();
        ::setenv("TILESCOPE_RESULTS", path.c_str(), 1);
    }
    ~ScratchStore() { ::unsetenv("TILESCOPE_RESULTS"); }
};

const std::string kTuneGemm = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/tune_gemm.py";

TuneCommand tuneInterp() {
    TuneCommand c;
    c.flags.file = kTuneGemm;
    c.flags.params = {"M=128", "N=128", "K=128"};
    c.interp = "tile";
    c.jobs = 2;
    return c;
}

}  // namespace

TEST(CliTune, AutotuneConfigsRejectTheWrongVariantAndPickABest) {
    ScratchStore store("autotune");
    auto o = captureCli([&] { return runTune(tuneInterp()); });
    ASSERT_EQ(o.rc, 0) << o.out << o.err;
    EXPECT_TRUE(contains(o.out, "13 variants")) << o.out;
    // The wrong variant (skip_k=1: the last K tile is missing) is rejected with the output named.
    EXPECT_TRUE(contains(o.out, "wrong_result")) << o.out;
    EXPECT_TRUE(contains(o.out, "skip_k=1")) << o.out;
    EXPECT_TRUE(contains(o.out, "C: rel-L2")) << o.out;
    EXPECT_TRUE(contains(o.out, "<- best")) << o.out;
    EXPECT_TRUE(contains(o.out, "(1 of 13 variants failed)")) << o.out;

    auto recs = rt::ResultsStore(store.path).load();
    ASSERT_EQ(recs.size(), 13u);
    int best = 0, wrong = 0;
    const std::string session = recs[0]["tune"]["session"];
    for (auto& r : recs) {
        EXPECT_EQ(r["kind"], "tune");
        EXPECT_EQ(r["tune"]["session"], session);
        EXPECT_EQ(r["device"], "cpu-interpreter");
        EXPECT_FALSE(r["source_hash"].get<std::string>().empty());
        EXPECT_TRUE(contains(r["compiler"].get<std::string>(), "TileScope"));
        EXPECT_EQ(r["params"]["M"], "128");
        // The sample's total_flops(M, N, K) = 2 M N K (the roofline's work); no total_bytes.
        EXPECT_DOUBLE_EQ(r.value("flops", 0.0), 2.0 * 128 * 128 * 128);
        EXPECT_FALSE(r.contains("bytes"));
        best += r["tune"]["best"].get<bool>();
        if (r["status"] == "wrong_result") {
            ++wrong;
            EXPECT_EQ(r["tune"]["config"]["skip_k"], "1");
            EXPECT_EQ(r["params"]["skip_k"], "1");
        }
    }
    EXPECT_EQ(best, 1);
    EXPECT_EQ(wrong, 1);
    // The program text is kept, so the compare view can recompile any variant exactly.
    auto text = rt::ResultsStore(store.path).loadSource(recs[0]["source_hash"]);
    ASSERT_TRUE(text);
    EXPECT_TRUE(contains(*text, "@tilelang.autotune(configs=get_configs())"));
}

TEST(CliTune, SweepIsACartesianProductAndCompileErrorsAreKept) {
    ScratchStore store("sweep");
    TuneCommand c = tuneInterp();
    // threads=96 is three warps: the 2x2 warp grid of T.gemm cannot be formed (a diagnostic).
    c.sweeps = {"block_M=64,128", "threads=128,96"};
    auto o = captureCli([&] { return runTune(c); });
    ASSERT_EQ(o.rc, 0) << o.out << o.err;
    EXPECT_TRUE(contains(o.out, "4 variants")) << o.out;
    auto recs = rt::ResultsStore(store.path).load();
    ASSERT_EQ(recs.size(), 4u);
    // First name varies slowest.
    EXPECT_EQ(recs[0]["tune"]["config"]["block_M"], "64");
    EXPECT_EQ(recs[0]["tune"]["config"]["threads"], "128");
    EXPECT_EQ(recs[1]["tune"]["config"]["threads"], "96");
    EXPECT_EQ(recs[2]["tune"]["config"]["block_M"], "128");
    for (auto& r : recs) {
        if (r["tune"]["config"]["threads"] == "128") {
            EXPECT_EQ(r["status"], "ok") << r.dump();
        } else {
            // Kept with the compiler's diagnostic as the reason.
            EXPECT_EQ(r["status"], "compile_error") << r.dump();
            EXPECT_TRUE(contains(r["reason"].get<std::string>(), "3 warps cannot tile"))
                << r.dump();
        }
    }
    EXPECT_TRUE(contains(o.out, "(2 of 4 variants failed)")) << o.out;
}

TEST(CliTune, VariantsWithoutAReferenceAreUncheckedNotOk) {
    // Fresh-user trial: a file without ref_program (TileLang's autotune examples check inline in
    // main()) printed every variant "ok" and then "no variant passed (0 of 10 failed)".
    ScratchStore store("noref");
    std::string text = replaced(sampleText("gemm.py"), "def ref_program(", "def other_program(");
    TuneCommand c;
    c.flags.file = writeScratch("tune_noref.py", text);
    c.flags.params = {"M=128", "N=128", "K=64"};
    c.interp = "tile";
    c.jobs = 1;
    c.sweeps = {"block_M=64,128"};
    auto o = captureCli([&] { return runTune(c); });
    EXPECT_EQ(o.rc, 2) << o.out << o.err;
    EXPECT_TRUE(contains(o.out, "unchecked")) << o.out;
    EXPECT_FALSE(contains(o.out, "  ok  ")) << o.out;
    EXPECT_TRUE(contains(o.out, "no best variant: 2 of 2 ran but none was checked, 0 failed"))
        << o.out;
    EXPECT_TRUE(contains(o.out, "--ref NAME")) << o.out;
    EXPECT_FALSE(contains(o.out, "no variant passed")) << o.out;
}

TEST(CliTune, UnknownSweepParameterIsAnError) {
    ScratchStore store("unknown");
    TuneCommand c = tuneInterp();
    c.sweeps = {"blockM=64,128"};
    auto o = captureCli([&] { return runTune(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "has no parameter 'blockM'")) << o.err;
    EXPECT_TRUE(contains(o.err, "block_M")) << o.err;
}

TEST(CliTune, ResultsListsCsvAndJson) {
    ScratchStore store("results");
    TuneCommand c = tuneInterp();
    c.sweeps = {"num_stages=2,3"};
    ASSERT_EQ(captureCli([&] { return runTune(c); }).rc, 0);
    ResultsCommand rc;
    rc.format = "csv";
    auto csv = captureCli([&] { return runResults(rc); });
    ASSERT_EQ(csv.rc, 0) << csv.err;
    auto lines = std::count(csv.out.begin(), csv.out.end(), '\n');
    EXPECT_EQ(lines, 3);  // header + 2 variants
    EXPECT_EQ(csv.out.rfind("id,date,kind,status,file,kernel,params,device,driver,compiler,check,"
                            "time_ms,reason",
                            0),
              0u)
        << csv.out;
    rc.format = "json";
    auto js = captureCli([&] { return runResults(rc); });
    auto arr = nlohmann::json::parse(js.out);
    ASSERT_EQ(arr.size(), 2u);
    EXPECT_EQ(arr[0]["tune"]["config"]["num_stages"], "2");
    rc.format = "table";
    rc.kind = "run";
    auto none = captureCli([&] { return runResults(rc); });
    EXPECT_TRUE(contains(none.out, "no results")) << none.out;
}

TEST(ResultsStore, MalformedLinesAreSkippedAndCsvQuotes) {
    auto dir = std::filesystem::path(testing::TempDir()) / "ts_store_malformed";
    std::filesystem::remove_all(dir);
    rt::ResultsStore s((dir / "r.jsonl").string());
    ASSERT_TRUE(s.append({{"kind", "run"}, {"reason", "a, \"quoted\" reason"}}));
    {
        std::ofstream f(s.path(), std::ios::app);
        f << "{\"kind\": \"run\", \"trunc";  // a crash mid-write
    }
    size_t skipped = 0;
    auto recs = s.load(&skipped);
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(skipped, 1u);
    EXPECT_TRUE(recs[0].contains("id"));
    EXPECT_TRUE(recs[0].contains("date"));
    const std::string csv = rt::recordsToCsv(recs);
    EXPECT_TRUE(contains(csv, "\"a, \"\"quoted\"\" reason\"")) << csv;
}

// --baseline cublas and --devices where there is no GPU (the dev box, CI): a clear message and
// exit status 1 before any variant runs, never a crash or a silent interpreter run.
TEST(CliTune, LibraryBaselineWithoutAGpuSaysSo) {
    if (rt::available()) GTEST_SKIP() << "a GPU driver is present: the GPU tests cover this";
    ScratchStore store("baseline_nogpu");
    TuneCommand interp = tuneInterp();
    interp.baseline = "cublas";
    auto o = captureCli([&] { return runTune(interp); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "--baseline cublas times the library on a GPU; --interp runs no GPU"))
        << o.err;

    TuneCommand gpu = tuneInterp();
    gpu.interp.clear();
    gpu.baseline = "cublas";
    o = captureCli([&] { return runTune(gpu); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "tune needs a GPU")) << o.err;
    EXPECT_TRUE(contains(o.err, "the cuBLAS baseline runs only on a GPU")) << o.err;

    BenchCommand bench;
    bench.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    bench.baseline = "cublas";
    o = captureCli([&] { return runBench(bench); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "--baseline cublas needs an NVIDIA GPU")) << o.err;
    bench.baseline = "mkl";
    o = captureCli([&] { return runBench(bench); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "not a known library baseline (known: cublas)")) << o.err;
    EXPECT_TRUE(rt::ResultsStore(store.path).load().empty());  // nothing ran, nothing stored
}

TEST(CliTune, ReferenceOfTheSameShapesWithOtherParametersIsNotReused) {
    // tma_sweep_gemm.py: off=0 tail=2 and off=1 tail=1 give A (64, 2) and B (2, 64) both, but
    // ref_program(A, B, off) differs; the reference cache was keyed by shapes only, so the second
    // variant was checked against the first one's reference and failed.
    ScratchStore store("refparams");
    TuneCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/tma_sweep_gemm.py";
    c.flags.target = "cuda:sm_90a";
    c.flags.inputRules = {"A=int:-4:4", "B=int:-4:4"};
    c.interp = "tile";
    c.jobs = 1;
    c.rtol = 1e-300;  // small integers: the float32 sums are exact
    c.sweeps = {"off=0,1", "tail=2,1"};
    for (uint64_t seed : {uint64_t(0x7e57), uint64_t(0)}) {  // shared inputs, then fresh ones per variant
        c.seed = seed;
        auto o = captureCli([&] { return runTune(c); });
        EXPECT_EQ(o.rc, 0) << o.out << o.err;
        EXPECT_TRUE(contains(o.out, "(0 of 4 variants failed)")) << o.out;
    }
    auto recs = rt::ResultsStore(store.path).load();
    ASSERT_EQ(recs.size(), 8u);
    for (auto& r : recs) EXPECT_EQ(r["check"], "pass") << r.dump();
}
