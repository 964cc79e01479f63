// The tile-op registry (compiler/ops/Registry.h): every ir::TileOpKind has its op, every T.*
// tile-op name of the language registry (frontend/LanguageRegistry.h) elaborates through exactly
// one op, and the ops' answers the passes rely on (which regions they read and write, which
// copies may be issued asynchronously, how a node is spelled in messages) are the hand-derived
// ones of LANGUAGE.md §3.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "compiler/frontend/LanguageRegistry.h"
#include "compiler/ops/Registry.h"
#include "tests/unit/InterpTestUtil.h"

using namespace interp_test;
namespace ops = ts::ops;

namespace {

const TileOpKind kBuiltins[] = {TileOpKind::Copy, TileOpKind::Gemm,   TileOpKind::Fill,
                                TileOpKind::Reduce, TileOpKind::Cumsum, TileOpKind::Atomic};

const TileOpNode& node(const Stmt& s) { return *as<TileOpNode>(s); }

}  // namespace

TEST(TileOpRegistry, EveryBuiltinKindHasItsOp) {
    for (TileOpKind k : kBuiltins) {
        const ops::TileOp* op = ops::find(k);
        ASSERT_NE(op, nullptr) << tileOpName(k);
        EXPECT_EQ(op->name(), tileOpName(k));
        EXPECT_EQ(ops::kindOf(*op), k);
        EXPECT_FALSE(op->signature().names.empty()) << tileOpName(k);
    }
    // Built-ins come first, in enum order; no gaps before the extension kinds.
    auto ks = ops::kinds();
    ASSERT_GE(ks.size(), std::size(kBuiltins));
    for (size_t i = 0; i < std::size(kBuiltins); ++i) EXPECT_EQ(ks[i], kBuiltins[i]);
    EXPECT_EQ(ops::find(static_cast<TileOpKind>(250)), nullptr);
    EXPECT_THROW(ops::get(static_cast<TileOpKind>(250)), std::logic_error);
}

TEST(TileOpRegistry, EveryLanguageTileOpNameHasExactlyOneOp) {
    // T.print is listed with the tile ops for the IDE but elaborates to an Eval of the print
    // intrinsic, not to a TileOpNode: no op object owns it. T.im2col elaborates to a T.Parallel
    // nest over the tile (compiler/frontend/ElaborateViews.cpp).
    const std::set<std::string_view> notTileOps{"print", "im2col"};
    std::set<std::string_view> languageNames;
    for (const auto& e : ts::fe::kLanguage) {
        if (e.kind != ts::fe::LangKind::TileOp || notTileOps.count(e.name)) continue;
        languageNames.insert(e.name);
        int owners = 0;
        for (TileOpKind k : ops::kinds()) {
            auto sig = ops::get(k).signature();
            for (auto n : sig.names) owners += n == e.name;
            for (auto n : sig.valueNames) owners += n == e.name;
        }
        EXPECT_EQ(owners, 1) << "T." << e.name;
        if (e.name != "GemmWarpPolicy") {
            EXPECT_NE(ops::findByName(e.name), nullptr) << "T." << e.name;
        }
    }
    // ...and the other way: every spelling a built-in op claims is in the language registry.
    for (TileOpKind k : kBuiltins)
        for (auto n : ops::get(k).signature().names) EXPECT_TRUE(languageNames.count(n)) << "T." << n;
    EXPECT_EQ(ops::findByName("reduce_absmax"), ops::find(TileOpKind::Reduce));
    EXPECT_EQ(ops::findByName("clear"), ops::find(TileOpKind::Fill));
    EXPECT_EQ(ops::findByName("atomic_addx4"), ops::find(TileOpKind::Atomic));
    EXPECT_EQ(ops::findByName("no_such_op"), nullptr);
}

