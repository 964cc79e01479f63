// Interpreter: T.gemm and tiled GEMM kernels (the GEMM sample's structure: clear, Pipelined K
// loop of copies + gemm, epilogue copy) against float64 references computed here from the same
// rounded inputs. Non-divisible M/N/K exercise the zero-filled out-of-bounds copy lanes and the
// unwritten out-of-bounds output lanes. Tolerances: fp16 outputs carry one fp16 rounding
// (relative 2^-11), so rel-L2 < 1e-3; float32 outputs carry float32 accumulation per K tile.
#include <chrono>
#include <ctime>

#include "tests/unit/InterpTestUtil.h"

using namespace interp_test;
using ts::roundTo;
using ts::Span;

namespace {

struct GemmCfg {
    int64_t M, N, K, bm, bn, bk;
    bool ta = false, tb = false;
    DType in = DType::Float16, acc = DType::Float32, out = DType::Float16;
    int64_t stages = 3;
    bool stagedA =
        false;  ///< A_s is (2, bm, bk), indexed by k % 2 (multi-buffered), A via a fragment
};

int64_t ceildiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// T.Kernel(ceildiv(N,bn), ceildiv(M,bm)) as (bx, by): clear(C_l); for k in Pipelined: copy A,B
/// tiles; gemm; then copy(C_l, C[by*bm, bx*bn]).
PrimFunc tiledGemm(const GemmCfg& c) {
    Buffer A = c.ta ? buffer("A", {c.K, c.M}, c.in) : buffer("A", {c.M, c.K}, c.in);
    Buffer B = c.tb ? buffer("B", {c.N, c.K}, c.in) : buffer("B", {c.K, c.N}, c.in);
    Buffer C = buffer("C", {c.M, c.N}, c.out);
    Var bx = blockVar("bx", 0), by = blockVar("by", 1), k = makeVar("k");
    Buffer As = c.ta ? shared("A_s", {c.bk, c.bm}, c.in) : shared("A_s", {c.bm, c.bk}, c.in);
    Buffer Bs = c.tb ? shared("B_s", {c.bn, c.bk}, c.in) : shared("B_s", {c.bk, c.bn}, c.in);
    Buffer Cl = fragment("C_l", {c.bm, c.bn}, c.acc);
    Expr m0 = mul(by, ci(c.bm)), n0 = mul(bx, ci(c.bn)), k0 = mul(k, ci(c.bk));
    Region aTile = c.ta ? region(A, {{k0, c.bk}, {m0, c.bm}}) : region(A, {{m0, c.bm}, {k0, c.bk}});
    Region bTile = c.tb ? region(B, {{n0, c.bn}, {k0, c.bk}}) : region(B, {{k0, c.bk}, {n0, c.bn}});
    std::vector<Stmt> loop;
    std::vector<Stmt> body{alloc(Bs), alloc(Cl)};
    Region aOperand = whole(As);
    if (c.stagedA) {
        Buffer As2 = shared("A_s2", {2, c.bm, c.bk}, c.in);
        Buffer Af = fragment("A_f", {c.bm, c.bk}, c.in);
        body.push_back(alloc(As2));
        body.push_back(alloc(Af));
        Region stage = region(As2, {{floormod(k, ci(2)), 1}, {ci(0), c.bm}, {ci(0), c.bk}});
        loop.push_back(copy(aTile, stage));
        loop.push_back(copy(stage, whole(Af)));
        aOperand = whole(Af);
    } else {
        body.push_back(alloc(As));
        loop.push_back(copy(aTile, whole(As)));
    }
    loop.push_back(copy(bTile, whole(Bs)));
    loop.push_back(gemm(aOperand, whole(Bs), whole(Cl), c.ta, c.tb));
    body.push_back(clear(Cl));
    body.push_back(forLoop(k, ci(0), ci(ceildiv(c.K, c.bk)), ForKind::Pipelined, seq(loop),
                           {{"num_stages", c.stages}}));
    body.push_back(copy(whole(Cl), region(C, {{m0, c.bm}, {n0, c.bn}})));
    return func("matmul", {A, B, C},
                kernel({ci(ceildiv(c.N, c.bn)), ci(ceildiv(c.M, c.bm))}, {bx, by}, seq(body)));
}

/// float64 C = op(A) op(B) from the tensors' (already rounded) values.
std::vector<double> reference(const GemmCfg& c, const HostTensor& A, const HostTensor& B) {
    std::vector<double> C(static_cast<size_t>(c.M * c.N), 0.0);
    for (int64_t i = 0; i < c.M; ++i)
        for (int64_t j = 0; j < c.N; ++j) {
            double s = 0;
            for (int64_t k = 0; k < c.K; ++k)
                s += A.data[c.ta ? k * c.M + i : i * c.K + k] *
                     B.data[c.tb ? j * c.K + k : k * c.N + j];
            C[i * c.N + j] = s;
        }
    return C;
}

struct GemmRun {
    std::vector<double> got, ref;
    double seconds;     ///< wall time of run()
    double cpuSeconds;  ///< process CPU time of run() (robust on a loaded machine)
};

GemmRun runGemm(const GemmCfg& c) {
    std::vector<HostTensor> args{
        randomTensor(c.in, c.ta ? std::vector<int64_t>{c.K, c.M} : std::vector<int64_t>{c.M, c.K},
                     1),
        randomTensor(c.in, c.tb ? std::vector<int64_t>{c.N, c.K} : std::vector<int64_t>{c.K, c.N},
                     2),
        filledTensor(c.out, {c.M, c.N}, std::nan(""))};
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    auto r = ts::interp::run(tiledGemm(c), args);
    double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_TRUE(r.ok) << (r.error ? r.error->message : "");
    EXPECT_EQ(r.blocksRun, ceildiv(c.M, c.bm) * ceildiv(c.N, c.bn));
    return {args[2].data, reference(c, args[0], args[1]), secs, cpu};
}

void expectClose(const GemmRun& g, double relL2Max, double elemRel) {
    for (size_t i = 0; i < g.got.size(); ++i) {
        ASSERT_TRUE(std::isfinite(g.got[i])) << "output element " << i << " not written";
        ASSERT_LE(std::fabs(g.got[i] - g.ref[i]), elemRel * std::fabs(g.ref[i]) + 1e-6)
            << "element " << i;
    }
    EXPECT_LT(relL2(g.got, g.ref), relL2Max);
}

}  // namespace

