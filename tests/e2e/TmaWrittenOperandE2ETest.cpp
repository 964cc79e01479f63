// The fragment-path TMA schedule with written operand tiles and row tiles
// (TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1, Hopper.h fragmentTmaCopies): a wgmma operand tile the
// loop body writes with ordinary stores (MHA backward's dS^T) gets two copies, iteration k
// writing copy k % 2, so the loop has one block barrier per iteration (the one before the first
// gemm reading it); 1-D tiles no gemm reads (lse/Delta rows) are TMA boxes of one row on the
// stage's mbarrier. tests/e2e/programs/tma_written_operand.py against float64 on both
// interpreters (mode 0: taken; mode 2: declined, read before its write), samples/mha_bwd.py's
// chain on the thread-level interpreter (also warp-specialized), NVRTC sm_90a.
#include <gtest/gtest.h>

#include "app/cli/Commands.h"
#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "profiler/cuda/PtxasInfo.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/ScopedEnv.h"
#include "tests/support/SourceDir.h"
#include "tests/unit/CliTestUtil.h"

namespace {

using ts::e2e::diagText;

const char* kProgram = "tests/e2e/programs/tma_written_operand.py";

ts::CompileResult compileIt(const std::string& file, const std::map<std::string, std::string>& params, const std::string& kernel = {}) {
    return ts::e2e::compileRepoFile(file, params, "cuda:sm_90a", kernel);
}

size_t countOf(const std::string& text, const std::string& what, size_t from = 0, size_t to = std::string::npos) {
    size_t n = 0;
    for (size_t p = text.find(what, from); p != std::string::npos && p < to; p = text.find(what, p + 1)) ++n;
    return n;
}

// `tilec run FILE --interp[=lowered]` against its float64 reference (or a chain's).
std::string runChecked(const std::string& file, std::vector<std::string> params, bool lowered, const std::vector<std::string>& chain = {},
                       const std::string& ref = {}) {
    using namespace ts::cli::test;
    ts::cli::RunCommand run;
    run.flags.file = std::string(TS_SOURCE_DIR) + "/" + file;
    run.flags.target = "cuda:sm_90a";
    run.flags.params = std::move(params);
    run.interp = lowered ? "lowered" : "tile";
    run.chain = chain;
    if (!ref.empty()) run.ref = ref;
    auto o = captureCli([&] { return chain.empty() ? ts::cli::runRun(run) : ts::cli::runChain(run); });
    return o.rc == 0 && contains(o.out, "\nPASS\n") ? "PASS" : o.out + o.err;
}

TEST(TmaWrittenOperand, WrittenTileHasTwoCopiesAndTheLoopOneBarrier) {
    ts::e2e::ScopedEnv on("TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS", "1");
    ts::CompileResult r = compileIt(kProgram, {{"T_tiles", "5"}});
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_NE(diagText(r).find("with its loop's tiles loaded by TMA (mbarrier pipeline, 'S_s' is written in the loop: two copies, one "
                               "block barrier per iteration before the first gemm that reads it)"),
              std::string::npos)
        << diagText(r);
    const size_t loop = r.cuda.find("for (int k = 0; k < 5; ++k) {");
    const size_t end = r.cuda.find("ts::mbarrier_arrive(&tma_empty[", loop);
    ASSERT_NE(loop, std::string::npos) << r.cuda;
    ASSERT_NE(end, std::string::npos) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "__syncthreads();", loop, end), 1u) << r.cuda.substr(loop, end - loop);
    EXPECT_EQ(countOf(r.cuda, "ts::fence_proxy_async();", loop, end), 1u) << r.cuda.substr(loop, end - loop);
    // S_s: 64 x 64 halves per copy, copy k % 2; r_s: one TMA box of one row (R's row 1 of tile k).
    EXPECT_NE(r.cuda.find("&S_s[((k % 2) * 4096)]", loop), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("ts::tma_load_tile<1, 64, 1>(", loop), std::string::npos) << r.cuda;
    EXPECT_EQ(r.cuda.find("cp_async"), std::string::npos) << r.cuda;
    if (ts::rt::nvrtcAvailable()) {
        auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
        EXPECT_TRUE(nv.ok) << nv.log;
    }
}

