// Issue 9's TMA eligibility sweep, without a GPU: tests/e2e/programs/tma_sweep_{copy,gemm}.py at
// every point of start offset 0..8 elements x tail 1..130 x {int32, float16, float8_e4m3},
// compiled for cuda:sm_90a. The compiler's choice (tensor maps + ts::tma_load_tile in the CUDA,
// or cp.async/plain loads) is compared with a legality rule derived here from the hardware
// documents, not from the compiler:
//  - CUDA Driver API, cuTensorMapEncodeTiled: globalAddress aligned to 16 bytes (the tensor's
//    base: cudaMalloc returns 256-byte aligned memory); globalStrides[i] (the row pitch in bytes) a
//    multiple of 16 and < 2^40; boxDim[i] in 1..256; with interleave NONE, boxDim[0] *
//    elementSize a multiple of 16 bytes; tensorRank 1..5.
//  - PTX ISA §9.7.9.25.5.1 (cp.async.bulk.tensor): the box's out-of-bounds elements are filled
//    with zero, so a tail tile that runs past the tensor is still one legal load (T.copy's
//    "out-of-bounds source lanes read 0").
//  - measured, not documented: the box's start along the contiguous dimension (the column
//    `off`) must be 16-byte aligned. bench/h200_tma_plain.sh on the H200 (2026-12-03): every
//    int32 TMA load from column 1, 2, 3, 5, 6 or 7 faulted (CUDA_ERROR_ILLEGAL_INSTRUCTION, 196
//    kernels) while columns 0, 4 and 8 copied bit-exactly.
// A tile copy is TMA-legal when the source tensor's row pitch (off + tail elements) is a
// multiple of 16 bytes, the start column off is a multiple of 16 bytes, and the box (64
// columns, 16 or 64 rows) satisfies the box rules.
// In a T.Pipelined loop the operand tiles of a float16/bfloat16 wgmma gemm take the TMA +
// wgmma schedule (transforms/Hopper.h); the producers of the cp.async schedules (the pipelined
// copy kernel; the gemm's copies when one operand is not TMA-legal) take TMA per copy exactly
// where the same rule allows it (InjectPipelineTmaLoads.cpp, pipelinedTmaWhyNot), with a note
// either way. The fp8 gemm (mma.sync, ldmatrix tiles with a 128-byte XOR swizzle on 64-byte rows,
// a layout TMA does not write) keeps cp.async even where TMA would be legal (pinned below, so
// the gap stays visible). A plain
// T.copy global -> shared (tma_plain_copy.py: one per block, or one per iteration of a T.serial
// loop) is one TMA load on its own mbarrier exactly where the rule allows it (ops/CopyTma.cpp),
// with a note saying why not elsewhere. The test asserts: TMA is never used where it is illegal
// (every kernel, every point); for plain copies and on the wgmma path it is used exactly where
// it is legal. A subset runs on both interpreters against float64 and compiles with NVRTC for
// sm_80 and sm_90a; the GPU run of every point (NVRTC sm_90a included) is bench/h200_tma_sweep.sh
// (pipelined copies, gemms) and bench/h200_tma_plain.sh (plain copies).
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/CompileObserver.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

struct Dt {
    const char* name;
    int bytes;
};
constexpr Dt kDtypes[] = {{"int32", 4}, {"float16", 2}, {"float8_e4m3", 1}};
const char* kCopy = "tests/e2e/programs/tma_sweep_copy.py";
const char* kGemm = "tests/e2e/programs/tma_sweep_gemm.py";
const char* kPlain = "tests/e2e/programs/tma_plain_copy.py";

/// cuTensorMapEncodeTiled's rules for one 2-D tiled map: row pitch, box extents, inner box bytes.
bool tensorMapLegal(int64_t rowElems, int64_t boxCols, int64_t boxRows, int eltBytes) {
    const int64_t pitch = rowElems * eltBytes;
    return pitch % 16 == 0 && pitch < (int64_t(1) << 40) && boxCols >= 1 && boxCols <= 256 && boxRows >= 1 &&
           boxRows <= 256 && (boxCols * eltBytes) % 16 == 0;
}