TEST(InterpGemm, TiledNonDivisibleFp16) {
    GemmCfg c{50, 70, 90, 32, 32, 16};
    auto g = runGemm(c);
    // One fp16 rounding of a float32-accumulated value: |err| <= 2^-11 |ref| (+ f32 noise).
    expectClose(g, 1e-3, 5.0e-4);
}

TEST(InterpGemm, TiledNonDivisibleFloat32Output) {
    GemmCfg c{50, 70, 90, 32, 32, 16};
    c.out = DType::Float32;
    auto g = runGemm(c);
    expectClose(g, 1e-6, 1e-5);  // only float32 rounding once per K tile (6 tiles)
}

TEST(InterpGemm, TransposedOperands) {
    GemmCfg c{50, 70, 90, 32, 32, 16};
    c.ta = c.tb = true;
    c.out = DType::Float32;
    auto g = runGemm(c);
    expectClose(g, 1e-6, 1e-5);
}

TEST(InterpGemm, MultiBufferedStageRegionAndFragmentA) {
    GemmCfg c{40, 24, 72, 16, 16, 16};
    c.stagedA = true;
    c.out = DType::Float32;
    auto g = runGemm(c);
    expectClose(g, 1e-6, 1e-5);
}

TEST(InterpGemm, Bf16InputsFloatOutput) {
    GemmCfg c{33, 17, 65, 16, 16, 32};
    c.in = DType::BFloat16;
    c.out = DType::Float32;
    auto g = runGemm(c);
    expectClose(g, 1e-6, 1e-5);
}

TEST(InterpGemm, Performance256Cubed) {
    GemmCfg c{256, 256, 256, 128, 128, 32};
    c.out = DType::Float32;
    auto g = runGemm(c);
    expectClose(g, 1e-6, 1e-4);
    RecordProperty("seconds", std::to_string(g.seconds));
    RecordProperty("cpu_seconds", std::to_string(g.cpuSeconds));
    EXPECT_LT(g.cpuSeconds, 1.0);  // typically ~0.03 s (RelWithDebInfo)
}