TEST(TmaWrittenOperand, MatchesFloat64OnBothInterpreters) {
    for (const char* env : {"1", "0"}) {
        ts::e2e::ScopedEnv on("TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS", env);
        for (const char* mode : {"0", "2"})
            for (auto [tiles, stages] : {std::pair{"1", "2"}, {"3", "2"}, {"5", "3"}, {"4", "2"}})
                for (bool lowered : {false, true})
                    EXPECT_EQ(runChecked(kProgram, {std::string("mode=") + mode, std::string("T_tiles=") + tiles, std::string("num_stages=") + stages},
                                         lowered),
                              "PASS")
                        << "env " << env << " mode " << mode << " T_tiles " << tiles << " stages " << stages << " lowered " << lowered;
    }
}

TEST(TmaWrittenOperand, ReadBeforeItsWriteIsDeclinedWithTheReason) {
    ts::e2e::ScopedEnv on("TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS", "1");
    ts::CompileResult r = compileIt(kProgram, {{"mode", "2"}});
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_NE(diagText(r).find("the loop's wgmma-only TMA schedule: 'S_s' is written in the loop and used outside it"), std::string::npos)
        << diagText(r);
    EXPECT_EQ(r.cuda.find("tma_empty"), std::string::npos) << r.cuda;
}

// An operand tile written only in part, or under a condition, in some iteration (helper-99):
// with two copies, iteration k writing copy k % 2, an element iteration k leaves alone holds
// iteration k - 2's value (or nothing), where the program reads iteration k - 1's. Both two-copy
// schedules (the default cp.async in-flight one at num_stages >= 3, the fragment-path TMA one
// with the switch) took such loops and read NaN (never-written copy 1) on the thread
// interpreter; they now keep one copy unless a top-level statement writes the whole tile.
// Modes 0 and 4 (the whole tile every iteration, 4 transposed) keep two copies.
TEST(TmaWrittenOperand, PartialOrConditionalWritesKeepOneCopy) {
    const char* program = "tests/e2e/programs/written_operand_partial.py";
    for (const char* env : {"0", "1"}) {
        ts::e2e::ScopedEnv on("TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS", env);
        for (const char* mode : {"0", "1", "2", "3", "4"}) {
            for (const char* stages : {"2", "3"})
                for (bool lowered : {false, true})
                    EXPECT_EQ(runChecked(program, {std::string("mode=") + mode, std::string("num_stages=") + stages}, lowered), "PASS")
                        << "env " << env << " mode " << mode << " stages " << stages << " lowered " << lowered;
            ts::CompileResult r = compileIt(program, {{"mode", mode}, {"num_stages", "3"}});
            ASSERT_TRUE(r.ok) << diagText(r);
            const bool twoCopies = r.cuda.find("&S_s[((k % 2) * 4096)]") != std::string::npos;
            EXPECT_EQ(twoCopies, std::string(mode) == "0" || std::string(mode) == "4") << "env " << env << " mode " << mode << "\n" << r.cuda;
            if (std::string(env) == "1" && std::string(mode) != "0" && std::string(mode) != "4") {
                EXPECT_NE(diagText(r).find("the loop's wgmma-only TMA schedule: 'S_s' is not written whole before it is read in the loop "
                                           "body (a write of part of the tile or under a condition leaves elements of two iterations "
                                           "back in its second copy)"),
                          std::string::npos)
                    << diagText(r);
            }
        }
    }
}

