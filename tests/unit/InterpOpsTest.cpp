// Interpreter: element-wise code and the non-gemm tile ops against float64 references computed
// here. Where the interpreter's arithmetic is "double, rounded once at the store" the reference
// does the same arithmetic and the comparison is exact; the softmax (exp2 + float32 fragments
// + fp16 output) uses rel-L2 < 1e-3, the fp16 output rounding being 2^-11 relative.
#include <limits>

#include "compiler/interp/Machine.h"
#include "tests/unit/InterpTestUtil.h"

using namespace interp_test;
using ts::roundTo;

namespace {
const DType F16 = DType::Float16, F32 = DType::Float32, I32 = DType::Int32;

/// One-block kernel around `body`.
PrimFunc oneBlock(std::vector<Buffer> params, std::vector<Stmt> body) {
    return func("k", std::move(params), kernel({ci(1)}, {blockVar("bx", 0)}, seq(std::move(body))));
}
/// for i in T.Parallel(n): body(i)
Stmt par(Var v, int64_t n, Stmt body) {
    return forLoop(v, ci(0), ci(n), ForKind::Parallel, std::move(body));
}
}  // namespace

TEST(InterpOps, RowSoftmaxWithReduceMaxSumExp2) {
    const int64_t M = 60, N = 100, bm = 16;  // 60 rows: the last block's copy reads 4 rows of zeros
    Buffer X = buffer("X", {M, N}, F16), Y = buffer("Y", {M, N}, F16);
    Buffer Xf = fragment("X_f", {bm, N}, F32), mx = fragment("m", {bm}, F32),
           sm = fragment("s", {bm}, F32);
    Var bx = blockVar("bx", 0), i = makeVar("i"), j = makeVar("j");
    Expr row0 = mul(bx, ci(bm));
    Expr e = call("exp2", {mul(sub(load(Xf, {i, j}), load(mx, {i})), floatImm(1.4426950408889634))},
                  F32);
    Stmt body =
        seq({alloc(Xf), alloc(mx), alloc(sm), copy(region(X, {{row0, bm}, {ci(0), N}}), whole(Xf)),
             reduce("max", whole(Xf), whole(mx), 1), par(i, bm, par(j, N, store(Xf, {i, j}, e))),
             reduce("sum", whole(Xf), whole(sm), -1),
             par(i, bm,
                 par(j, N, store(Xf, {i, j}, binary(BinOp::Div, load(Xf, {i, j}), load(sm, {i}))))),
             copy(whole(Xf), region(Y, {{row0, bm}, {ci(0), N}}))});
    std::vector<HostTensor> args{randomTensor(F16, {M, N}, 7, -4.0, 4.0),
                                 filledTensor(F16, {M, N}, std::nan(""))};
    auto r =
        ts::interp::run(func("softmax", {X, Y}, kernel({ci((M + bm - 1) / bm)}, {bx}, body)), args);
    ASSERT_INTERP_OK(r);
    EXPECT_EQ(r.blocksRun, 4);
    std::vector<double> ref(static_cast<size_t>(M * N));
    for (int64_t a = 0; a < M; ++a) {
        double mxv = -INFINITY, s = 0;
        for (int64_t b = 0; b < N; ++b) mxv = std::max(mxv, args[0].data[a * N + b]);
        for (int64_t b = 0; b < N; ++b) s += std::exp(args[0].data[a * N + b] - mxv);
        for (int64_t b = 0; b < N; ++b)
            ref[a * N + b] = std::exp(args[0].data[a * N + b] - mxv) / s;
    }
    for (size_t k = 0; k < ref.size(); ++k)
        ASSERT_NEAR(args[1].data[k], ref[k], 5e-4 * ref[k] + 1e-7) << k;
    EXPECT_LT(relL2(args[1].data, ref), 1e-3);
}