/// The box's start column `off` is 16-byte aligned (measured on the H200, see the top).
bool startAligned(int off, int eltBytes) { return (int64_t(off) * eltBytes) % 16 == 0; }

std::map<std::string, std::string> params(int off, int tail, const Dt& d, int loop = -1) {
    std::map<std::string, std::string> p{{"off", std::to_string(off)}, {"tail", std::to_string(tail)},
                                         {"dtype", std::string("\"") + d.name + "\""}};
    if (loop >= 0) p["loop"] = std::to_string(loop);
    return p;
}

struct Decision {
    bool ok = false;
    bool tma = false;      ///< tensor maps and TMA loads in the CUDA
    bool cpAsync = false;  ///< cp.async in the CUDA
    std::string diag;
    std::string notes;     ///< the notes of lower-tile-ops (plain copies: TMA or why not)
};
Decision decide(const char* file, const std::string& text, const std::map<std::string, std::string>& p) {
    ts::CompileOptions opts;
    opts.params = p;
    opts.target = "cuda:sm_90a";
    opts.recordSnapshots = false;
    ts::CompileResult r = ts::compile(file, text, opts);
    Decision d;
    d.ok = r.ok;
    if (!r.ok) return d.diag = ts::e2e::diagText(r), d;
    const bool loads = r.cuda.find("ts::tma_load_tile<") != std::string::npos;
    // The copy kernels' T.copy(A_shared, Out[...]) may be a TMA store (ops/CopyTma.cpp, its own
    // sweep in TmaStoreE2ETest.cpp): its map over Out is not a load's.
    const bool stores = r.cuda.find("ts::tma_store_tile<") != std::string::npos;
    d.tma = loads && !r.kernel.tensorMaps.empty();
    if ((loads || stores) != !r.kernel.tensorMaps.empty()) d.diag = "TMA copies and tensor maps disagree";
    d.cpAsync = r.cuda.find("ts::cp_async") != std::string::npos;
    for (auto& x : r.diagnostics)
        if (x.severity == ts::Severity::Note && (x.origin == "lower-tile-ops" || x.origin == "inject-pipeline")) d.notes += x.message + "\n";
    return d;
}

