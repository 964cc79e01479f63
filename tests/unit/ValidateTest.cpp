// `tilec validate` (app/cli/CmdValidate.cpp over compiler/debugger/Validate.h): every pass of
// gemm keeps the float64 result; a deliberately broken test-only pass (zero stores turned into
// ones after lowering, i.e. a wrong T.clear) is caught and named, as is one that drops every
// barrier (the thread interpreter's race checker fails it); and a pipelined loop that consumes
// a shared tile and then overwrites it gives the sequential loop's result after every pass for
// num_stages 0..3.
#include <gtest/gtest.h>

#include "compiler/debugger/Validate.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Intrinsics.h"
#include "tests/unit/CliTestUtil.h"
#include "tests/support/SourceDir.h"

namespace {
using namespace ts;

cli::ValidateCommand gemmCommand() {
    cli::ValidateCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    c.flags.target = "cuda:sm_80";
    c.flags.params = {"M=64", "N=64", "K=64", "block_M=64", "block_N=64", "num_stages=2"};
    return c;
}

TEST(Validate, EveryPassOfGemmMatchesTheFloat64Reference) {
    auto c = gemmCommand();
    auto o = cli::test::captureCli([&] { return cli::runValidate(c); });
    EXPECT_EQ(o.rc, 0) << o.out << o.err;
    EXPECT_TRUE(cli::test::contains(o.out, "against ref_program (float64)")) << o.out;
    EXPECT_TRUE(cli::test::contains(o.out, "simplify-final")) << o.out;
    EXPECT_TRUE(cli::test::contains(o.out, "all 13 interpretations match")) << o.out;
}

/// A pass that turns every store of 0.0 into 1.0 (a wrong clear of the accumulator).
ir::PrimFunc brokenClear(const ir::PrimFunc& f, PassContext&) {
    struct M : ir::Mutator {
        ir::Stmt visitStore(const ir::StoreNode* n, const ir::Stmt& self) override {
            auto* z = dynamic_cast<const ir::FloatImmNode*>(n->value.get());
            if (!z || z->value != 0.0) return self;
            return ir::store(n->buffer, n->indices, ir::floatImm(1.0, z->dtype), n->span);
        }
    } m;
    return ir::withBody(f, m.mutate(f->body));
}

/// A pass that removes every __syncthreads.
ir::PrimFunc dropBarriers(const ir::PrimFunc& f, PassContext&) {
    struct M : ir::Mutator {
        ir::Stmt visitEval(const ir::EvalNode* n, const ir::Stmt& self) override {
            auto* c = dynamic_cast<const ir::CallNode*>(n->call.get());
            return c && c->op == ir::intrin::kSyncThreads ? ir::seq({}) : self;
        }
    } m;
    return ir::withBody(f, m.mutate(f->body));
}

TEST(Validate, ADeliberatelyBrokenPassIsCaughtAndNamed) {
    auto c = gemmCommand();
    c.inject.push_back({"lower-tile-ops", {"broken-clear", "test only: 0.0 stores become 1.0", brokenClear}});
    auto o = cli::test::captureCli([&] { return cli::runValidate(c); });
    EXPECT_EQ(o.rc, 1) << o.out << o.err;
    EXPECT_TRUE(cli::test::contains(o.out, "first pass that changes the result: broken-clear"))
        << o.out;
}

TEST(Validate, APassThatDropsBarriersIsCaughtByTheRaceChecker) {
    auto c = gemmCommand();
    c.inject.push_back({"insert-sync", {"drop-barriers", "test only: no __syncthreads", dropBarriers}});
    auto o = cli::test::captureCli([&] { return cli::runValidate(c); });
    EXPECT_EQ(o.rc, 1) << o.out << o.err;
    EXPECT_TRUE(cli::test::contains(o.out, "first pass that changes the result: drop-barriers"))
        << o.out;
    EXPECT_TRUE(cli::test::contains(o.out, "races with")) << o.out;
}

TEST(Validate, ConsumeThenCopyPipelinedLoopIsSequentialAfterEveryPass) {
    for (int stages = 0; stages <= 3; ++stages) {
        cli::ValidateCommand c;
        c.flags.file = std::string(TS_SOURCE_DIR) + "/tests/debugger/consume_then_copy.py";
        c.flags.target = "cuda:sm_80";
        c.flags.params = {"num_stages=" + std::to_string(stages)};
        auto o = cli::test::captureCli([&] { return cli::runValidate(c); });
        EXPECT_EQ(o.rc, 0) << "num_stages=" << stages << "\n" << o.out << o.err;
        EXPECT_TRUE(cli::test::contains(o.out, "interpretations match")) << o.out;
    }
}

// A T.Parallel that fills a shared tile which a T.gemm then reads (samples/rmsnorm_matmul.py: X * G
// into the GEMM's A tile) has its barrier placed by insert-sync: lower-tile-ops' output is
// interpreted with insert-sync applied, so its missing barrier is not reported as its race (it
// was, before: "first pass that changes the result: lower-tile-ops").
TEST(Validate, BarriersThatInsertSyncPlacesAreNotBlamedOnLowerTileOps) {
    cli::ValidateCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/rmsnorm_matmul.py";
    c.flags.target = "cuda:sm_80";
    c.flags.params = {"M=70", "N=64", "K=96", "block_M=64", "block_N=64", "threads=128"};
    auto o = cli::test::captureCli([&] { return cli::runValidate(c); });
    EXPECT_EQ(o.rc, 0) << o.out << o.err;
    EXPECT_FALSE(cli::test::contains(o.out, "races with")) << o.out;
    EXPECT_TRUE(cli::test::contains(o.out, "interpretations match")) << o.out;
}

}  // namespace
