// instrument-trace (opt-in: CompileOptions::traceBlocks, `tilec trace`; never in a normal
// compile): puts tl.trace_stamp around the sm_90a schedule of the lowered kernel so the GPU
// records when each warp reached each stage boundary (format: compiler/analysis/TraceFormat.h):
//   before / after each mbarrier wait        WaitBegin / WaitEnd  (stage = the barrier's index)
//   before / after each wgmma issue           MmaBegin / MmaEnd
//   before each expect_tx (elected)           Issue               (stage = the barrier's index)
//   after each barrier / arrive in the loop   Release
//   before / after the pipelined loop         LoopBegin / LoopEnd
// Iteration = loop variable - min inside the loop (attr "tma_pipeline"), else kNoIteration. The
// stamps sit next to what the static timeline (compiler/analysis/HopperTimeline.h) models, so
// the measured order can be compared with it event by event. Runs last (after simplify-final):
// it adds statements only, so the schedule under test is the one a normal compile emits.
// Produces: PrimFunc attrs "trace_blocks" (linear block ids traced, in slot order),
// "trace_capacity" (stamps per warp), "trace_warps" (warps per block); codegen then adds the
// `int* ts_trace` parameter after the tensors.
#include <string_view>
#include "compiler/analysis/TraceFormat.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/transforms/InstrumentTrace.h"
#include "compiler/support/Diagnostic.h"

namespace ts::xform {
using namespace ts::ir;
using trace::StampKind;

namespace {

class Instrument : public Mutator {
public:
    int stamps = 0;

protected:
    Stmt visitFor(const ForNode* n, const Stmt& self) override {
        if (!attrBool(n->attrs, "tma_pipeline", false) || m_iter) return Mutator::visitFor(n, self);
        m_iter = sub(n->var, n->min);
        Stmt loop = Mutator::visitFor(n, self);
        m_iter = nullptr;
        return seq({stamp(StampKind::LoopBegin, nullptr, false, n->span), loop, stamp(StampKind::LoopEnd, nullptr, false, n->span)}, n->span);
    }

    Stmt visitEval(const EvalNode* n, const Stmt& self) override {
        auto* c = dynamic_cast<const CallNode*>(n->call.get());
        if (!c) return self;
        const Span sp = n->span;
        if (c->op == intrin::kMbarrierWait) {
            const bool el = c->args.size() > 2 && constInt(c->args[2]).value_or(0) != 0;
            Expr st = stageOf(c->args.at(0));
            return seq({stamp(StampKind::WaitBegin, st, el, sp), self, stamp(StampKind::WaitEnd, st, el, sp)}, sp);
        }
        if (c->op == intrin::kWgmmaSS || c->op == intrin::kWgmmaRS)
            return seq({stamp(StampKind::MmaBegin, nullptr, false, sp), self, stamp(StampKind::MmaEnd, nullptr, false, sp)}, sp);
        if (c->op == intrin::kMbarrierExpectTx) return seq({stamp(StampKind::Issue, stageOf(c->args.at(0)), true, sp), self}, sp);
        if (m_iter && (c->op == intrin::kSyncThreads || c->op == intrin::kMbarrierArrive))
            return seq({self, stamp(StampKind::Release, nullptr, false, sp)}, sp);
        return self;
    }

private:
    /// The barrier's index (tl.address_of(bar[i]) -> i): the stage of the schedule's barriers.
    static Expr stageOf(const Expr& addr) {
        auto* a = as<CallNode>(addr);
        auto* ld = a && !a->args.empty() ? as<LoadNode>(a->args[0]) : nullptr;
        return ld && ld->indices.size() == 1 ? ld->indices[0] : nullptr;
    }
    Stmt stamp(StampKind k, Expr stage, bool elected, Span sp) {
        ++stamps;
        std::vector<Expr> args{intImm(int64_t(k)), m_iter ? m_iter : intImm(trace::kNoIteration),
                               stage ? stage : intImm(trace::kNoStage), intImm(elected ? 1 : 0)};
        return evaluate(call(trace::kTraceStampOp, args, DType::Int32, sp), sp);
    }
    Expr m_iter;
};

}  // namespace

namespace {
thread_local const TraceRequest* t_request = nullptr;
}

const TraceRequest* currentTraceRequest() { return t_request; }
ScopedTraceRequest::ScopedTraceRequest(TraceRequest r) : m_req(std::move(r)), m_prev(t_request) { t_request = &m_req; }
ScopedTraceRequest::~ScopedTraceRequest() { t_request = m_prev; }

PrimFunc instrumentTrace(const PrimFunc& f, PassContext& ctx, const std::vector<int64_t>& blocks, int64_t capacity) {
    if (std::string_view(ctx.target.language()) != "cuda")
        throw CompileError(f->span, "tilec trace instruments CUDA kernels only (target " + ctx.target.name + ")");
    const KernelNode* k = findKernel(f);
    if (!k) return f;
    Instrument in;
    auto out = std::make_shared<PrimFuncNode>(*f);
    out->body = in.mutate(f->body);
    out->attrs["trace_blocks"] = blocks;
    out->attrs["trace_capacity"] = capacity;
    out->attrs["trace_warps"] = (k->threadCount() + 31) / 32;
    return out;
}

}  // namespace ts::xform
