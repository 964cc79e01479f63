// The IR verifier and what the pass manager does with its findings (issue 14): a pass that
// returns invalid IR is marked failed, the pipeline stops there (later passes never see the
// IR), the failed snapshot shows the invalid IR, and the diagnostic names the pass. Each check
// of ir::verify is exercised on a hand-built function that breaks exactly that rule, next to the
// valid variant it must accept.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/PassManager.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/Verifier.h"
#include "tests/unit/InterpTestUtil.h"

using namespace interp_test;

namespace {

/// O[0] = value inside a one-block kernel.
PrimFunc storeFunc(const Buffer& O, Expr value) {
    return func("main", {O}, kernel({ci(1)}, {blockVar("bx", 0)}, store(O, {ci(0)}, std::move(value))));
}

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
    for (auto& p : problems)
        if (p.find(text) != std::string::npos) return true;
    return false;
}

TEST(Verifier, AcceptsWellTypedStore) {
    Buffer O = buffer("O", {4}, DType::Float32);
    EXPECT_TRUE(verify(storeFunc(O, floatImm(1.0, DType::Float32))).empty());
}

TEST(Verifier, RejectsStoreOfAnotherDtype) {
    Buffer O = buffer("O", {4}, DType::Float16);
    auto p = verify(storeFunc(O, floatImm(1.0, DType::Float32)));
    EXPECT_TRUE(mentions(p, "store of a float32 value into 'O' of dtype float16")) << (p.empty() ? "" : p[0]);
}

TEST(Verifier, RejectsArithmeticMixingFloatAndInt) {
    Buffer O = buffer("O", {4}, DType::Float32);
    // Built by hand: binary() would promote; a pass that forgets the cast builds this.
    Expr bad = std::make_shared<BinaryNode>(BinOp::Add, floatImm(1.0, DType::Float32), ci(2), DType::Float32, Span{});
    auto p = verify(storeFunc(O, bad));
    EXPECT_TRUE(mentions(p, "mix float32 and int32")) << (p.empty() ? "" : p[0]);
}

TEST(Verifier, RejectsComparisonThatIsNotBool) {
    Buffer O = buffer("O", {4}, DType::Int32);
    Expr bad = std::make_shared<BinaryNode>(BinOp::Lt, ci(1), ci(2), DType::Int32, Span{});
    EXPECT_TRUE(mentions(verify(storeFunc(O, bad)), "does not yield bool"));
}

TEST(Verifier, RejectsFloatIndex) {
    Buffer O = buffer("O", {4}, DType::Float32), I = buffer("I", {4}, DType::Float32);
    Stmt s = store(O, {ci(0)}, std::make_shared<LoadNode>(I, std::vector<Expr>{floatImm(1.0)}, DType::Float32, Span{}));
    auto p = verify(func("main", {O, I}, kernel({ci(1)}, {blockVar("bx", 0)}, s)));
    EXPECT_TRUE(mentions(p, "index of 'I' is a float")) << (p.empty() ? "" : p[0]);
}

TEST(Verifier, RejectsVariableOutOfScope) {
    Buffer O = buffer("O", {4}, DType::Int32);
    Var i = makeVar("i");
    auto p = verify(storeFunc(O, i));
    EXPECT_TRUE(mentions(p, "variable 'i' is used outside its scope"));
}

TEST(Verifier, FragmentNeedsALayoutOnceLayoutsAreInferred) {
    Buffer O = buffer("O", {64}, DType::Float32), F = fragment("F", {64}, DType::Float32);
    PrimFunc f = func("main", {O}, kernel({ci(1)}, {blockVar("bx", 0)}, seq({alloc(F), copy(whole(F), whole(O))})));
    EXPECT_TRUE(verify(f).empty());  // before infer-layouts: fine
    VerifyFacts facts;
    facts.layoutsInferred = true;
    EXPECT_TRUE(mentions(verify(f, facts), "fragment 'F' has no layout"));
}

TEST(Verifier, NoTileOpAfterLowering) {
    Buffer O = buffer("O", {64}, DType::Float32), S = shared("S", {64}, DType::Float32);
    PrimFunc f = func("main", {O}, kernel({ci(1)}, {blockVar("bx", 0)}, seq({alloc(S), copy(whole(S), whole(O))})));
    VerifyFacts facts;
    facts.tileOpsLowered = true;
    EXPECT_TRUE(mentions(verify(f, facts), "tile op T.copy survived lower-tile-ops"));
}

TEST(Verifier, BarrierUnderThreadDependentIfIsRejected) {
    Buffer O = buffer("O", {128}, DType::Float32);
    Var tx = makeVar("tx", DType::Int32, {}, VarTag::ThreadIdx, 0);
    Stmt sync = evaluate(call(intrin::kSyncThreads, {}, DType::Int32));
    auto k = [&](Stmt body) {
        return func("main", {O},
                    std::make_shared<KernelNode>(std::vector<Expr>{ci(1)}, std::vector<int64_t>{128},
                                                 std::vector<Var>{blockVar("bx", 0)}, std::vector<Var>{tx}, body, Span{}));
    };
    EXPECT_TRUE(verify(k(seq({sync, store(O, {tx}, floatImm(0.0))}))).empty());
    auto p = verify(k(ifThen(lt(tx, ci(32)), sync)));
    EXPECT_TRUE(mentions(p, "T.sync_threads()")) << (p.empty() ? "" : p[0]);
    // A loop whose trip count depends on the thread is divergent too.
    Var v = makeVar("v");
    EXPECT_FALSE(verify(k(forLoop(v, ci(0), tx, ForKind::Serial, sync))).empty());
}

