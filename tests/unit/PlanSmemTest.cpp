// plan-smem's byte reuse on hand-built lowered bodies (stores/loads of shared buffers, as after
// lower-tile-ops + insert-sync), with the plan derived by hand:
//  - P (256 fp32 = 1024 B) used in statements 2-3, Q (512 fp16 = 1024 B) in 5-6: disjoint, so Q
//    takes P's bytes at offset 0, and a barrier lands before Q's first statement (none between);
//  - L (1024 B) is used inside a loop and after it, so it is live for the whole loop and does not
//    share with the loop's buffer R, which gets offset 1024; after the loop, a third buffer Z
//    used only there takes R's bytes (the existing top-level barrier separates them: no new one);
//  - S1 and S2 allocated inside a loop body are fresh each iteration: used in disjoint parts of
//    the body, they share offset 0, with one barrier before S2's first store and one before
//    S1's (iteration i's reads of S2 precede iteration i+1's writes of S1);
//  - the same S1/S2 under `if bx < 2:` (a condition every thread of the block agrees on, as a
//    persistent kernel's `if tile_id < total:` around its whole pipelined body): the branch is a
//    scope, so they share offset 0 with one barrier inside the branch before S2's first store;
//    under `if tx < 64:` (threads disagree) the `if` stays one unit: 2048 bytes, no barrier
//    (a __syncthreads there would deadlock).
#include <gtest/gtest.h>

#include "compiler/PassManager.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/transforms/Passes.h"
#include "tests/unit/InterpTestUtil.h"

using namespace interp_test;