TEST(InterpOps, ElementwiseAddWithParallelAndGuard) {
    const int64_t M = 100, N = 33, b = 32;
    Buffer A = buffer("A", {M, N}, F32), B = buffer("B", {M, N}, F32);
    Buffer C = buffer("C", {M, N}, F32), D = buffer("D", {M, N}, F16);
    Var bx = blockVar("bx", 0), by = blockVar("by", 1), i = makeVar("i"), j = makeVar("j");
    Expr r = add(mul(by, ci(b)), i), c = add(mul(bx, ci(b)), j);
    Stmt inner =
        ifThen(logicalAnd(lt(r, ci(M)), lt(c, ci(N))),
               seq({store(C, {r, c}, add(load(A, {r, c}), load(B, {r, c}))),
                    store(D, {r, c}, add(mul(load(A, {r, c}), load(B, {r, c})), floatImm(1.0)))}));
    Stmt body = par(i, b, forLoop(j, ci(0), ci(b), ForKind::Vectorized, inner));
    std::vector<HostTensor> args{randomTensor(F32, {M, N}, 3), randomTensor(F32, {M, N}, 4),
                                 filledTensor(F32, {M, N}, std::nan("")),
                                 filledTensor(F16, {M, N}, std::nan(""))};
    auto res =
        ts::interp::run(func("add", {A, B, C, D}, kernel({ci(2), ci(4)}, {bx, by}, body)), args);
    ASSERT_INTERP_OK(res);
    EXPECT_EQ(res.blocksRun, 8);
    for (int64_t k = 0; k < M * N; ++k) {
        double a = args[0].data[k], bb = args[1].data[k];
        ASSERT_EQ(args[2].data[k], roundTo(F32, a + bb)) << k;
        // float32 ops round after each step (as the generated CUDA), then the store to float16.
        ASSERT_EQ(args[3].data[k], roundTo(F16, roundTo(F32, roundTo(F32, a * bb) + 1.0))) << k;
    }
}

TEST(InterpOps, CopyOutOfBoundsSourceReadsZeroDestinationNotWritten) {
    Buffer A = buffer("A", {5, 7}, F32), O1 = buffer("O1", {4, 4}, F32),
           B = buffer("B", {5, 7}, F32);
    Buffer O2 = buffer("O2", {4, 4}, F32), O3 = buffer("O3", {7}, F16);
    Buffer T = shared("T", {4, 4}, F32), T2 = fragment("T2", {4, 4}, F32),
           V = buffer("V", {7}, F32, Scope::Local);
    Stmt body =
        seq({alloc(T), alloc(T2), alloc(V), copy(region(A, {{ci(3), 4}, {ci(5), 4}}), whole(T)),
             copy(whole(T), whole(O1)), copy(whole(T), region(B, {{ci(-1), 4}, {ci(4), 4}})),
             copy(region(A, {{ci(-2), 4}, {ci(-1), 4}}), whole(T2)), copy(whole(T2), whole(O2)),
             copy(region(A, {{ci(2), 1}, {ci(0), 7}}), whole(V)), copy(whole(V), whole(O3))});
    std::vector<double> av(35);
    for (int k = 0; k < 35; ++k) av[k] = k + 0.1;
    std::vector<HostTensor> args{ts::makeHostTensor(F32, {5, 7}, av), filledTensor(F32, {4, 4}, -9),
                                 filledTensor(F32, {5, 7}, -1), filledTensor(F32, {4, 4}, -9),
                                 filledTensor(F16, {7}, -9)};
    ASSERT_INTERP_OK(ts::interp::run(oneBlock({A, O1, B, O2, O3}, {body}), args));
    auto a = [&](int64_t r, int64_t c) {
        return r >= 0 && r < 5 && c >= 0 && c < 7 ? args[0].data[r * 7 + c] : 0.0;
    };
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) {
            EXPECT_EQ(args[1].data[r * 4 + c], a(3 + r, 5 + c)) << r << "," << c;
            EXPECT_EQ(args[3].data[r * 4 + c], a(r - 2, c - 1)) << r << "," << c;
        }
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 7; ++c) {  // B[r, c] = T[r + 1, c - 4] where that is inside T
            bool written = r + 1 < 4 && c >= 4;
            EXPECT_EQ(args[2].data[r * 7 + c], written ? a(3 + r + 1, 5 + c - 4) : -1.0)
                << r << "," << c;
        }
    for (int c = 0; c < 7; ++c)
        EXPECT_EQ(args[4].data[c], roundTo(F16, roundTo(F32, 14 + c + 0.1)));
}

