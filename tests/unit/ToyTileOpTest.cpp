// "A new tile op is one file" (DESIGN.md §2a): a toy op defined only here, T.negate(src, dst)
// (dst = -src element-wise), registered at run time, goes through the whole pipeline without
// any pass knowing it: check-bounds runs its check, plan-pipelines and insert-sync see its
// accesses, lower-tile-ops lowers it through its TileOp::lower, codegen prints the result, and
// both interpreters run it. The expected values are the float64 negation of the inputs.
#include <gtest/gtest.h>

#include "compiler/Pipeline.h"
#include "compiler/codegen/CudaCodegen.h"
#include "compiler/interp/Machine.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "compiler/ir/Printer.h"
#include "compiler/ops/Registry.h"
#include "compiler/support/Diagnostic.h"
#include "compiler/transforms/LowerCommon.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/unit/InterpTestUtil.h"

using namespace interp_test;
namespace ops = ts::ops;
namespace lw = ts::xform::lower;

namespace {

class NegateOp final : public ops::TileOp {
public:
    std::string_view name() const override { return "negate"; }
    ops::Signature signature() const override { return {{"negate"}, {}, "src Region, dst Region"}; }
    uint8_t access(const TileOpNode& n, size_t arg) const override {
        if (!n.isRegion(arg)) return ops::kNoAccess;
        return arg == 0 ? ops::kRead : arg == 1 ? ops::kWrite : ops::kNoAccess;
    }
    void check(ops::CheckContext& c, const TileOpNode& n) const override {
        const Buffer& d = n.region(1).buffer;
        if (d->dtype == DType::UInt32 || d->dtype == DType::UInt8)
            c.diags.error(n.span, "T.negate: destination '" + d->name + "' is unsigned", "use a signed dtype",
                          "check-bounds");
    }
    // One element per thread and iteration over the squeezed region, out-of-bounds global
    // elements skipped (as T.copy does).
    Stmt lower(lw::Ctx& c, const TileOpNode& n, const ts::Target&) const override {
        const Region &src = n.region(0), &dst = n.region(1);
        auto ext = lw::squeezedExtents(dst);
        if (!ext || ext != lw::squeezedExtents(src)) {
            c.error(n.span, "T.negate: regions of one constant shape only");
            return nullptr;
        }
        int64_t total = 1;
        for (int64_t e : *ext) total *= e;
        Var it = makeVar(c.fresh("v"), DType::Int32, n.span);
        Expr lin = add(mul(it, intImm(c.threads)), c.tx);
        auto sq = lw::delinearize(lin, *ext);
        auto sIdx = lw::regionIndex(src, sq), dIdx = lw::regionIndex(dst, sq);
        Stmt body = store(dst.buffer, dIdx, cast(dst.buffer->dtype, unary(UnOp::Neg, load(src.buffer, sIdx))), n.span);
        Expr guard = logicalAnd(lw::inBounds(dst.buffer, dIdx), lw::inBounds(src.buffer, sIdx));
        if (total % c.threads != 0) guard = logicalAnd(lt(lin, intImm(total)), guard);
        if (guard) body = ifThen(guard, body, nullptr, n.span);
        return forLoop(it, intImm(0), intImm((total + c.threads - 1) / c.threads), ForKind::Serial, body,
                       {{"thread_loop", true}}, n.span);
    }
    void interpret(ts::interp::detail::Machine& m, const TileOpNode& n) const override {
        auto s = m.evalRegion(&n, 0), d = m.evalRegion(&n, 1);
        if (s.ext != d.ext) m.fail(n.span, "T.negate: source and destination shapes differ");
        std::vector<int64_t> idx(d.ext.size(), 0);
        int64_t count = 1;
        for (int64_t e : d.ext) count *= e;
        for (int64_t k = 0; k < count; ++k) {
            int64_t so = 0, dof = 0;
            bool in = true;
            for (size_t a = 0; a < idx.size(); ++a) {
                int64_t si = s.start[a] + idx[a], di = d.start[a] + idx[a];
                in &= si >= 0 && si < s.buf->shape[a] && di >= 0 && di < d.buf->shape[a];
                so += si * s.buf->strides[a], dof += di * d.buf->strides[a];
            }
            if (in) d.buf->data[dof] = ts::interp::detail::roundValue(d.buf->dtype, -s.buf->data[so]);
            for (size_t a = idx.size(); a-- > 0;)
                if (++idx[a] < d.ext[a]) break;
                else idx[a] = 0;
        }
    }
};

TileOpKind negateKind() {
    static const TileOpKind k = ops::registerOp(std::make_unique<NegateOp>());
    return k;
}

// Two blocks of 64 threads over N = 100 floats: A -> shared tile (T.copy) -> T.negate -> B.
// The second block's last 28 elements lie outside A and B (predicated).
PrimFunc negateFunc(DType outType = DType::Float32) {
    const int64_t N = 100, blk = 64;
    Buffer A = buffer("A", {N}, DType::Float32), B = buffer("B", {N}, outType), S = shared("S", {blk}, DType::Float32);
    Var bx = blockVar("bx", 0);
    Stmt body = seq({alloc(S), copy(region(A, {{mul(bx, ci(blk)), blk}}), whole(S)),
                     tileOp(negateKind(), {whole(S), region(B, {{mul(bx, ci(blk)), blk}})})});
    auto f = std::make_shared<PrimFuncNode>(*func("main", {A, B}, kernel({ci(2)}, {bx}, body, 64)));
    f->outputs = {1};
    return f;
}

struct Lowered {
    ts::PipelineOutput pipe;
    ts::codegen::CudaOutput cuda;
    std::string diags;
};

Lowered lowerFor(const PrimFunc& f, const ts::Target& t) {
    ts::DiagnosticEngine d;
    ts::CompileOptions opts;
    Lowered out;
    out.pipe = ts::runPipeline(f, t, opts, d);
    if (out.pipe.ok) out.cuda = ts::codegen::emitCuda(out.pipe.lowered, t, d);
    for (auto& x : d.all()) out.diags += x.message + "\n";
    return out;
}

}  // namespace