namespace {

int64_t countSyncs(const Stmt& s) {
    int64_t n = 0;
    walk(s, [&](const Stmt& x) {
        auto* e = as<EvalNode>(x);
        auto* c = e ? as<CallNode>(e->call) : nullptr;
        if (c && c->op == ts::ir::intrin::kSyncThreads) ++n;
    });
    return n;
}

Stmt syncThreads() { return evaluate(call(ts::ir::intrin::kSyncThreads, {}, DType::Int32)); }

PrimFunc plan(const PrimFunc& f) {
    ts::DiagnosticEngine d;
    ts::PassContext ctx{d, {}};
    PrimFunc out = ts::xform::planSharedMemory(f, ctx);
    EXPECT_TRUE(d.all().empty());
    return out;
}

TEST(PlanSmem, DisjointPhasesShareOffsetZeroWithABarrier) {
    Buffer O = buffer("O", {256}, DType::Float32);
    Buffer P = shared("P", {256}, DType::Float32), Q = shared("Q", {512}, DType::Float16);
    Stmt body = seq({alloc(P), alloc(Q),                                      // 0, 1
                     store(P, {ci(0)}, floatImm(1.0, DType::Float32)),        // 2
                     store(O, {ci(0)}, load(P, {ci(0)})),                     // 3
                     store(O, {ci(1)}, floatImm(0.0, DType::Float32)),        // 4
                     store(Q, {ci(0)}, floatImm(2.0, DType::Float16)),        // 5
                     store(O, {ci(2)}, cast(DType::Float32, load(Q, {ci(0)})))});  // 6
    PrimFunc f = plan(func("main", {O}, kernel({ci(1)}, {blockVar("bx", 0)}, body)));
    EXPECT_EQ(attrInt(f->attrs, "smem_offset.P", -1), 0);
    EXPECT_EQ(attrInt(f->attrs, "smem_offset.Q", -1), 0);
    EXPECT_EQ(attrInt(f->attrs, "smem_bytes", -1), 1024);
    EXPECT_EQ(attrStr(f->attrs, "smem_shares.P", ""), "Q");
    EXPECT_EQ(attrStr(f->attrs, "smem_shares.Q", ""), "P");
    EXPECT_EQ(countSyncs(f->body), 1);
    // The barrier sits right before Q's first statement (the store of 2.0).
    const KernelNode* k = findKernel(f);
    auto* q = as<SeqNode>(k->body);
    ASSERT_TRUE(q);
    ASSERT_EQ(q->stmts.size(), 8u);
    auto* st = as<StoreNode>(q->stmts[6]);
    EXPECT_TRUE(st && st->buffer == Q);
    EXPECT_EQ(countSyncs(q->stmts[5]), 1);
}

TEST(PlanSmem, BufferLiveAcrossALoopDoesNotShare) {
    Buffer O = buffer("O", {256}, DType::Float32);
    Buffer L = shared("L", {256}, DType::Float32), R = shared("R", {256}, DType::Float32),
           Z = shared("Z", {256}, DType::Float32);
    Var k = makeVar("k");
    Stmt loop = forLoop(k, ci(0), ci(4), ForKind::Serial,
                        seq({store(R, {k}, load(L, {k})), store(L, {k}, load(R, {k}))}));
    Stmt body = seq({alloc(L), alloc(R), alloc(Z),                               // 0-2
                     store(L, {ci(0)}, floatImm(1.0, DType::Float32)),            // 3
                     loop,                                                        // 4
                     syncThreads(),                                               // 5
                     store(Z, {ci(0)}, load(L, {ci(0)})),                         // 6
                     store(O, {ci(0)}, load(Z, {ci(0)}))});                       // 7
    PrimFunc f = plan(func("main", {O}, kernel({ci(1)}, {blockVar("bx", 0)}, body)));
    EXPECT_EQ(attrInt(f->attrs, "smem_offset.L", -1), 0);
    EXPECT_EQ(attrInt(f->attrs, "smem_offset.R", -1), 1024);
    EXPECT_EQ(attrInt(f->attrs, "smem_offset.Z", -1), 1024);
    EXPECT_EQ(attrInt(f->attrs, "smem_bytes", -1), 2048);
    EXPECT_EQ(attrStr(f->attrs, "smem_shares.L", ""), "");
    EXPECT_EQ(attrStr(f->attrs, "smem_shares.R", ""), "Z");
    EXPECT_EQ(countSyncs(f->body), 1);  // the existing barrier at 5 separates R and Z
}

TEST(PlanSmem, ScratchFreshEachIterationSharesInsideTheLoop) {
    Buffer O = buffer("O", {8}, DType::Float32);
    Buffer S1 = shared("S1", {256}, DType::Float32), S2 = shared("S2", {256}, DType::Float32);
    Var k = makeVar("k");
    Stmt loopBody = seq({alloc(S1), alloc(S2),                                       // 1, 2
                         store(S1, {k}, floatImm(1.0, DType::Float32)),               // 3
                         store(O, {k}, load(S1, {k})),                                // 4
                         store(S2, {k}, floatImm(2.0, DType::Float32)),               // 5
                         store(O, {add(k, ci(4))}, load(S2, {k}))});                  // 6
    Stmt body = seq({forLoop(k, ci(0), ci(4), ForKind::Serial, loopBody)});           // 0
    PrimFunc f = plan(func("main", {O}, kernel({ci(1)}, {blockVar("bx", 0)}, body)));
    EXPECT_EQ(attrInt(f->attrs, "smem_offset.S1", -1), 0);
    EXPECT_EQ(attrInt(f->attrs, "smem_offset.S2", -1), 0);
    EXPECT_EQ(attrInt(f->attrs, "smem_bytes", -1), 1024);
    const KernelNode* kn = findKernel(f);
    auto* loop = as<ForNode>(kn->body);
    ASSERT_TRUE(loop);
    auto* q = as<SeqNode>(loop->body);
    ASSERT_TRUE(q);
    ASSERT_EQ(q->stmts.size(), 8u);
    EXPECT_EQ(countSyncs(q->stmts[2]), 1);
    EXPECT_TRUE(as<StoreNode>(q->stmts[3]) && as<StoreNode>(q->stmts[3])->buffer == S1);
    EXPECT_EQ(countSyncs(q->stmts[5]), 1);
    EXPECT_TRUE(as<StoreNode>(q->stmts[6]) && as<StoreNode>(q->stmts[6])->buffer == S2);
    EXPECT_EQ(countSyncs(f->body), 2);
}

Stmt scratchPair(const Buffer& O, const Buffer& S1, const Buffer& S2) {
    return seq({alloc(S1), alloc(S2),                                   // 0, 1
                store(S1, {ci(0)}, floatImm(1.0, DType::Float32)),       // 2
                store(O, {ci(0)}, load(S1, {ci(0)})),                    // 3
                store(S2, {ci(0)}, floatImm(2.0, DType::Float32)),       // 4
                store(O, {ci(1)}, load(S2, {ci(0)}))});                  // 5
}

TEST(PlanSmem, ScratchInABlockUniformIfSharesBytesInsideTheBranch) {
    Buffer O = buffer("O", {8}, DType::Float32);
    Buffer S1 = shared("S1", {256}, DType::Float32), S2 = shared("S2", {256}, DType::Float32);
    Var bx = blockVar("bx", 0);
    Stmt body = seq({ifThen(lt(bx, ci(2)), scratchPair(O, S1, S2))});
    PrimFunc f = plan(func("main", {O}, kernel({ci(4)}, {bx}, body)));
    EXPECT_EQ(attrInt(f->attrs, "smem_offset.S1", -1), 0);
    EXPECT_EQ(attrInt(f->attrs, "smem_offset.S2", -1), 0);
    EXPECT_EQ(attrInt(f->attrs, "smem_bytes", -1), 1024);
    EXPECT_EQ(attrStr(f->attrs, "smem_shares.S2", ""), "S1");
    const KernelNode* kn = findKernel(f);
    auto* i = as<IfNode>(kn->body);
    ASSERT_TRUE(i);
    auto* q = as<SeqNode>(i->then);
    ASSERT_TRUE(q);
    ASSERT_EQ(q->stmts.size(), 7u);
    EXPECT_EQ(countSyncs(q->stmts[4]), 1);  // right before S2's first store
    EXPECT_TRUE(as<StoreNode>(q->stmts[5]) && as<StoreNode>(q->stmts[5])->buffer == S2);
    EXPECT_EQ(countSyncs(f->body), 1);
}

TEST(PlanSmem, ThreadDependentIfStaysOneUnit) {
    Buffer O = buffer("O", {8}, DType::Float32);
    Buffer S1 = shared("S1", {256}, DType::Float32), S2 = shared("S2", {256}, DType::Float32);
    Var bx = blockVar("bx", 0);
    PrimFunc f0 = func("main", {O}, kernel({ci(4)}, {bx}, seq({})));
    const Var tx = findKernel(f0)->threadVars[0];
    Stmt body = seq({ifThen(lt(tx, ci(64)), scratchPair(O, S1, S2))});
    PrimFunc f = plan(func("main", {O}, std::make_shared<KernelNode>(std::vector<Expr>{ci(4)}, std::vector<int64_t>{128},
                                                                      std::vector<Var>{bx}, std::vector<Var>{tx}, body, Span{})));
    EXPECT_EQ(attrInt(f->attrs, "smem_bytes", -1), 2048);
    EXPECT_NE(attrInt(f->attrs, "smem_offset.S1", -1), attrInt(f->attrs, "smem_offset.S2", -1));
    EXPECT_EQ(countSyncs(f->body), 0);
}

}  // namespace