TEST(InterpGemm, HandComputedAccumulateAndClear) {
    Buffer A = buffer("A", {2, 2}, DType::Float32), B = buffer("B", {2, 2}, DType::Float32);
    Buffer C = buffer("C", {2, 2}, DType::Float32), D = buffer("D", {2, 2}, DType::Float32);
    Buffer Af = fragment("A_f", {2, 2}, DType::Float32), Bs = shared("B_s", {2, 2}, DType::Float32);
    Buffer Cf = fragment("C_f", {2, 2}, DType::Float32);
    Stmt body =
        seq({alloc(Af), alloc(Bs), alloc(Cf), copy(whole(A), whole(Af)), copy(whole(B), whole(Bs)),
             copy(whole(C), whole(Cf)), gemm(whole(Af), whole(Bs), whole(Cf)),
             copy(whole(Cf), whole(C)), gemm(whole(Af), whole(Bs), whole(Cf), false, false, true),
             copy(whole(Cf), whole(D))});
    std::vector<HostTensor> args{ts::makeHostTensor(DType::Float32, {2, 2}, {1, 2, 3, 4}),
                                 ts::makeHostTensor(DType::Float32, {2, 2}, {5, 6, 7, 8}),
                                 filledTensor(DType::Float32, {2, 2}, 1.0),
                                 filledTensor(DType::Float32, {2, 2}, 0.0)};
    auto r =
        ts::interp::run(func("g", {A, B, C, D}, kernel({ci(1)}, {blockVar("bx", 0)}, body)), args);
    ASSERT_INTERP_OK(r);
    EXPECT_EQ(args[2].data, (std::vector<double>{20, 23, 44, 51}));  // 1 + [[19,22],[43,50]]
    EXPECT_EQ(args[3].data, (std::vector<double>{19, 22, 43, 50}));  // clear_accum=True
}

TEST(InterpGemm, RoundsOncePerGemmOp) {
    // fp16 accumulator: 2048 + 1 + 1 summed in double is 2050 (representable); rounding after
    // every product would give 2048 (2049 ties to even).
    Buffer A = buffer("A", {1, 3}, DType::Float16), B = buffer("B", {3, 1}, DType::Float16);
    Buffer C = buffer("C", {1, 1}, DType::Float16);
    Buffer Cf = fragment("C_f", {1, 1}, DType::Float16);
    Stmt body =
        seq({alloc(Cf), clear(Cf), gemm(whole(A), whole(B), whole(Cf)), copy(whole(Cf), whole(C))});
    std::vector<HostTensor> args{ts::makeHostTensor(DType::Float16, {1, 3}, {1, 1, 1}),
                                 ts::makeHostTensor(DType::Float16, {3, 1}, {2048, 1, 1}),
                                 filledTensor(DType::Float16, {1, 1}, 0)};
    auto r =
        ts::interp::run(func("g", {A, B, C}, kernel({ci(1)}, {blockVar("bx", 0)}, body)), args);
    ASSERT_INTERP_OK(r);
    EXPECT_EQ(args[2].data[0], 2050.0);
}

TEST(InterpGemm, ShapeMismatchIsDiagnosed) {
    Buffer A = buffer("A", {4, 8}, DType::Float32), B = buffer("B", {4, 8}, DType::Float32);
    Buffer Cf = fragment("C_f", {4, 8}, DType::Float32);
    Span sp{7, 5, 7, 30};
    Stmt g = tileOp(TileOpKind::Gemm, {whole(A), whole(B), whole(Cf)}, {}, sp);
    std::vector<HostTensor> args{filledTensor(DType::Float32, {4, 8}, 1),
                                 filledTensor(DType::Float32, {4, 8}, 1)};
    auto r = ts::interp::run(
        func("g", {A, B}, kernel({ci(1)}, {blockVar("bx", 0)}, seq({alloc(Cf), g}))), args);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error->message.find("op(A) is (4, 8), op(B) is (4, 8)"), std::string::npos)
        << r.error->message;
    EXPECT_EQ(r.error->span, sp);
}