// Warp-specialized with a gemm that stays on mma.sync (mode 1: S_s is also read by a T.Parallel):
// the consumers issue it in their branch, as lowered for the kernel's threads; the thread
// interpreter expected the whole block with the producer (256 of 384 threads) and stopped with
// "tl.gemm_ss executed by 256 threads ... not by its 384" (helper-99).
TEST(TmaWrittenOperand, WarpSpecializedMmaSyncGemmMatchesFloat64) {
    ts::e2e::ScopedEnv on("TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS", "1");
    ts::e2e::ScopedEnv ws("TILESCOPE_HOPPER_WS", "1");
    for (const char* threads : {"128", "256"}) {
        ts::CompileResult r = compileIt(kProgram, {{"mode", "1"}, {"T_tiles", "4"}, {"threads", threads}});
        ASSERT_TRUE(r.ok) << diagText(r);
        EXPECT_NE(r.cuda.find("ts::gemm_ss<"), std::string::npos) << r.cuda;
        EXPECT_NE(r.cuda.find("if ((tx >= " + std::string(threads) + ")) {"), std::string::npos) << "warp-specialized\n" << r.cuda;
        for (bool lowered : {false, true})
            EXPECT_EQ(runChecked(kProgram, {"mode=1", "T_tiles=4", std::string("threads=") + threads}, lowered), "PASS")
                << "threads " << threads << " lowered " << lowered;
    }
}

TEST(TmaWrittenOperand, MhaBackwardMainHasOneBarrierPerIteration) {
    ts::e2e::ScopedEnv on("TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS", "1");
    ts::CompileResult r = compileIt("samples/mha_bwd.py", {{"seq_len", "1024"}, {"block_M", "128"}, {"threads", "256"}}, "mha_bwd_main");
    ASSERT_TRUE(r.ok) << diagText(r);
    const size_t loop = r.cuda.find("for (int qt = 0; qt < 16; ++qt) {");
    const size_t end = r.cuda.find("ts::mbarrier_arrive(&tma_empty[", loop);
    ASSERT_NE(loop, std::string::npos) << r.cuda;
    ASSERT_NE(end, std::string::npos) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "__syncthreads();", loop, end), 1u) << r.cuda.substr(loop, end - loop);
    // dS^T: two copies of 128 x 64 halves; dK += dS^T Q stays in flight while dQ = dS K is issued.
    EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<128, 64, 64, 2, false, false, 1, ts::half>(&dS_s[((qt % 2) * 8192)]", loop), std::string::npos)
        << r.cuda;
    EXPECT_NE(r.cuda.find("&lse_s[(((qt + 1) % 2) * 64)], &tma_full[((qt + 1) % 2)]", loop), std::string::npos) << r.cuda;
    {
        // With late tiles (TILESCOPE_HOPPER_LATE_WAIT=1): lse, dO and Delta are first read after
        // K Q^T, so they complete on their own full barrier, waited after it.
        ts::e2e::ScopedEnv late("TILESCOPE_HOPPER_LATE_WAIT", "1");
        ts::CompileResult l = compileIt("samples/mha_bwd.py", {{"seq_len", "1024"}, {"block_M", "128"}, {"threads", "256"}}, "mha_bwd_main");
        ASSERT_TRUE(l.ok) << diagText(l);
        const size_t lloop = l.cuda.find("for (int qt = 0; qt < 16; ++qt) {");
        EXPECT_NE(l.cuda.find("&lse_s[(((qt + 1) % 2) * 64)], &tma_full_late[((qt + 1) % 2)]", lloop), std::string::npos) << l.cuda;
        const size_t kq = l.cuda.find("ts::wgmma_gemm_ss<128, 64, 64, 2, false, true, 0, ts::half, 1, 64, 0, true>(&K_s[0], &Q_s[", lloop);
        const size_t lateWait = l.cuda.find("ts::mbarrier_wait(&tma_full_late[(qt % 2)], ((qt / 2) % 2));", lloop);
        ASSERT_NE(kq, std::string::npos) << l.cuda;
        EXPECT_GT(lateWait, kq) << l.cuda;
        EXPECT_LT(lateWait, l.cuda.find("&dO_s[((qt % 2) * 4096)]", lloop)) << l.cuda;
    }
    EXPECT_EQ(r.cuda.find("cp_async"), std::string::npos) << r.cuda;
    if (ts::rt::nvrtcAvailable()) {
        auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
        EXPECT_TRUE(nv.ok) << nv.log;
    }
}