TEST(TileOpRegistry, AccessesAreTheOnesOfLanguageMd) {
    Buffer G = buffer("G", {64, 64}, DType::Float16), S = shared("S", {64, 64}, DType::Float16);
    Buffer F = fragment("F", {64, 64}, DType::Float32), R = fragment("R", {64}, DType::Float32);
    using ops::kAtomic, ops::kRead, ops::kWrite;
    const uint8_t RW = kRead | kWrite;

    Stmt cp = copy(whole(G), whole(S));
    const ops::TileOp& copyOp = ops::get(TileOpKind::Copy);
    EXPECT_EQ(copyOp.access(node(cp), 0), kRead);
    EXPECT_EQ(copyOp.access(node(cp), 1), kWrite);
    EXPECT_TRUE(copyOp.asyncProducer(node(cp)));  // global -> shared
    EXPECT_FALSE(copyOp.asyncProducer(node(copy(whole(S), whole(G)))));
    EXPECT_FALSE(copyOp.asyncProducer(node(copy(whole(G), whole(F)))));
    auto sh = copyOp.sharedAccesses(node(cp));
    ASSERT_EQ(sh.size(), 1u);
    EXPECT_EQ(sh[0].arg, 1u);
    EXPECT_EQ(sh[0].access, kWrite);
    EXPECT_EQ(sh[0].region->buffer, S);

    // C is read and written (C += A B) unless clear_accum drops the old value.
    const ops::TileOp& gemmOp = ops::get(TileOpKind::Gemm);
    Stmt g = gemm(whole(S), whole(S), whole(F)), gc = gemm(whole(S), whole(S), whole(F), false, false, true);
    EXPECT_EQ(gemmOp.access(node(g), 0), kRead);
    EXPECT_EQ(gemmOp.access(node(g), 1), kRead);
    EXPECT_EQ(gemmOp.access(node(g), 2), RW);
    EXPECT_EQ(gemmOp.access(node(gc), 2), kWrite);
    EXPECT_EQ(gemmOp.sharedAccesses(node(g)).size(), 2u);  // A and B tiles

    const ops::TileOp& reduceOp = ops::get(TileOpKind::Reduce);
    Stmt r = reduce("max", whole(F), whole(R), 1), rk = reduce("sum", whole(F), whole(R), 1, false);
    EXPECT_EQ(reduceOp.access(node(r), 0), kRead);
    EXPECT_EQ(reduceOp.access(node(r), 1), kWrite);
    EXPECT_EQ(reduceOp.access(node(rk), 1), RW);  // clear=False accumulates into dst
    EXPECT_EQ(reduceOp.spelling(node(r)), "reduce_max");

    const ops::TileOp& fillOp = ops::get(TileOpKind::Fill);
    Stmt c = clear(F);
    EXPECT_EQ(fillOp.access(node(c), 0), kWrite);
    EXPECT_EQ(fillOp.access(node(c), 1), ops::kNoAccess);  // the value is an expression
    EXPECT_EQ(fillOp.spelling(node(c)), "clear");

    const ops::TileOp& atomicOp = ops::get(TileOpKind::Atomic);
    Stmt ar = tileOp(TileOpKind::Atomic, {whole(G), whole(F)}, {{"op", std::string("max")}});
    Stmt ae = tileOp(TileOpKind::Atomic, {region(G, {{ci(0), 1}, {ci(3), 1}}), floatImm(1.0)}, {{"op", std::string("add")}});
    EXPECT_EQ(atomicOp.access(node(ar), 0), kRead | kWrite | kAtomic);
    EXPECT_EQ(atomicOp.access(node(ar), 1), kRead);
    EXPECT_EQ(atomicOp.spelling(node(ar)), "atomic_max");
    EXPECT_FALSE(atomicOp.elementwise(node(ar)));
    EXPECT_TRUE(atomicOp.elementwise(node(ae)));  // one element, lowered inside T.Parallel

    const ops::TileOp& cumsumOp = ops::get(TileOpKind::Cumsum);
    Stmt cs = tileOp(TileOpKind::Cumsum, {whole(S), whole(S)}, {{"dim", int64_t(0)}});
    EXPECT_EQ(cumsumOp.access(node(cs), 0), kRead);
    EXPECT_EQ(cumsumOp.access(node(cs), 1), kWrite);
    EXPECT_EQ(cumsumOp.sharedAccesses(node(cs)).size(), 2u);
}

TEST(TileOpRegistry, RegisteringATakenNameFails) {
    class Clash final : public ops::TileOp {
    public:
        std::string_view name() const override { return "clash"; }
        ops::Signature signature() const override { return {{"copy"}, {}, ""}; }
        uint8_t access(const TileOpNode&, size_t) const override { return ops::kNoAccess; }
        Stmt lower(ts::xform::lower::Ctx&, const TileOpNode&, const ts::Target&) const override { return nullptr; }
        void interpret(ts::interp::detail::Machine&, const TileOpNode&) const override {}
    };
    EXPECT_THROW(ops::registerOp(std::make_unique<Clash>()), std::logic_error);
}