TEST(TmaEligibilitySweep, TmaExactlyWhereLegalOnTheWgmmaPathNeverWhereIllegal) {
    // 5850 kernels: the suite's NVRTC-every-kernel observer would spend tens of minutes here.
    // NVRTC for sm_80 and sm_90a runs on the TmaSweepPoint subset below (and, through the
    // observer, on every kernel they compile); bench/h200_tma_sweep.sh compiles all of them.
    struct NoObserver {
        ts::CompileObserver prev = ts::setCompileObserver(nullptr);
        ~NoObserver() { ts::setCompileObserver(prev); }
    } noObserver;
    const std::string copyText = ts::e2e::readRepoFile(kCopy), gemmText = ts::e2e::readRepoFile(kGemm);
    ASSERT_FALSE(copyText.empty());
    ASSERT_FALSE(gemmText.empty());
    int copyTma[3] = {0, 0, 0}, legalGemmFp8NoTma = 0, gemmFp16Tma = 0, points = 0;
    for (int di = 0; di < 3; ++di) {
        const Dt& d = kDtypes[di];
        for (int off = 0; off <= 8; ++off)
            for (int tail = 1; tail <= 130; ++tail) {
                const int64_t K = off + tail;
                ++points;
                // Copy kernel: A (32, K) -> 16x64 tiles.
                const bool pitchLegal = tensorMapLegal(K, 64, 16, d.bytes);
                const bool copyLegal = pitchLegal && startAligned(off, d.bytes);
                Decision c = decide(kCopy, copyText, params(off, tail, d));
                ASSERT_TRUE(c.ok) << d.name << " off=" << off << " tail=" << tail << "\n" << c.diag;
                EXPECT_TRUE(c.diag.empty()) << c.diag;
                const std::string at = std::string(d.name) + " off=" + std::to_string(off) + " tail=" + std::to_string(tail);
                EXPECT_EQ(c.tma, copyLegal) << "copy " << at << "\n" << c.notes;
                EXPECT_EQ(c.cpAsync, !copyLegal) << "copy " << at;
                EXPECT_NE(c.notes.find(copyLegal    ? "T.copy into 'A_shared' is loaded by TMA in the T.Pipelined schedule"
                                       : pitchLegal ? "T.copy into 'A_shared' keeps cp.async in the T.Pipelined schedule: the region of "
                                                      "'A' may start at a column that is not a multiple of"
                                                    : "T.copy into 'A_shared' keeps cp.async in the T.Pipelined schedule: rows of 'A' are not a "
                                                      "multiple of 16 bytes"),
                          std::string::npos)
                    << "copy " << at << "\n" << c.notes;
                copyTma[di] += c.tma;
                if (d.bytes == 4) continue;  // no int32 gemm
                // Gemm kernel: A (64, K) in 64x64 boxes, B (K, 64) in 64x64 boxes (N = 64 columns).
                const bool aLegal = tensorMapLegal(K, 64, 64, d.bytes) && startAligned(off, d.bytes);
                const bool gemmLegal = aLegal && tensorMapLegal(64, 64, 64, d.bytes);
                Decision g = decide(kGemm, gemmText, params(off, tail, d));
                ASSERT_TRUE(g.ok) << d.name << " off=" << off << " tail=" << tail << "\n" << g.diag;
                EXPECT_TRUE(g.diag.empty()) << g.diag;
                // Never TMA where illegal: A's copy is a TMA load only when A's pitch allows it.
                if (!aLegal) {
                    EXPECT_EQ(g.notes.find("T.copy into 'A_shared' is loaded by TMA"), std::string::npos)
                        << "TMA where illegal: gemm " << at << "\n" << g.notes;
                }
                if (d.bytes == 2) {
                    // Legal: the TMA + wgmma schedule, no cp.async. Else A (pitch not a multiple of
                    // 16 bytes) keeps cp.async and B (64 columns: 128-byte rows) is loaded by TMA.
                    EXPECT_TRUE(g.tma) << "gemm float16 " << at;
                    EXPECT_EQ(g.cpAsync, !gemmLegal) << "gemm float16 " << at;
                    if (!gemmLegal) {
                        EXPECT_NE(g.notes.find(tensorMapLegal(K, 64, 64, d.bytes)
                                                   ? "T.copy into 'A_shared' keeps cp.async in the T.Pipelined schedule: the region of 'A' may start"
                                                   : "T.copy into 'A_shared' keeps cp.async in the T.Pipelined schedule: rows of 'A'"),
                                  std::string::npos) << at << "\n" << g.notes;
                        EXPECT_NE(g.notes.find("T.copy into 'B_shared' is loaded by TMA in the T.Pipelined schedule"),
                                  std::string::npos) << at << "\n" << g.notes;
                    }
                    gemmFp16Tma += gemmLegal && g.tma && !g.cpAsync;
                } else {
                    EXPECT_FALSE(g.tma) << at;  // the mma.sync path's ldmatrix layouts: TMA does not write them
                    EXPECT_NE(g.notes.find("T.copy into 'A_shared' keeps cp.async in the T.Pipelined schedule: shared tile "
                                           "'A_shared' has a layout TMA cannot write"),
                              std::string::npos) << at << "\n" << g.notes;
                    legalGemmFp8NoTma += gemmLegal;
                }
            }
    }
    EXPECT_EQ(points, 3 * 9 * 130);
    // Legal points: pitch (off + tail) * bytes % 16 == 0 and off * bytes % 16 == 0, i.e. off
    // and K = off + tail multiples of m = 16 / bytes: over off 0..8 x tail 1..130 that is, for
    // each off that is a multiple of m, #{tail in 1..130 a multiple of m}.
    auto countMultiples = [](int m) {
        int n = 0;
        for (int off = 0; off <= 8; ++off)
            for (int tail = 1; tail <= 130; ++tail) n += off % m == 0 && (off + tail) % m == 0;
        return n;
    };
    EXPECT_EQ(gemmFp16Tma, countMultiples(8));
    // Pipelined copies on TMA exactly at the legal points.
    EXPECT_EQ(copyTma[0], countMultiples(4));   // int32
    EXPECT_EQ(copyTma[1], countMultiples(8));   // float16
    EXPECT_EQ(copyTma[2], countMultiples(16));  // float8_e4m3 (64-byte inner box: legal)
    // The documented gap: the fp8 gemm's TMA-legal copies keep cp.async (ldmatrix layouts).
    EXPECT_EQ(legalGemmFp8NoTma, countMultiples(16));
    std::printf("TMA sweep: %d points; fp16 gemm TMA at %d legal points; pipelined copy TMA: int32 %d, fp16 %d, fp8 %d; "
                "legal but cp.async: fp8 gemm %d\n",
                points, gemmFp16Tma, copyTma[0], copyTma[1], copyTma[2], legalGemmFp8NoTma);
}