TEST(InterpOps, ReduceAllOpsWithClearFalse) {
    const int64_t R = 4, C = 6;
    Buffer S = buffer("S", {R, C}, F32), Sf = fragment("S_f", {R, C}, F32);
    Buffer P = buffer("P", {R}, F32), Q = buffer("Q", {C}, F32);  // initial values for clear=False
    Buffer O[5] = {buffer("sum", {R}, F32), buffer("max", {C}, F32), buffer("absmax", {R}, F32),
                   buffer("abssum", {R}, F32), buffer("min", {C}, F32)};
    Buffer Fr = fragment("r", {R}, F32), Fc = fragment("c", {C}, F32);
    std::vector<Stmt> body{alloc(Sf),
                           alloc(Fr),
                           alloc(Fc),
                           copy(whole(S), whole(Sf)),
                           copy(whole(P), whole(Fr)),
                           reduce("sum", whole(Sf), whole(Fr), 1, false),
                           copy(whole(Fr), whole(O[0])),
                           copy(whole(Q), whole(Fc)),
                           reduce("max", whole(Sf), whole(Fc), 0, false),
                           copy(whole(Fc), whole(O[1])),
                           reduce("absmax", whole(Sf), whole(Fr), -1),
                           copy(whole(Fr), whole(O[2])),
                           reduce("abssum", whole(Sf), whole(Fr), 1),
                           copy(whole(Fr), whole(O[3])),
                           reduce("min", whole(Sf), whole(Fc), -2),
                           copy(whole(Fc), whole(O[4]))};
    std::vector<HostTensor> args{randomTensor(F32, {R, C}, 11, -3, 3),
                                 randomTensor(F32, {R}, 12, -3, 3),
                                 ts::makeHostTensor(F32, {C}, {5, -5, 5, -5, 5, -5})};
    for (auto& o : O)
        args.push_back(filledTensor(F32, {o == O[1] || o == O[4] ? C : R}, std::nan("")));
    ASSERT_INTERP_OK(
        ts::interp::run(oneBlock({S, P, Q, O[0], O[1], O[2], O[3], O[4]}, body), args));
    auto s = [&](int64_t r, int64_t c) { return args[0].data[r * C + c]; };
    for (int64_t r = 0; r < R; ++r) {
        double sum = 0, amax = 0, asum = 0;
        for (int64_t c = 0; c < C; ++c)
            sum += s(r, c), amax = std::max(amax, std::fabs(s(r, c))), asum += std::fabs(s(r, c));
        EXPECT_EQ(args[3].data[r], roundTo(F32, args[1].data[r] + sum));
        EXPECT_EQ(args[5].data[r], amax);
        EXPECT_EQ(args[6].data[r], roundTo(F32, asum));
    }
    for (int64_t c = 0; c < C; ++c) {
        double mx = -INFINITY, mn = INFINITY;
        for (int64_t r = 0; r < R; ++r) mx = std::max(mx, s(r, c)), mn = std::min(mn, s(r, c));
        EXPECT_EQ(args[4].data[c],
                  std::max(mx, args[2].data[c]));  // clear=False: max with the old value
        EXPECT_EQ(args[7].data[c], mn);
    }
}