TEST(ToyTileOp, RegisteredUnderAFreshKindAndPrinted) {
    TileOpKind k = negateKind();
    EXPECT_GE(static_cast<int>(k), int(kFirstExtensionTileOp));
    EXPECT_EQ(ops::findByName("negate"), ops::find(k));
    EXPECT_STREQ(tileOpName(k), "negate");
    EXPECT_NE(print(negateFunc()).text.find("T.negate(S, B[bx * 64:bx * 64 + 64])"), std::string::npos)
        << print(negateFunc()).text;
}

TEST(ToyTileOp, TileInterpreterRunsItsInterpret) {
    std::vector<HostTensor> args{randomTensor(DType::Float32, {100}, 7), filledTensor(DType::Float32, {100}, NAN)};
    auto r = ts::interp::run(negateFunc(), args);
    ASSERT_INTERP_OK(r);
    for (size_t i = 0; i < 100; ++i) EXPECT_EQ(args[1].data[i], -args[0].data[i]) << i;
}

TEST(ToyTileOp, LowersThroughEveryPassAndRunsThreadByThread) {
    for (const char* arch : {"sm_80", "sm_90a"}) {
        ts::Target t = *ts::parseTarget(arch);
        Lowered l = lowerFor(negateFunc(), t);
        ASSERT_TRUE(l.pipe.ok) << arch << "\n" << l.diags;
        std::string ir = print(l.pipe.lowered).text;
        EXPECT_EQ(ir.find("T.negate"), std::string::npos) << ir;  // lowered away
        // insert-sync saw the op's shared read after the copy's shared writes: a barrier between.
        EXPECT_NE(ir.find("sync_threads"), std::string::npos) << ir;
        EXPECT_NE(l.cuda.source.find("-"), std::string::npos);

        // The lowered kernel, thread by thread (races and out-of-bounds accesses are errors).
        std::vector<HostTensor> args{randomTensor(DType::Float32, {100}, 11), filledTensor(DType::Float32, {100}, NAN)};
        auto r = ts::interp::runLowered(l.pipe.lowered, args);
        ASSERT_INTERP_OK(r);
        for (size_t i = 0; i < 100; ++i) EXPECT_EQ(args[1].data[i], -args[0].data[i]) << arch << " " << i;

        if (!ts::rt::nvrtcAvailable()) continue;
        auto c = ts::rt::compileCuda(l.cuda.source, t.arch(), {}, false);
        EXPECT_TRUE(c.ok) << arch << "\n" << c.log << "\n" << l.cuda.source;
    }
}

TEST(ToyTileOp, CheckReportsThroughCheckBounds) {
    Lowered l = lowerFor(negateFunc(DType::UInt32), ts::Target{});
    EXPECT_FALSE(l.pipe.ok);
    EXPECT_NE(l.diags.find("T.negate: destination 'B' is unsigned"), std::string::npos) << l.diags;
    ASSERT_FALSE(l.pipe.passes.empty());
    EXPECT_EQ(l.pipe.passes.back().name, "check-bounds");
}