// Plain copies: 2 x 3510 kernels (one copy per block; one per iteration of a T.serial loop).
TEST(TmaEligibilitySweep, PlainCopiesUseTmaExactlyWhereLegal) {
    struct NoObserver {
        ts::CompileObserver prev = ts::setCompileObserver(nullptr);
        ~NoObserver() { ts::setCompileObserver(prev); }
    } noObserver;
    const std::string text = ts::e2e::readRepoFile(kPlain);
    ASSERT_FALSE(text.empty());
    int tma[2][3] = {}, points = 0;
    for (int loop = 0; loop < 2; ++loop)
        for (int di = 0; di < 3; ++di) {
            const Dt& d = kDtypes[di];
            for (int off = 0; off <= 8; ++off)
                for (int tail = 1; tail <= 130; ++tail) {
                    ++points;
                    // A (32, off + tail) -> 16 x 64 tiles: box 64 columns x 16 rows.
                    const bool pitchLegal = tensorMapLegal(off + tail, 64, 16, d.bytes);
                    const bool legal = pitchLegal && startAligned(off, d.bytes);
                    Decision c = decide(kPlain, text, params(off, tail, d, loop));
                    const std::string at = std::string(d.name) + " loop=" + std::to_string(loop) + " off=" + std::to_string(off) +
                                           " tail=" + std::to_string(tail);
                    ASSERT_TRUE(c.ok) << at << "\n" << c.diag;
                    EXPECT_TRUE(c.diag.empty()) << at << ": " << c.diag;
                    ASSERT_EQ(c.tma, legal) << at << "\n" << c.notes;
                    EXPECT_FALSE(c.cpAsync) << at;
                    // The IDE shows the choice: a note at the copy either way, with the reason when not TMA.
                    if (legal)
                        EXPECT_NE(c.notes.find("T.copy into 'A_shared' uses TMA"), std::string::npos) << at << "\n" << c.notes;
                    else
                        EXPECT_NE(c.notes.find(pitchLegal ? "does not use TMA: the region of 'A' may start at a column that is not a multiple of"
                                                          : "does not use TMA: rows of 'A' are not a multiple of 16 bytes"),
                                  std::string::npos)
                            << at << "\n" << c.notes;
                    tma[loop][di] += c.tma;
                }
        }
    EXPECT_EQ(points, 2 * 3 * 9 * 130);
    auto countMultiples = [](int m) {  // off and off + tail multiples of m = 16 / bytes
        int n = 0;
        for (int off = 0; off <= 8; ++off)
            for (int tail = 1; tail <= 130; ++tail) n += off % m == 0 && (off + tail) % m == 0;
        return n;
    };
    for (int loop = 0; loop < 2; ++loop) {
        EXPECT_EQ(tma[loop][0], countMultiples(4));   // int32: pitch and start % 16 bytes
        EXPECT_EQ(tma[loop][1], countMultiples(8));   // float16
        EXPECT_EQ(tma[loop][2], countMultiples(16));  // float8_e4m3
    }
    std::printf("TMA plain-copy sweep: %d points; TMA at int32 %d, fp16 %d, fp8 %d (per loop variant)\n", points, tma[0][0],
                tma[0][1], tma[0][2]);
}