TEST(InterpOps, CumsumForwardReverseAndInPlace) {
    const int64_t R = 3, C = 5;
    Buffer X = buffer("X", {R, C}, F32), Y1 = buffer("Y1", {R, C}, F32),
           Y2 = buffer("Y2", {R, C}, F32);
    Buffer Y3 = buffer("Y3", {R, C}, F16), Xf = fragment("X_f", {R, C}, F32),
           Yf = fragment("Y_f", {R, C}, F32);
    std::vector<Stmt> body{
        alloc(Xf),
        alloc(Yf),
        copy(whole(X), whole(Xf)),
        tileOp(TileOpKind::Cumsum, {whole(Xf), whole(Yf)},
               {{"dim", int64_t(1)}, {"reverse", true}}),
        copy(whole(Yf), whole(Y1)),
        tileOp(TileOpKind::Cumsum, {whole(Xf), whole(Yf)}, {{"dim", int64_t(0)}}),
        copy(whole(Yf), whole(Y2)),
        tileOp(TileOpKind::Cumsum, {whole(Xf)}, {{"dim", int64_t(-1)}}),
        copy(whole(Xf), whole(Y3))};
    std::vector<HostTensor> args{randomTensor(F32, {R, C}, 5), filledTensor(F32, {R, C}, 0),
                                 filledTensor(F32, {R, C}, 0), filledTensor(F16, {R, C}, 0)};
    ASSERT_INTERP_OK(ts::interp::run(oneBlock({X, Y1, Y2, Y3}, body), args));
    auto x = [&](int64_t r, int64_t c) { return args[0].data[r * C + c]; };
    for (int64_t r = 0; r < R; ++r)
        for (int64_t c = 0; c < C; ++c) {
            double rev = 0, down = 0, fwd = 0;
            for (int64_t k = C - 1; k >= c; --k) rev += x(r, k);
            for (int64_t k = 0; k <= r; ++k) down += x(k, c);
            for (int64_t k = 0; k <= c; ++k) fwd += x(r, k);
            EXPECT_EQ(args[1].data[r * C + c], roundTo(F32, rev));
            EXPECT_EQ(args[2].data[r * C + c], roundTo(F32, down));
            EXPECT_EQ(args[3].data[r * C + c], roundTo(F16, roundTo(F32, fwd)));
        }
}

TEST(InterpOps, AtomicTileAndScalarAcrossBlocks) {
    Buffer X = buffer("X", {8, 8}, F32), C = buffer("C", {8, 8}, F32), H = buffer("H", {8, 8}, F16);
    Buffer Mx = buffer("Mx", {1}, F32), Mn = buffer("Mn", {1}, F32),
           Xf = fragment("X_f", {8, 8}, F32);
    Var bx = blockVar("bx", 0);
    Expr v = mul(cast(F32, bx), floatImm(1.5));
    Stmt body =
        seq({alloc(Xf), copy(whole(X), whole(Xf)),
             tileOp(TileOpKind::Atomic, {whole(C), whole(Xf)}, {{"op", std::string("add")}}),
             tileOp(TileOpKind::Atomic, {whole(H), whole(Xf)}, {{"op", std::string("add")}}),
             tileOp(TileOpKind::Atomic, {whole(Mx), v}, {{"op", std::string("max")}}),
             tileOp(TileOpKind::Atomic, {whole(Mn), v}, {{"op", std::string("min")}})});
    std::vector<HostTensor> args{randomTensor(F32, {8, 8}, 9), filledTensor(F32, {8, 8}, 0),
                                 filledTensor(F16, {8, 8}, 0), filledTensor(F32, {1}, -100),
                                 filledTensor(F32, {1}, 100)};
    auto r = ts::interp::run(func("atomics", {X, C, H, Mx, Mn}, kernel({ci(3)}, {bx}, body)), args);
    ASSERT_INTERP_OK(r);
    for (int k = 0; k < 64; ++k) {
        double x = args[0].data[k], c = 0, h = 0;
        for (int b = 0; b < 3; ++b) c = roundTo(F32, c + x), h = roundTo(F16, h + roundTo(F16, x));
        EXPECT_EQ(args[1].data[k], c);
        EXPECT_EQ(args[2].data[k], h);
    }
    EXPECT_EQ(args[3].data[0], 3.0);
    EXPECT_EQ(args[4].data[0], 0.0);
}

TEST(InterpOps, FillConvertsToBufferDtype) {
    Buffer H = buffer("H", {4, 4}, F16), I = buffer("I", {3}, DType::Int8);
    Stmt body = seq({tileOp(TileOpKind::Fill, {region(H, {{ci(1), 2}, {ci(0), 4}}), floatImm(0.1)}),
                     tileOp(TileOpKind::Fill, {whole(I), ci(300)})});
    std::vector<HostTensor> args{filledTensor(F16, {4, 4}, 7), filledTensor(DType::Int8, {3}, 0)};
    ASSERT_INTERP_OK(ts::interp::run(oneBlock({H, I}, {body}), args));
    for (int k = 0; k < 16; ++k)
        EXPECT_EQ(args[0].data[k], k >= 4 && k < 12 ? roundTo(F16, 0.1) : 7.0) << k;
    EXPECT_EQ(args[1].data, (std::vector<double>{44, 44, 44}));  // 300 wraps to 44 in int8
}