TEST(TmaWrittenOperand, MhaBackwardChainMatchesFloat64OnTheThreadInterpreter) {
    ts::e2e::ScopedEnv on("TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS", "1");
    const std::vector<std::string> chain{"mha_fwd", "mha_bwd_preprocess", "mha_bwd_main", "mha_bwd_postprocess"};
    const std::vector<std::vector<std::string>> params = {
        {"seq_len=200", "is_causal=False"},
        {"seq_len=130", "is_causal=True"},  // 520-byte lse rows: those stay cp.async, the schedule declines
        {"seq_len=200", "is_causal=True", "block_M=128", "threads=256", "ds_regs=True"},
        {"seq_len=100", "is_causal=True", "dq_tma=True"}};
    for (const auto& p : params) EXPECT_EQ(runChecked("samples/mha_bwd.py", p, true, chain, "bwd_ref"), "PASS") << p[0] << " " << p[1];
    // Warp-specialized (a producer warpgroup issues the refills; the block barrier becomes a
    // named barrier of the consumers).
    ts::e2e::ScopedEnv ws("TILESCOPE_HOPPER_WS", "1");
    for (const auto& p : params) EXPECT_EQ(runChecked("samples/mha_bwd.py", p, true, chain, "bwd_ref"), "PASS") << "ws " << p[0] << " " << p[1];
}

