// The sm_80 lowering order. Read top to bottom; "why here" notes where order matters.
#include "compiler/Pipeline.h"

#include <algorithm>

#include "compiler/ir/Printer.h"
#include "compiler/ir/Verifier.h"
#include "compiler/transforms/InstrumentTrace.h"
#include "compiler/transforms/Passes.h"

namespace ts {

std::vector<PassInfo> pipelineFor(const Target& target) {
    // sm_90a (target.archSpecific, sm 90): infer-layouts picks TMA + wgmma for qualifying gemms
    // (compiler/transforms/Hopper.h); inject-pipeline and lower-tile-ops follow the layouts it
    // chose. No separate pass: the same order serves both targets.
    std::vector<PassInfo> passes{
        {"simplify", "fold constants, canonicalise index arithmetic, drop dead branches", xform::simplify},
        {"rasterize-blocks", "block order for L2 reuse: T.use_swizzle, or panels of block rows for gemm kernels",
         xform::rasterizeBlocks},
        // Before layout inference: errors about the user's regions read better on tile-level IR.
        {"check-bounds", "report statically out-of-bounds on-chip regions and accesses", xform::checkBounds},
        {"infer-layouts", "fragment layouts (mma/wgmma accumulators, block fragments), shared swizzles, warp grids",
         xform::inferLayouts, kFactLayoutsInferred},
        {"plan-pipelines", "split T.Pipelined bodies into async producers and consumers, keeping RAW/WAR order",
         xform::planPipelines},
        // Tile level, before lowering: multi-buffering is a rewrite of whole tiles and regions.
        {"inject-pipeline", "multi-stage schedule: cp.async groups, or on sm_90a TMA loads on mbarriers; staged tiles",
         xform::injectPipeline},
        // After inject-pipeline (prologue + main loop are final), at tile level (whole-tile writes
        // are still visible as T.copy / T.Parallel).
        {"iteration-smem", "mark shared tiles every loop iteration overwrites before reading (plan-smem may reuse their bytes)",
         xform::markIterationSmem},
        {"lower-tile-ops", "copy/gemm/fill/reduce/atomic/Parallel -> thread-level code and intrinsics",
         xform::lowerTileOps, kFactTileOpsLowered},
        // After lowering: hazards are between the concrete per-thread accesses.
        {"insert-sync", "minimal __syncthreads for shared-memory RAW/WAR hazards", xform::insertSync},
        {"plan-smem", "offsets of shared buffers in dynamic shared memory", xform::planSharedMemory},
        {"lower-to-threads", "flatten indices through layouts (row-major, padding, swizzle)", xform::lowerToThreads},
        {"simplify-final", "fold the index arithmetic the lowering produced", xform::simplify},
    };
    // sm_90a: a producer warpgroup for the TMA issue of attention-style loops (WarpSpecialize.cpp),
    // on thread-level code so that barriers inside consumer-only code can become named ones.
    // sm_90a: a wgmma accumulator stored to global at the end goes through a swizzled shared
    // tile and a TMA store (StageEpilogue.cpp), at tile level before lowering.
    if (target.hasWgmma()) {
        auto at = std::find_if(passes.begin(), passes.end(), [](const auto& p) { return p.name == std::string("inject-pipeline"); });
        if (at != passes.end())
            passes.insert(at + 1, {"stage-epilogue", "sm_90a: a wgmma accumulator's final store to global goes through a swizzled shared tile and TMA",
                                   xform::stageEpilogue});
    }
    // sm_90a: after insert-sync (its barriers are final), before plan-smem (liveness follows the
    // final order): a plain TMA copy's wait moves down to the tile's first use (SinkTmaWaits.cpp).
    if (target.hasWgmma()) {
        auto at = std::find_if(passes.begin(), passes.end(), [](const auto& p) { return p.name == std::string("insert-sync"); });
        if (at != passes.end())
            passes.insert(at + 1, {"sink-tma-waits", "sm_90a: a plain TMA copy's mbarrier wait moves to the tile's first use, so copies in a row overlap",
                                   xform::sinkTmaWaits});
    }
    if (target.hasWgmma())
        passes.insert(passes.end() - 1, {"warp-specialize", "sm_90a: a producer warpgroup issues the TMA loads of fragment-path pipelines",
                                         xform::warpSpecialize});
    return passes;
}

namespace {

class SnapshotRecorder : public PassInstrument {
public:
    SnapshotRecorder(std::vector<PassSnapshot>& out, bool printIr, DiagnosticEngine& diags)
        : m_out(out), m_print(printIr), m_diags(diags) {}
    void before(const PassInfo&, const ir::PrimFunc&) override { m_firstDiag = m_diags.all().size(); }
    void after(const PassInfo& p, const ir::PrimFunc& result, double micros, bool changed) override {
        PassSnapshot s = base(p, micros);
        s.changed = changed;
        if (m_print) {
            auto pr = ir::print(result);
            s.ir = std::move(pr.text);
            s.lines = std::move(pr.lines);
        }
        m_out.push_back(std::move(s));
    }
    void failed(const PassInfo& p, const ir::PrimFunc& input, const std::vector<Diagnostic>&, double micros) override {
        PassSnapshot s = base(p, micros);
        s.failed = true;
        if (m_print) {
            auto pr = ir::print(input);
            s.ir = std::move(pr.text);
            s.lines = std::move(pr.lines);
        }
        m_out.push_back(std::move(s));
    }

private:
    PassSnapshot base(const PassInfo& p, double micros) {
        PassSnapshot s;
        s.name = p.name;
        s.summary = p.summary;
        s.micros = micros;
        for (size_t i = m_firstDiag; i < m_diags.all().size(); ++i) s.diagnostics.push_back(m_diags.all()[i]);
        return s;
    }
    std::vector<PassSnapshot>& m_out;
    bool m_print;
    DiagnosticEngine& m_diags;
    size_t m_firstDiag = 0;
};

}  // namespace

PipelineOutput runPipeline(const ir::PrimFunc& elaborated, const Target& target, const CompileOptions& opts,
                           DiagnosticEngine& diags, const std::vector<std::string>& skip) {
    PipelineOutput out;
    PassManager pm;
    auto passes = pipelineFor(target);
    // tilec trace: the stamps go in last, on the code a normal compile emits.
    if (const xform::TraceRequest* tr = xform::currentTraceRequest(); tr && !tr->blocks.empty()) {
        xform::TraceRequest req = *tr;
        passes.push_back({"instrument-trace", "tilec trace: %globaltimer stamps at stage boundaries and barrier waits",
                          [req](const ir::PrimFunc& f, PassContext& ctx) { return xform::instrumentTrace(f, ctx, req.blocks, req.capacity); }});
    }
    // Cancellation: a pass wrapper that stops before the next pass when asked.
    for (auto& p : passes) {
        if (std::find(skip.begin(), skip.end(), p.name) != skip.end())
            continue;
        PassFn inner = p.run;
        const std::atomic<bool>* cancel = opts.cancel;
        p.run = [inner, cancel](const ir::PrimFunc& f, PassContext& ctx) -> ir::PrimFunc {
            if (cancel && cancel->load()) throw CompileError(Span{}, "compile cancelled");
            return inner(f, ctx);
        };
        pm.add(p);
    }
    SnapshotRecorder rec(out.passes, opts.recordSnapshots, diags);
    pm.addInstrument(&rec);
    if (opts.verify)
        pm.setVerifier([](const ir::PrimFunc& f, unsigned facts) {
            ir::VerifyFacts vf;
            vf.layoutsInferred = facts & kFactLayoutsInferred;
            vf.tileOpsLowered = facts & kFactTileOpsLowered;
            return ir::verify(f, vf);
        });
    PassContext ctx{diags, target};
    bool ok = false;
    // Target line: every pass, the bank model and the thread interpreter count lanes per
    // warp/wavefront from the function (64 on hip:gfx90a), not from the target.
    ir::PrimFunc input = elaborated;
    if (elaborated && target.warpSize() != 32) {
        auto f = std::make_shared<ir::PrimFuncNode>(*elaborated);
        f->attrs["warp_size"] = int64_t(target.warpSize());
        input = f;
    }
    out.lowered = pm.run(input, ctx, ok, opts.stopAfter);
    for (auto& s : out.passes) out.micros += s.micros;
    out.ok = ok && !diags.hasErrors();
    out.stopped = !opts.stopAfter.empty() && !out.passes.empty() && out.passes.back().name == opts.stopAfter;
    return out;
}

}  // namespace ts