TEST(InterpOps, IntegerSemanticsFloorDivModTruncCast) {
    Buffer In = buffer("In", {4}, I32), F = buffer("F", {1}, F32), O = buffer("O", {11}, I32);
    auto at = [&](int k) { return load(In, {ci(k)}); };
    std::vector<Expr> vals{floordiv(at(0), at(1)),
                           floormod(at(0), at(1)),
                           binary(BinOp::Div, at(0), at(1)),
                           floordiv(at(2), at(3)),
                           floormod(at(2), at(3)),
                           binary(BinOp::Min, at(0), at(3)),
                           binary(BinOp::Shl, at(2), at(1)),
                           cast(I32, load(F, {ci(0)})),
                           cast(DType::Int8, mul(at(2), ci(43))),
                           select(lt(at(0), at(2)), at(1), at(3)),
                           binary(BinOp::Pow, at(3), ci(3))};
    std::vector<Stmt> body;
    for (size_t k = 0; k < vals.size(); ++k) body.push_back(store(O, {ci(int64_t(k))}, vals[k]));
    std::vector<HostTensor> args{ts::makeHostTensor(I32, {4}, {-7, 2, 7, -2}),
                                 ts::makeHostTensor(F32, {1}, {-2.75}), filledTensor(I32, {11}, 0)};
    ASSERT_INTERP_OK(ts::interp::run(oneBlock({In, F, O}, body), args));
    // -7//2, -7%2, trunc(-7/2), 7//-2, 7%-2, min, 7<<2, int(-2.75), int8(301), select, (-2)**3
    EXPECT_EQ(args[2].data, (std::vector<double>{-4, 1, -3, -4, -1, -7, 28, -2, 45, 2, -8}));
}

