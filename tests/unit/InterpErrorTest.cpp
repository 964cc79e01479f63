// Interpreter: diagnostics and robustness. Out-of-bounds element accesses name the buffer, the
// index and the shape at the node's span; argument mismatches, symbolic extents, maxBlocks and
// cancellation behave as documented; and malformed IR (null children, wrong tile-op arguments,
// unbound variables, traps, absurd sizes, pathological nesting) yields a diagnostic, never a
// crash or an exception.
#include <cmath>
#include <limits>
#include <random>

#include "tests/unit/InterpTestUtil.h"

using namespace interp_test;

namespace {
const DType F32 = DType::Float32;

PrimFunc oneBlock(std::vector<Buffer> params, std::vector<Stmt> body) {
    return func("k", std::move(params), kernel({ci(1)}, {blockVar("bx", 0)}, seq(std::move(body))));
}
Stmt par(Var v, int64_t n, Stmt body) {
    return forLoop(v, ci(0), ci(n), ForKind::Parallel, std::move(body));
}

/// Runs `f` on one 4x4 float32 tensor per parameter and returns the diagnostic text ("" if ok).
std::string errorOf(const PrimFunc& f, ts::interp::InterpResult* out = nullptr) {
    std::vector<HostTensor> args;
    if (f)
        for (auto& p : f->params) {
            if (!p) {
                args.emplace_back();
                continue;
            }
            std::vector<int64_t> shape;
            for (auto& e : p->shape) shape.push_back(constInt(e).value_or(4));
            args.push_back(filledTensor(p->dtype, shape, 1.0));
        }
    auto r = ts::interp::run(f, args);
    if (out) *out = r;
    EXPECT_EQ(r.ok, !r.error.has_value());
    return r.error ? r.error->message + (r.error->hint.empty() ? "" : " | " + r.error->hint) : "";
}
#define EXPECT_CONTAINS(hay, needle) EXPECT_NE((hay).find(needle), std::string::npos) << (hay)
}  // namespace

TEST(InterpErrors, OutOfBoundsLoadNamesBufferIndexShapeAtSpan) {
    Buffer A = buffer("A", {4, 4}, F32), Bf = fragment("B_f", {4, 4}, F32);
    Var i = makeVar("i"), j = makeVar("j");
    Span sp{12, 9, 12, 25};
    Expr bad = std::make_shared<LoadNode>(Bf, std::vector<Expr>{add(i, ci(1)), j}, F32, sp);
    ts::interp::InterpResult r;
    std::string msg =
        errorOf(oneBlock({A}, {alloc(Bf), par(i, 4, par(j, 4, store(A, {i, j}, bad)))}), &r);
    EXPECT_CONTAINS(msg, "out-of-bounds load B_f[4, 0]");
    EXPECT_CONTAINS(msg, "fragment buffer 'B_f' has shape (4, 4)");
    EXPECT_EQ(r.error->span, sp);
    EXPECT_EQ(r.blocksRun, 0);
}

TEST(InterpErrors, OutOfBoundsStoreToGlobal) {
    Buffer A = buffer("A", {4, 4}, F32);
    Span sp{3, 1, 3, 10};
    Stmt st = std::make_shared<StoreNode>(A, std::vector<Expr>{ci(2), ci(-1)}, floatImm(0.0), sp);
    ts::interp::InterpResult r;
    EXPECT_CONTAINS(errorOf(oneBlock({A}, {st}), &r),
                    "out-of-bounds store A[2, -1]: global buffer 'A' has shape (4, 4)");
    EXPECT_EQ(r.error->span, sp);
}