// --- the pass manager ------------------------------------------------------------------------

/// Records which passes ran and what the failed hook saw.
struct Recorder : ts::PassInstrument {
    std::vector<std::string> ran, failedPasses;
    PrimFunc failedShows;
    void after(const ts::PassInfo& p, const PrimFunc&, double, bool) override { ran.push_back(p.name); }
    void failed(const ts::PassInfo& p, const PrimFunc& shown, const std::vector<ts::Diagnostic>&, double) override {
        failedPasses.push_back(p.name);
        failedShows = shown;
    }
};

TEST(PassManagerVerifier, InvalidIrFailsThePassAndStopsThePipeline) {
    Buffer O = buffer("O", {4}, DType::Float32);
    PrimFunc good = storeFunc(O, floatImm(1.0, DType::Float32));
    PrimFunc bad = storeFunc(O, makeVar("ghost", DType::Float32));  // out of scope
    ts::PassManager pm;
    pm.add({"first", "ok", [&](const PrimFunc&, ts::PassContext&) { return storeFunc(O, floatImm(2.0, DType::Float32)); }});
    pm.add({"breaker", "returns invalid IR", [&](const PrimFunc&, ts::PassContext&) { return bad; }});
    bool thirdRan = false;
    pm.add({"third", "must not run", [&](const PrimFunc& f, ts::PassContext&) {
                thirdRan = true;
                return f;
            }});
    Recorder rec;
    pm.addInstrument(&rec);
    pm.setVerifier([](const PrimFunc& f, unsigned) { return verify(f); });
    ts::DiagnosticEngine diags;
    ts::PassContext ctx{diags, {}};
    bool ok = true;
    PrimFunc out = pm.run(good, ctx, ok);
    EXPECT_FALSE(ok);
    EXPECT_FALSE(thirdRan);
    EXPECT_EQ(rec.ran, std::vector<std::string>{"first"});
    EXPECT_EQ(rec.failedPasses, std::vector<std::string>{"breaker"});
    EXPECT_EQ(rec.failedShows, bad);  // the pass viewer shows the invalid IR
    EXPECT_NE(out, bad);              // the last valid IR is the result
    ASSERT_FALSE(diags.all().empty());
    const auto& d = diags.all().back();
    EXPECT_NE(d.message.find("pass 'breaker' produced invalid IR"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("ghost"), std::string::npos) << d.message;
    EXPECT_EQ(d.origin, "breaker");
}

TEST(PassManagerVerifier, FactsReachTheVerifierFromTheEstablishingPassOn) {
    Buffer O = buffer("O", {4}, DType::Float32);
    std::vector<unsigned> seen;
    ts::PassManager pm;
    int n = 0;
    auto changing = [&](const PrimFunc&, ts::PassContext&) { return storeFunc(O, floatImm(double(++n), DType::Float32)); };
    pm.add({"a", "", changing});
    pm.add({"b", "", changing, ts::kFactLayoutsInferred});
    pm.add({"c", "", changing, ts::kFactTileOpsLowered});
    pm.setVerifier([&](const PrimFunc&, unsigned facts) {
        seen.push_back(facts);
        return std::vector<std::string>{};
    });
    ts::DiagnosticEngine diags;
    ts::PassContext ctx{diags, {}};
    bool ok = false;
    pm.run(storeFunc(O, floatImm(0.0, DType::Float32)), ctx, ok);
    EXPECT_TRUE(ok);
    EXPECT_EQ(seen, (std::vector<unsigned>{0u, ts::kFactLayoutsInferred, ts::kFactLayoutsInferred | ts::kFactTileOpsLowered}));
}

// Through compile(): the whole pipeline with the real verifier accepts every sample-like kernel
// (a verifier false positive would fail every compile, so this guards the new checks).
TEST(PassManagerVerifier, RealPipelineAcceptsAGemm) {
    const char* kGemm = R"(import tilelang
import tilelang.language as T

@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        a = T.alloc_shared((64, 32), "float16")
        b = T.alloc_shared((32, 64), "float16")
        c = T.alloc_fragment((64, 64), "float32")
        T.clear(c)
        for k in T.Pipelined(2, num_stages=2):
            T.copy(A[0, k * 32], a)
            T.copy(B[k * 32, 0], b)
            T.gemm(a, b, c)
        T.copy(c, C)
)";
    auto r = ts::compile("gemm.py", kGemm);
    ASSERT_TRUE(r.ok) << (r.diagnostics.empty() ? "" : r.diagnostics[0].message);
    for (auto& s : r.passes) EXPECT_FALSE(s.failed) << s.name;
}

}  // namespace