// Warp-specialized with two consumer warpgroups (WarpSpecialize.cpp registerCounts): one loop per
// role, the producer releases registers to 24 and the consumers grow to 240 (384 threads, 168
// registers at launch). ptxas honours setmaxnreg only when the producer's code fits 24 registers
// ("(C7507) ... 'setmaxnreg' ignored" when the roles shared one loop) and the consumers then do
// not spill (the shared loop at 168 registers spilled 28 bytes per thread).
TEST(TmaWrittenOperand, WarpSpecializedRolesSplitAndMoveRegisters) {
    ts::e2e::ScopedEnv on("TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS", "1");
    ts::e2e::ScopedEnv ws("TILESCOPE_HOPPER_WS", "1");
    for (const char* file : {"samples/mha_bwd.py", "samples/flash_attn_fwd.py"}) {
        const bool bwd = std::string(file) == "samples/mha_bwd.py";
        ts::CompileResult r =
            bwd ? compileIt(file, {{"seq_len", "1024"}, {"block_M", "128"}, {"threads", "256"}}, "mha_bwd_main")
                : compileIt(file, {{"seq_len", "4096"}, {"heads", "16"}, {"dim", "128"}, {"block_M", "128"}, {"threads", "256"}});
        ASSERT_TRUE(r.ok) << diagText(r);
        EXPECT_NE(r.cuda.find("__launch_bounds__(384, 1)"), std::string::npos) << file;
        const size_t prod = r.cuda.find("ts::set_max_nreg<24, 0>();"), cons = r.cuda.find("ts::set_max_nreg<240, 1>();");
        ASSERT_NE(prod, std::string::npos) << file << "\n" << r.cuda;
        ASSERT_NE(cons, std::string::npos) << file;
        const std::string loop = bwd ? "for (int qt = 0; qt < 16; ++qt) {" : "for (int kt = 0; kt < 64; ++kt) {";
        EXPECT_EQ(countOf(r.cuda, loop), 2u) << file << ": one loop per role\n" << r.cuda;
        EXPECT_LT(prod, r.cuda.find(loop, prod)) << file;
        EXPECT_LT(r.cuda.find(loop, prod), cons) << file << ": the producer's loop is in its own branch";
        if (ts::rt::nvrtcAvailable()) {
            auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, false);
            ASSERT_TRUE(nv.ok) << nv.log;
            const auto& info = nv.ptxas;
            ASSERT_EQ(info.kernels.size(), 1u) << nv.log;
            EXPECT_EQ(info.kernels[0].spillStoreBytes, 0) << file << "\n" << nv.log;
            EXPECT_EQ(info.kernels[0].registers, 168) << file << "\n" << nv.log;
            EXPECT_FALSE(info.kernels[0].setmaxnregIgnored) << file << ": ptxas ignored setmaxnreg";
        }
    }
    // The measurement switch keeps the shared loop and the registers where they are.
    ts::e2e::ScopedEnv off("TILESCOPE_HOPPER_WS_MAXNREG", "0");
    ts::CompileResult r = compileIt("samples/mha_bwd.py", {{"seq_len", "1024"}, {"block_M", "128"}, {"threads", "256"}}, "mha_bwd_main");
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_EQ(r.cuda.find("set_max_nreg"), std::string::npos);
    // The shared loop with setmaxnreg was what ptxas ignored (C7507): the parser reports it.
    const auto ignored = ts::rt::parsePtxasInfo(
        "ptxas info    : (C7507) Potential Performance Loss: 'setmaxnreg' ignored to maintain minimum register requirements.\n"
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function 'mha_bwd_main_kernel' for 'sm_90a'\n"
        "ptxas info    : Function properties for mha_bwd_main_kernel\n"
        "ptxas         .     32 bytes stack frame, 32 bytes spill stores, 32 bytes spill loads\n"
        "ptxas info    : Used 168 registers, used 2 barriers, 32 bytes cumulative stack size\n");
    ASSERT_EQ(ignored.kernels.size(), 1u);
    EXPECT_TRUE(ignored.kernels[0].setmaxnregIgnored);
    EXPECT_EQ(ignored.kernels[0].remarks.at(0),
              "(C7507) Potential Performance Loss: 'setmaxnreg' ignored to maintain minimum register requirements.");
    EXPECT_EQ(ignored.kernels[0].spillStoreBytes, 32);
    EXPECT_EQ(countOf(r.cuda, "for (int qt = 0; qt < 16; ++qt) {"), 1u);
}

// The second copy must fit in shared memory: DeepSeek MLA decode (TileLang's example, read from the
// corpus next to the checkout) writes its S tile in the loop, and with two copies the kernel needed
// 238592 bytes, over sm_90a's 232448 (a compile error); the schedule now declines it with the reason.
TEST(TmaWrittenOperand, DeclinedWhenTheSecondCopyDoesNotFit) {
    const std::string path = std::string(TS_SOURCE_DIR) + "/../shared/tilelang-corpus/examples/deepseek_mla/example_mla_decode.py";
    const std::string text = ts::e2e::readRepoFile("../shared/tilelang-corpus/examples/deepseek_mla/example_mla_decode.py");
    if (text.empty()) GTEST_SKIP() << "no TileLang corpus at " << path;
    ts::e2e::ScopedEnv on("TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS", "1");
    ts::CompileOptions o;
    o.target = "cuda:sm_90a";
    o.kernel = "flashattn";
    o.recordSnapshots = false;
    o.params = {{"batch", "132"}, {"heads", "128"}, {"kv_head_num", "1"}, {"seqlen_kv", "8192"}, {"dim", "512"}, {"pe_dim", "64"},
                {"block_N", "64"}, {"block_H", "64"}, {"num_split", "1"}, {"softmax_scale", "0.041666666666666664"}};
    ts::CompileResult r = ts::compile(path, text, o);
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_NE(diagText(r).find("the loop's wgmma-only TMA schedule: two copies of the written operand tile would need about"), std::string::npos)
        << diagText(r);
    EXPECT_EQ(r.cuda.find("tma_empty"), std::string::npos);
}

}  // namespace