TEST(InterpErrors, RegionOutOfBoundsInGemmAndReduce) {
    Buffer A = buffer("A", {4, 4}, F32), Cf = fragment("C_f", {4, 4}, F32),
           Rf = fragment("r", {4}, F32);
    EXPECT_CONTAINS(errorOf(oneBlock({A}, {alloc(Cf), gemm(region(A, {{ci(2), 4}, {ci(0), 4}}),
                                                           whole(A), whole(Cf))})),
                    "T.gemm: region A[2:6, 0:4] reaches index [4, 0] outside global buffer 'A' of "
                    "shape (4, 4)");
    EXPECT_CONTAINS(
        errorOf(oneBlock(
            {A}, {alloc(Rf), reduce("sum", region(A, {{ci(0), 4}, {ci(-1), 4}}), whole(Rf), 1)})),
        "reaches index [0, -1]");
    EXPECT_CONTAINS(errorOf(oneBlock({A}, {alloc(Rf), reduce("sum", whole(A), whole(Rf), 2)})),
                    "dim 2 is out of range");
    EXPECT_CONTAINS(errorOf(oneBlock({A}, {alloc(Rf), reduce("prod", whole(A), whole(Rf), 1)})),
                    "unknown reduction 'prod'");
    EXPECT_CONTAINS(errorOf(oneBlock({A}, {alloc(Cf), reduce("sum", whole(A), whole(Cf), 1)})),
                    "must have shape (4)");
}

TEST(InterpErrors, CopyShapeMismatch) {
    Buffer A = buffer("A", {4, 4}, F32), T = shared("T", {2, 8}, F32);
    EXPECT_CONTAINS(
        errorOf(oneBlock({A}, {alloc(T), copy(whole(A), whole(T))})),
        "T.copy: source A[0:4, 0:4] has shape (4, 4) but destination T[0:2, 0:8] has shape (2, 8)");
}

TEST(InterpErrors, ArgumentsAreChecked) {
    Buffer A = buffer("A", {4, 4}, F32);
    PrimFunc f = oneBlock({A}, {});
    std::vector<HostTensor> none;
    auto r = ts::interp::run(f, none);
    ASSERT_FALSE(r.ok);
    EXPECT_CONTAINS(r.error->message, "takes 1 tensor arguments, got 0");
    std::vector<HostTensor> wrongType{filledTensor(DType::Float16, {4, 4}, 0)};
    EXPECT_CONTAINS(ts::interp::run(f, wrongType).error->message,
                    "has dtype float16, the kernel expects float32");
    std::vector<HostTensor> wrongShape{filledTensor(F32, {4, 5}, 0)};
    EXPECT_CONTAINS(ts::interp::run(f, wrongShape).error->message,
                    "has shape (4, 5), the kernel expects (4, 4)");
    std::vector<HostTensor> noData{HostTensor{F32, {4, 4}, {}}};  // outputs may come without data
    ASSERT_INTERP_OK(ts::interp::run(f, noData));
    EXPECT_EQ(noData[0].data.size(), 16u);
}

TEST(InterpErrors, SymbolicExtentsBindFromArguments) {
    Var n = makeVar("n");
    auto A = std::make_shared<BufferNode>("A", F32, std::vector<Expr>{n}, Scope::Global, Span{});
    auto B = std::make_shared<BufferNode>("B", F32, std::vector<Expr>{n}, Scope::Global, Span{});
    Var bx = blockVar("bx", 0), i = makeVar("i");
    Expr g = add(mul(bx, ci(32)), i);
    Stmt body = par(i, 32, ifThen(lt(g, n), store(B, {g}, mul(load(A, {g}), floatImm(2.0)))));
    PrimFunc f = func("scale", {A, B}, kernel({floordiv(add(n, ci(31)), ci(32))}, {bx}, body));
    std::vector<HostTensor> args{randomTensor(F32, {70}, 1), filledTensor(F32, {70}, 0)};
    auto r = ts::interp::run(f, args);
    ASSERT_INTERP_OK(r);
    EXPECT_EQ(r.blocksRun, 3);
    for (int k = 0; k < 70; ++k) EXPECT_EQ(args[1].data[k], 2 * args[0].data[k]);
    std::vector<HostTensor> mismatch{randomTensor(F32, {70}, 1), filledTensor(F32, {71}, 0)};
    EXPECT_CONTAINS(ts::interp::run(f, mismatch).error->message,
                    "has shape (71), the kernel expects (70)");
}