// The CUDA of one legal plain copy in a loop: its own mbarrier (init once, before a barrier),
// fence.proxy.async and a barrier before the elected expect_tx + TMA issue, every thread waits on
// parity k % 2 (here k: two trips); under an `if` in the loop a phase register flipped after
// each wait; sm_80's CUDA of the same kernel has none of it.
TEST(TmaPlainCopy, LoweringShape) {
    const std::string text = ts::e2e::readRepoFile(kPlain);
    ts::CompileOptions opts;
    opts.params = params(8, 72, kDtypes[1], 1);
    opts.target = "cuda:sm_90a";
    opts.recordSnapshots = false;
    ts::CompileResult r = ts::compile(kPlain, text, opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const std::string& cu = r.cuda;
    auto at = [&](const std::string& s) { return cu.find(s); };
    const size_t init = at("ts::mbarrier_init_n(&tma_copy_bar_0[0], 1);"), loop = at("for (int k = 0; k < 2; ++k)"),
                 fence = at("ts::fence_proxy_async();"), expect = at("ts::mbarrier_arrive_expect_tx(&tma_copy_bar_0[0], 2048);"),
                 load = at("if (threadIdx.x == 0) ts::tma_load_tile<1, 64, 16>(&tma_map_0, &A_shared[0], &tma_copy_bar_0[0], ((k * 64) + 8), (by * 16));"),
                 wait = at("ts::mbarrier_wait(&tma_copy_bar_0[0], k);");
    for (size_t p : {init, loop, fence, expect, load, wait}) ASSERT_NE(p, std::string::npos) << cu;
    EXPECT_LT(init, loop);
    EXPECT_LT(loop, fence);
    EXPECT_LT(fence, expect);
    EXPECT_LT(expect, load);
    EXPECT_LT(load, wait);
    EXPECT_NE(cu.substr(fence, expect - fence).find("__syncthreads();"), std::string::npos);
    EXPECT_EQ(cu.find("tma_copy_phase"), std::string::npos);
    // A's load map, then Out's: T.copy(A_shared, Out[...]) is a TMA store (144-byte rows).
    ASSERT_EQ(r.kernel.tensorMaps.size(), 2u);
    EXPECT_EQ(r.kernel.tensorMaps[0].tensor, 0);
    EXPECT_EQ(r.kernel.tensorMaps[0].boxInner, 64);
    EXPECT_EQ(r.kernel.tensorMaps[0].boxOuter, 16);
    EXPECT_EQ(r.kernel.tensorMaps[0].swizzleBytes, 0);
    EXPECT_EQ(r.kernel.tensorMaps[1].tensor, 1);
    EXPECT_LT(wait, cu.find("ts::tma_store_tile<1, 64, 16>(&tma_map_1, &A_shared[0], (k * 64), (by * 16));"));
    // Under a data-dependent `if` in the loop: a phase register, flipped after each wait.
    opts.params = params(8, 72, kDtypes[1], 2);
    ts::CompileResult r2 = ts::compile(kPlain, text, opts);
    ASSERT_TRUE(r2.ok) << ts::e2e::diagText(r2);
    const size_t w2 = r2.cuda.find("ts::mbarrier_wait(&tma_copy_bar_0[0], tma_copy_phase_1[0]);"),
                 f2 = r2.cuda.find("tma_copy_phase_1[0] = (1 - tma_copy_phase_1[0]);"), i2 = r2.cuda.find("tma_copy_phase_1[0] = 0;");
    ASSERT_NE(w2, std::string::npos) << r2.cuda;
    ASSERT_NE(f2, std::string::npos) << r2.cuda;
    ASSERT_NE(i2, std::string::npos) << r2.cuda;
    EXPECT_LT(i2, w2);
    EXPECT_LT(w2, f2);
    // Outside a loop the parity is the constant 0 and there is no phase register.
    opts.params = params(8, 72, kDtypes[1], 0);
    ts::CompileResult r0 = ts::compile(kPlain, text, opts);
    ASSERT_TRUE(r0.ok);
    EXPECT_NE(r0.cuda.find("ts::mbarrier_wait(&tma_copy_bar_0[0], 0);"), std::string::npos) << r0.cuda;
    EXPECT_EQ(r0.cuda.find("tma_copy_phase"), std::string::npos);
    // sm_80: no TMA, no note.
    opts.target = "cuda:sm_80";
    ts::CompileResult r80 = ts::compile(kPlain, text, opts);
    ASSERT_TRUE(r80.ok);
    EXPECT_EQ(r80.cuda.find("tma_load"), std::string::npos);
    EXPECT_EQ(r80.cuda.find("tma_map"), std::string::npos);
    EXPECT_EQ(r80.cuda.find("mbarrier"), std::string::npos);
    for (auto& d : r80.diagnostics) EXPECT_NE(d.origin, "lower-tile-ops") << d.message;
}

// Both interpreters against float64 at the corners of the sweep (start offsets that break every
// vector width, tails below, at and above one and two tiles), and NVRTC for sm_80 and sm_90a.
struct Point {
    const char* file;
    int off, tail, dt;
    int loop = -1;  ///< tma_plain_copy.py's loop parameter
};
class TmaSweepPoint : public ::testing::TestWithParam<Point> {};

TEST_P(TmaSweepPoint, InterpretersMatchFloat64AndNvrtcCompiles) {
    const Point& p = GetParam();
    const std::string text = ts::e2e::readRepoFile(p.file);
    const auto ps = params(p.off, p.tail, kDtypes[p.dt], p.loop);
    for (const char* target : {"cuda:sm_90a", "cuda:sm_80"}) {
        ts::CompileOptions opts;
        opts.params = ps;
        opts.target = target;
        opts.recordSnapshots = false;
        ts::CompileResult r = ts::compile(p.file, text, opts);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        auto ci = ts::e2e::makeCheckedInputs(r);
        ASSERT_TRUE(ci.ref.ok);
        std::vector<ts::HostTensor> results[2];
        // A copy is exact; the gemm's float16/fp8 products summed in float32 stay within the
        // float64-reference rule.
        ts::rt::CompareOptions co;
        if (std::string(p.file) != kGemm) co.relL2Tolerance = 1e-300;
        ts::e2e::expectBothInterpretersMatchReference(r, ci, co, std::string(target) + " " + p.file, results);
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(p.file, ps);
}

std::vector<Point> points() {
    std::vector<Point> out;
    for (int dt = 0; dt < 3; ++dt)
        for (int off : {0, 3, 8})
            for (int tail : {1, 63, 64, 65, 130}) {
                out.push_back({kCopy, off, tail, dt});
                if (dt > 0) out.push_back({kGemm, off, tail, dt});
                for (int loop : {0, 1}) out.push_back({kPlain, off, tail, dt, loop});
            }
    // Legal plain copies whose last tile runs past the row (TMA's zero fill stands in for the
    // guard): float16 K = 72 and 80, int32 K = 128, float8_e4m3 K = 128.
    for (Point p : {Point{kPlain, 0, 72, 1}, Point{kPlain, 8, 72, 1}, Point{kPlain, 4, 124, 0}, Point{kPlain, 8, 120, 2}})
        for (int loop : {0, 1, 2}) out.push_back({p.file, p.off, p.tail, p.dt, loop});
    return out;
}

INSTANTIATE_TEST_SUITE_P(E2E, TmaSweepPoint, ::testing::ValuesIn(points()));

}  // namespace
