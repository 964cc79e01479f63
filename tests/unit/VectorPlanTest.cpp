// compiler/codegen/VectorAccess.h on hand-built per-thread loops: the swizzled shared-tile store
// (a ^ b with b a multiple of the width keeps a group contiguous and aligned; any other b does
// not) and the lane-pair v4 atomic plan (the mma accumulator's column pairs, lane ^ 1 holding the
// neighbouring pair; a layout whose partner lane is elsewhere keeps the v2 form).
#include <gtest/gtest.h>

#include "compiler/codegen/VectorAccess.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Intrinsics.h"

namespace {
using namespace ts::ir;
using ts::Span;

struct Loop {
    Var r = makeVar("r"), tx = makeVar("tx", DType::Int32, {}, VarTag::ThreadIdx, 0);
    Buffer regs = std::make_shared<BufferNode>("regs", DType::Float32, std::vector<Expr>{intImm(32)}, Scope::Local, Span{});
};

Expr fdiv(Expr a, int64_t b) { return binary(BinOp::FloorDiv, a, intImm(b)); }
Expr fmod(Expr a, int64_t b) { return binary(BinOp::FloorMod, a, intImm(b)); }
Expr mulI(Expr a, int64_t b) { return binary(BinOp::Mul, a, intImm(b)); }
Expr addE(Expr a, Expr b) { return binary(BinOp::Add, a, b); }

// The m16n8 accumulator of warp tx/32 over a 64 x 64 tile: row (tx%32)/4 + 8*((r%4)/2) + 16*(tx/32),
// column 8*(r/4) + 2*(tx%4) + r%2.
Expr accRow(const Loop& l) { return addE(addE(mulI(fdiv(l.tx, 32), 16), fdiv(fmod(l.tx, 32), 4)), mulI(fdiv(fmod(l.r, 4), 2), 8)); }
Expr accCol(const Loop& l) { return addE(addE(mulI(fdiv(l.r, 4), 8), mulI(fmod(l.tx, 4), 2)), fmod(l.r, 2)); }

int64_t storeWidth(const Loop& l, Expr swizzle) {
    Buffer tile = std::make_shared<BufferNode>("tile", DType::Float16, std::vector<Expr>{intImm(4096)}, Scope::Shared, Span{});
    Expr idx = addE(mulI(accRow(l), 64), binary(BinOp::BitXor, accCol(l), swizzle));
    Stmt body = store(tile, {idx}, cast(DType::Float16, load(l.regs, {l.r})));
    auto f = forLoop(l.r, intImm(0), intImm(32), ForKind::Unrolled, body);
    return ts::codegen::planVectorLoop(*as<ForNode>(f)).width;
}

TEST(VectorPlan, SwizzledSharedStoreWidensOnlyForAWidthMultipleXor) {
    Loop l;
    EXPECT_EQ(storeWidth(l, mulI(fdiv(fmod(l.tx, 32), 4), 8)), 2);  // col ^ (row % 8) * 8: pairs stay pairs
    EXPECT_EQ(storeWidth(l, fdiv(fmod(l.tx, 32), 4)), 1);            // col ^ (row % 8): a pair may split
}

// A tile row of 4 elements per group: idx = ((r / 4) * 64 + tx * 4 + r % 4) ^ key(r), as the
// swizzled tile stores of sparse attention write their rows (the XOR key comes from the row, which
// the loop variable walks: ((r / 4) & 7) << 3).
int64_t rowStoreWidth(const Loop& l, Expr key) {
    Buffer tile = std::make_shared<BufferNode>("tile", DType::Float16, std::vector<Expr>{intImm(8192)}, Scope::Shared, Span{});
    Expr a = addE(addE(mulI(fdiv(l.r, 4), 64), mulI(l.tx, 4)), fmod(l.r, 4));
    Stmt body = store(tile, {binary(BinOp::BitXor, a, key)}, cast(DType::Float16, load(l.regs, {l.r})));
    auto f = forLoop(l.r, intImm(0), intImm(32), ForKind::Unrolled, body);
    return ts::codegen::planVectorLoop(*as<ForNode>(f)).width;
}

Expr shl(Expr a, int64_t b) { return binary(BinOp::Shl, a, intImm(b)); }
Expr band(Expr a, int64_t b) { return binary(BinOp::BitAnd, a, intImm(b)); }

TEST(VectorPlan, XorKeyOfTheLoopVariableWidensWhenConstantOverEachGroup) {
    Loop l;
    EXPECT_EQ(rowStoreWidth(l, shl(band(fdiv(l.r, 4), 7), 3)), 4);  // key fixed within each row of 4
    EXPECT_EQ(rowStoreWidth(l, shl(band(fdiv(l.r, 2), 7), 3)), 2);  // key changes every 2 elements
    EXPECT_EQ(rowStoreWidth(l, shl(band(l.r, 7), 3)), 1);            // key changes every element
    EXPECT_EQ(rowStoreWidth(l, shl(band(fdiv(l.r, 4), 7), 1)), 2);   // key a multiple of 2 only: pairs stay whole
}

ts::codegen::PairAtomicPlan atomicPlan(const Loop& l, Expr col, int64_t rowPitch) {
    Buffer dst = std::make_shared<BufferNode>("dq", DType::Float32, std::vector<Expr>{intImm(1 << 20)}, Scope::Global, Span{});
    Expr idx = addE(mulI(accRow(l), rowPitch), col);
    std::vector<Expr> args{std::make_shared<StrImmNode>("add", Span{}), call(intrin::kAddressOf, {load(dst, {idx})}, DType::Int64),
                           load(l.regs, {l.r})};
    Stmt body = evaluate(call(intrin::kAtomic, args, DType::Int32));
    auto f = forLoop(l.r, intImm(0), intImm(32), ForKind::Unrolled, body);
    return ts::codegen::planPairAtomic(*as<ForNode>(f), 128);
}

TEST(VectorPlan, LanePairAtomicNeedsThePartnerLaneAndFourAlignedRows) {
    Loop l;
    EXPECT_TRUE(atomicPlan(l, accCol(l), 64).ok);   // dQ's (row, col) of a 64-wide tile
    EXPECT_FALSE(atomicPlan(l, accCol(l), 66).ok);  // rows at 66 floats: a lane pair's 4 elements not 16-byte aligned
    // Columns 8*(r/4) + 2*(tx/4 % 4) + r%2: the neighbouring pair sits 4 lanes away, not at lane ^ 1.
    Expr far = addE(addE(mulI(fdiv(l.r, 4), 8), mulI(fmod(fdiv(l.tx, 4), 4), 2)), fmod(l.r, 2));
    EXPECT_FALSE(atomicPlan(l, far, 64).ok);
}

}  // namespace