TEST(InterpErrors, MaxBlocksAndCancellation) {
    Buffer A = buffer("A", {8}, F32);
    Var bx = blockVar("bx", 0);
    PrimFunc f = func("k", {A}, kernel({ci(8)}, {bx}, store(A, {bx}, floatImm(5.0))));
    std::vector<HostTensor> args{filledTensor(F32, {8}, 0)};
    ts::interp::InterpOptions o;
    o.maxBlocks = 2;
    auto r = ts::interp::run(f, args, o);
    ASSERT_INTERP_OK(r);
    EXPECT_EQ(r.blocksRun, 2);
    EXPECT_EQ(args[0].data, (std::vector<double>{5, 5, 0, 0, 0, 0, 0, 0}));
    std::atomic<bool> cancel{true};
    o = {};
    o.cancel = &cancel;
    r = ts::interp::run(f, args, o);
    ASSERT_FALSE(r.ok);
    EXPECT_CONTAINS(r.error->message, "cancelled");
    EXPECT_EQ(r.blocksRun, 0);
}

TEST(InterpErrors, UnboundVariablesAndScopes) {
    Buffer A = buffer("A", {4, 4}, F32), Bf = fragment("B_f", {4}, F32);
    Var i = makeVar("i"), tx = makeVar("tx", DType::Int32, {}, VarTag::ThreadIdx);
    EXPECT_CONTAINS(errorOf(oneBlock({A}, {store(A, {i, ci(0)}, floatImm(1.0))})),
                    "variable 'i' has no value here");
    EXPECT_CONTAINS(errorOf(oneBlock({A}, {store(A, {tx, ci(0)}, floatImm(1.0))})),
                    "thread indices have no meaning");
    EXPECT_CONTAINS(errorOf(oneBlock({A}, {store(A, {ci(0), ci(0)}, load(Bf, {ci(0)}))})),
                    "buffer 'B_f' is used before its allocation");
    EXPECT_CONTAINS(errorOf(oneBlock({A}, {oneBlock({}, {})->body})),
                    "nested inside another T.Kernel");
    EXPECT_CONTAINS(
        errorOf(oneBlock({A}, {alloc(buffer("huge", {1 << 20, 1 << 20}, F32, Scope::Shared))})),
        "too large");
    EXPECT_CONTAINS(errorOf(func("k", {A}, kernel({ci(-3)}, {blockVar("bx", 0)}, nullptr))),
                    "negative grid extent -3");
    EXPECT_CONTAINS(errorOf(oneBlock({A}, {store(A, {ci(0)}, floatImm(1.0))})),
                    "with 1 indices, but the buffer has rank 2");
}

TEST(InterpErrors, TrapsBecomeDiagnostics) {
    Buffer A = buffer("A", {4, 4}, F32), I = buffer("I", {4, 4}, DType::Int64);
    Expr one = load(I, {ci(0), ci(0)});  // 1 at run time; not a constant, so nothing folds
    auto st = [&](Expr v) { return oneBlock({A, I}, {store(A, {ci(0), ci(0)}, v)}); };
    EXPECT_CONTAINS(errorOf(st(floordiv(ci(5), sub(one, ci(1))))),
                    "integer division by zero (operator '//')");
    EXPECT_CONTAINS(errorOf(st(floormod(ci(5), sub(one, one)))),
                    "integer division by zero (operator '%')");
    Expr minI = intImm(std::numeric_limits<int64_t>::min(), {}, DType::Int64);
    EXPECT_EQ(errorOf(st(floordiv(minI, sub(ci(0), one)))),
              "");  // INT64_MIN // -1 wraps, no SIGFPE
    EXPECT_EQ(errorOf(st(binary(BinOp::Div, minI, sub(ci(0), one)))), "");
    EXPECT_CONTAINS(errorOf(st(binary(BinOp::Shl, one, ci(64)))), "shift by 64 bits");
    EXPECT_CONTAINS(errorOf(st(call("tl.ldmatrix", {}, F32))), "lowered intrinsic 'tl.ldmatrix'");
    EXPECT_CONTAINS(errorOf(st(call("frobnicate", {one}, F32))),
                    "does not support the function 'frobnicate'");
    EXPECT_CONTAINS(errorOf(st(call("exp", {}, F32))), "T.exp takes 1 argument");
    EXPECT_CONTAINS(errorOf(oneBlock({A}, {store(A, {call("infinity", {}, F32), ci(0)}, ci(1))})),
                    "used as an integer");
}