TEST(InterpOps, MathCallsSelectAndPrint) {
    const char* fns[] = {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sigmoid", "tanh", "abs"};
    const int nf = 9;
    Buffer X = buffer("X", {5}, F32), O = buffer("O", {nf + 3, 5}, DType::Float64);
    Var i = makeVar("i");
    std::vector<Stmt> body;
    for (int f = 0; f < nf; ++f)
        body.push_back(store(O, {ci(f), i}, call(fns[f], {load(X, {i})}, F32)));
    body.push_back(store(O, {ci(nf), i},
                         select(binary(BinOp::Gt, load(X, {i}), floatImm(1.0)), load(X, {i}),
                                call("ninfinity", {}, F32))));
    body.push_back(store(O, {ci(nf + 1), i}, binary(BinOp::Max, load(X, {i}), floatImm(1.0))));
    body.push_back(store(O, {ci(nf + 2), i}, cast(F16, load(X, {i}))));
    Stmt print = evaluate(
        call("print", {load(X, {ci(0)}), std::make_shared<StrImmNode>("x0 =", Span{})}, I32));
    std::vector<HostTensor> args{ts::makeHostTensor(F32, {5}, {0.5, 1.25, 2.0, 3.1, 10.0}),
                                 filledTensor(DType::Float64, {nf + 3, 5}, 0)};
    auto r = ts::interp::run(oneBlock({X, O}, {par(i, 5, seq(body)), print}), args);
    ASSERT_INTERP_OK(r);
    double (*ref[])(double) = {[](double x) { return std::exp(x); },
                               [](double x) { return std::exp2(x); },
                               [](double x) { return std::log(x); },
                               [](double x) { return std::log2(x); },
                               [](double x) { return std::sqrt(x); },
                               [](double x) { return 1 / std::sqrt(x); },
                               [](double x) { return 1 / (1 + std::exp(-x)); },
                               [](double x) { return std::tanh(x); },
                               [](double x) { return std::fabs(x); }};
    for (int k = 0; k < 5; ++k) {
        double x = args[0].data[k];
        // Calls typed float32 give float32 results (the GPU's expf etc.), rounded from float64.
        for (int f = 0; f < nf; ++f)
            EXPECT_DOUBLE_EQ(args[1].data[f * 5 + k], roundTo(F32, ref[f](x))) << fns[f];
        EXPECT_EQ(args[1].data[nf * 5 + k], x > 1 ? x : -INFINITY);
        EXPECT_EQ(args[1].data[(nf + 1) * 5 + k], std::max(x, 1.0));
        EXPECT_EQ(args[1].data[(nf + 2) * 5 + k], roundTo(F16, x));
    }
    ASSERT_EQ(r.log.size(), 1u);
    EXPECT_EQ(r.log[0], "block [0]: x0 = 0.500000");
}

TEST(InterpOps, FastRoundingMatchesRoundTo) {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> mant(1.0, 2.0);
    std::uniform_int_distribution<int> ex(-160, 140);
    for (int k = 0; k < 200000; ++k) {
        double v = std::ldexp(mant(rng), ex(rng)) * (k % 2 ? -1 : 1);
        if (k % 7 == 0)
            v = std::ldexp(std::round(mant(rng) * 2048) / 2048 + 1.0 / 4096,
                           ex(rng) % 20);  // f16 ties
        for (DType t : {F32, F16})
            ASSERT_EQ(ts::interp::detail::roundValue(t, v), roundTo(t, v)) << v;
    }
    for (double v : {65504.0, 65519.99, 65520.0, 1e300, -1e300, 0.0, -0.0, double(INFINITY),
                     3.4028235677973366e38})
        for (DType t : {F32, F16})
            EXPECT_EQ(ts::interp::detail::roundValue(t, v), roundTo(t, v)) << v;
}

TEST(InterpOps, StridedParameterIsAddressedThroughItsStrides) {
    // A is a (4, 3) view with column-major strides (1, 4): A[i, j] = data[i + 4 j].
    auto A = std::make_shared<BufferNode>("A", F32, std::vector<Expr>{ci(4), ci(3)}, Scope::Global,
                                          Span{}, std::vector<Expr>{ci(1), ci(4)});
    Buffer O = buffer("O", {4, 3}, F32), T = shared("T", {4, 3}, F32);
    std::vector<double> v(12);
    for (int k = 0; k < 12; ++k) v[k] = k;
    std::vector<HostTensor> args{ts::makeHostTensor(F32, {4, 3}, v), filledTensor(F32, {4, 3}, -1)};
    ASSERT_INTERP_OK(ts::interp::run(
        oneBlock({A, O}, {alloc(T), copy(whole(A), whole(T)), copy(whole(T), whole(O))}), args));
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_EQ(args[1].data[i * 3 + j], i + 4 * j);
}

TEST(InterpOps, UnwrittenFloatTilesAreNaNIntegerTilesZero) {
    // A kernel that forgets T.clear must not look right here while the thread interpreter and
    // the GPU (poisoned runs) give NaN: float tiles start as NaN, integer tiles as 0.
    const int64_t n = 8;
    Buffer Y = buffer("Y", {n}, F32), Z = buffer("Z", {n}, ts::ir::DType::Int32);
    Buffer acc = fragment("acc", {n}, F32), cnt = fragment("cnt", {n}, ts::ir::DType::Int32);
    Var bx = blockVar("bx", 0), i = makeVar("i");
    Stmt body = seq({alloc(acc), alloc(cnt),
                     par(i, n, store(acc, {i}, binary(BinOp::Add, load(acc, {i}), floatImm(1.0)))),
                     copy(whole(acc), whole(Y)), copy(whole(cnt), whole(Z))});
    std::vector<HostTensor> args{filledTensor(F32, {n}, 5.0),
                                 filledTensor(ts::ir::DType::Int32, {n}, 7.0)};
    auto r = ts::interp::run(func("noclear", {Y, Z}, kernel({ci(1)}, {bx}, body)), args);
    ASSERT_INTERP_OK(r);
    for (int64_t k = 0; k < n; ++k) {
        EXPECT_TRUE(std::isnan(args[0].data[k])) << k;
        EXPECT_EQ(args[1].data[k], 0.0) << k;
    }
}