namespace {
// `for r in [0, n): dst[r] = cast(src[r])` over register arrays (the P = S of attention).
ts::codegen::PairCastPlan pairCast(DType to, DType from, int64_t n, Scope dstScope = Scope::Local, bool shifted = false) {
    Loop l;
    Buffer src = std::make_shared<BufferNode>("S", from, std::vector<Expr>{intImm(n)}, Scope::Local, Span{});
    Buffer dst = std::make_shared<BufferNode>("P", to, std::vector<Expr>{intImm(n + 1)}, dstScope, Span{});
    Expr at = shifted ? addE(l.r, intImm(1)) : Expr(l.r);
    auto f = forLoop(l.r, intImm(0), intImm(n), ForKind::Unrolled, store(dst, {at}, cast(to, load(src, {l.r}))));
    return ts::codegen::planPairCast(*as<ForNode>(f));
}
}  // namespace

TEST(VectorPlan, FloatToHalfRegisterCastsGoInPairs) {
    EXPECT_NE(pairCast(DType::Float16, DType::Float32, 32).dst, nullptr);
    EXPECT_NE(pairCast(DType::BFloat16, DType::Float32, 32).dst, nullptr);
    // Not: an odd count, a shifted destination (pairs would straddle), a shared destination, a
    // float64 source (cast_pair takes float32), a float32 destination.
    EXPECT_EQ(pairCast(DType::Float16, DType::Float32, 31).dst, nullptr);
    EXPECT_EQ(pairCast(DType::Float16, DType::Float32, 32, Scope::Local, true).dst, nullptr);
    EXPECT_EQ(pairCast(DType::Float16, DType::Float32, 32, Scope::Shared).dst, nullptr);
    EXPECT_EQ(pairCast(DType::Float16, DType::Float64, 32).dst, nullptr);
    EXPECT_EQ(pairCast(DType::Float32, DType::Float32, 32).dst, nullptr);
}

// The element-wise form: dS[r] = cast(P[r] * (dP[r] - Delta[col])) converts each pair as it is made.
// Not when the value reads the destination (a pair computes E(r + 1) before D[r] is stored) or
// calls anything but side-effect-free math.
TEST(VectorPlan, ElementwiseValuesAreConvertedInPairsWhenPure) {
    Loop l;
    Buffer dp = std::make_shared<BufferNode>("dP", DType::Float32, std::vector<Expr>{intImm(32)}, Scope::Local, Span{});
    Buffer delta = std::make_shared<BufferNode>("delta_s", DType::Float32, std::vector<Expr>{intImm(64)}, Scope::Shared, Span{});
    Buffer ds = std::make_shared<BufferNode>("dS", DType::Float16, std::vector<Expr>{intImm(32)}, Scope::Local, Span{});
    auto plan = [&](Expr value) {
        auto f = forLoop(l.r, intImm(0), intImm(32), ForKind::Unrolled, store(ds, {l.r}, cast(DType::Float16, value)));
        return ts::codegen::planPairCast(*as<ForNode>(f));
    };
    Expr v = binary(BinOp::Mul, load(l.regs, {l.r}), binary(BinOp::Sub, load(dp, {l.r}), load(delta, {accCol(l)})));
    auto ok = plan(call("exp2", {v}, DType::Float32));
    EXPECT_EQ(ok.dst, ds.get());
    EXPECT_EQ(ok.src, nullptr);  // not a plain register copy: the value is evaluated per element
    EXPECT_NE(plan(v).value, nullptr);
    // Reads the destination (the previous element): pairs would read a stale dS[r].
    EXPECT_EQ(plan(binary(BinOp::Add, v, cast(DType::Float32, load(ds, {binary(BinOp::Sub, l.r, intImm(1))})))).dst, nullptr);
    // A call that is not pure math.
    EXPECT_EQ(plan(call("tl.atomic_add_ret", {v}, DType::Float32)).dst, nullptr);
}