TEST(InterpErrors, MalformedIrNeverCrashes) {
    Buffer A = buffer("A", {4, 4}, F32), T = shared("T", {4, 4}, F32);
    std::vector<PrimFunc> bad;
    bad.push_back(nullptr);
    bad.push_back(oneBlock({A}, {std::make_shared<StoreNode>(A, std::vector<Expr>{ci(0), nullptr},
                                                             floatImm(1.0), Span{})}));
    bad.push_back(oneBlock(
        {A}, {std::make_shared<StoreNode>(A, std::vector<Expr>{ci(0), ci(0)}, nullptr, Span{})}));
    bad.push_back(oneBlock(
        {A}, {store(A, {ci(0), ci(0)},
                    std::make_shared<BinaryNode>(BinOp::Add, nullptr, ci(1), F32, Span{}))}));
    bad.push_back(oneBlock({A}, {tileOp(TileOpKind::Copy, {whole(A)})}));
    bad.push_back(oneBlock({A}, {tileOp(TileOpKind::Copy, {floatImm(1.0), whole(A)})}));
    bad.push_back(oneBlock({A}, {tileOp(TileOpKind::Gemm, {})}));
    bad.push_back(
        oneBlock({A}, {tileOp(TileOpKind::Fill, {Region{nullptr, {}, {}}, floatImm(0.0)})}));
    bad.push_back(oneBlock(
        {A}, {tileOp(TileOpKind::Fill, {Region{A, {{nullptr, ci(4)}, {ci(0), ci(4)}}, {}}})}));
    bad.push_back(oneBlock({A}, {tileOp(TileOpKind::Fill, {Region{A, {{ci(0), ci(4)}}, {}}})}));
    bad.push_back(oneBlock({A}, {tileOp(TileOpKind::Reduce, {whole(A), floatImm(0.0)})}));
    bad.push_back(oneBlock({A}, {tileOp(TileOpKind::Atomic, {whole(A)})}));
    bad.push_back(oneBlock({A}, {tileOp(TileOpKind::Gemm, {region(A, {{ci(0), 1}, {ci(0), 4}}),
                                                           whole(A), whole(A)})}));
    bad.push_back(oneBlock({A}, {tileOp(TileOpKind::Cumsum, {whole(A)}, {{"dim", int64_t(-7)}})}));
    bad.push_back(oneBlock({A}, {forLoop(nullptr, ci(0), ci(4), ForKind::Serial, nullptr)}));
    bad.push_back(oneBlock({A}, {alloc(nullptr)}));
    bad.push_back(oneBlock({A}, {alloc(A)}));
    bad.push_back(oneBlock({A}, {alloc(T), copy(whole(T), region(A, {{ci(0), 4}, {ci(0), -1}}))}));
    bad.push_back(func("k", {nullptr}, nullptr));
    bad.push_back(func(
        "k", {},
        std::make_shared<KernelNode>(std::vector<Expr>{nullptr}, std::vector<int64_t>{},
                                     std::vector<Var>{}, std::vector<Var>{}, nullptr, Span{})));
    Expr deep = ci(1);  // deeper than the interpreter's nesting limit
    Var v = makeVar("v");
    for (int k = 0; k < 3000; ++k)
        deep = std::make_shared<BinaryNode>(BinOp::Add, deep, v, DType::Int32, Span{});
    bad.push_back(
        oneBlock({A}, {forLoop(v, ci(0), ci(1), ForKind::Serial, store(A, {ci(0), ci(0)}, deep))}));
    for (size_t k = 0; k < bad.size(); ++k) {
        std::string msg = errorOf(bad[k]);
        EXPECT_FALSE(msg.empty()) << "case " << k << " was accepted";
        EXPECT_EQ(msg.find("internal"), std::string::npos) << "case " << k << ": " << msg;
    }
    // A null body and an empty grid are fine: nothing runs.
    EXPECT_EQ(errorOf(func("k", {A}, nullptr)), "");
    EXPECT_EQ(errorOf(func("k", {A},
                           kernel({ci(0)}, {blockVar("bx", 0)}, store(A, {ci(9), ci(9)}, ci(0))))),
              "");
}

namespace {
/// Random expression trees over every node kind, operator, dtype and call name, with extreme
/// constants, unbound variables and wild load indices: the evaluator must answer each with a
/// value or a diagnostic (run under ASan/UBSan in development to catch undefined behaviour).
struct ExprFuzzer {
    std::mt19937 rng{1234};
    Buffer A = buffer("A", {4, 4}, DType::Float32), I = buffer("I", {4}, DType::Int64);
    Var i = makeVar("i"), unbound = makeVar("u");
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
    DType dtype() { return static_cast<DType>(pick(17)); }
    Expr leaf() {
        static const int64_t ints[] = {0,
                                       1,
                                       -1,
                                       2,
                                       3,
                                       63,
                                       64,
                                       1 << 20,
                                       std::numeric_limits<int64_t>::min(),
                                       std::numeric_limits<int64_t>::max()};
        static const double floats[] = {
            0.0, -0.0, 0.5, -3.25, 1e30, 65504.0, double(NAN), double(INFINITY), -double(INFINITY)};
        switch (pick(5)) {
            case 0:
                return intImm(ints[pick(10)], {}, pick(2) ? DType::Int64 : dtype());
            case 1:
                return floatImm(floats[pick(9)], pick(2) ? DType::Float32 : dtype());
            case 2:
                return i;
            case 3:
                return pick(8) ? Expr(i) : Expr(unbound);
            default:
                return std::make_shared<StrImmNode>("s", Span{});
        }
    }
    Expr gen(int depth) {
        if (depth == 0) return leaf();
        static const char* calls[] = {"exp", "log",      "sqrt",        "rsqrt", "abs",   "max",
                                      "pow", "infinity", "tl.cp_async", "nope",  "T.tanh"};
        switch (pick(8)) {
            case 0:
                return std::make_shared<BinaryNode>(static_cast<BinOp>(pick(22)), gen(depth - 1),
                                                    gen(depth - 1), dtype(), Span{});
            case 1:
                return std::make_shared<UnaryNode>(static_cast<UnOp>(pick(3)), gen(depth - 1),
                                                   dtype(), Span{});
            case 2:
                return std::make_shared<SelectNode>(gen(depth - 1), gen(depth - 1), gen(depth - 1),
                                                    dtype(), Span{});
            case 3: {
                std::vector<Expr> args;
                for (int k = pick(3); k > 0; --k) args.push_back(gen(depth - 1));
                return std::make_shared<CallNode>(calls[pick(11)], args, dtype(), Span{});
            }
            case 4:
                return std::make_shared<LoadNode>(A, std::vector<Expr>{gen(depth - 1), leaf()},
                                                  DType::Float32, Span{});
            case 5:
                return std::make_shared<LoadNode>(I, std::vector<Expr>{gen(depth - 1)},
                                                  DType::Int64, Span{});
            case 6:
                return std::make_shared<CastNode>(dtype(), gen(depth - 1), Span{});
            default:
                return leaf();
        }
    }
};
}  // namespace

TEST(InterpErrors, RandomExpressionsNeverCrash) {
    ExprFuzzer fz;
    Buffer O = buffer("O", {4}, DType::Float64);
    int ok = 0;
    for (int t = 0; t < 3000; ++t) {
        Expr e = fz.gen(1 + t % 5);
        Stmt body = forLoop(fz.i, ci(0), ci(4), ForKind::Parallel, store(O, {fz.i}, e));
        Stmt viaRegion = copy(region(fz.A, {{fz.gen(2), 1}, {ci(0), 4}}), whole(O));
        std::vector<HostTensor> args{randomTensor(DType::Float32, {4, 4}, t),
                                     ts::makeHostTensor(DType::Int64, {4}, {0, 1, -5, 3}),
                                     filledTensor(DType::Float64, {4}, 0)};
        auto r = ts::interp::run(oneBlock({fz.A, fz.I, O}, {t % 3 ? body : viaRegion}), args);
        ok += r.ok;
        if (!r.ok) {
            EXPECT_EQ(r.error->message.find("internal"), std::string::npos) << r.error->message;
        }
    }
    EXPECT_GT(ok, 100);  // a fair share of the trees are valid programs
}
