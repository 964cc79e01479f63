// Static pipeline timeline: see PipelineTimeline.h. The event order mirrors inject-pipeline's
// emitted schedule statement by statement; PipelineTimelineTest checks it against hand-derived
// sequences for gemm.py (stages 2/3, trip counts 1/2/5).
#include "compiler/analysis/PipelineTimeline.h"

#include <algorithm>
#include <map>

#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Printer.h"

namespace ts::analysis {
using namespace ts::ir;

const char* timelineEventKindName(TimelineEventKind k) {
    switch (k) {
        case TimelineEventKind::IssueCopy: return "issue_copy";
        case TimelineEventKind::SyncCopy: return "sync_copy";
        case TimelineEventKind::Commit: return "commit";
        case TimelineEventKind::WaitGroup: return "wait_group";
        case TimelineEventKind::Barrier: return "barrier";
        case TimelineEventKind::Release: return "release";
        case TimelineEventKind::Mma: return "mma";
        case TimelineEventKind::Compute: return "compute";
        case TimelineEventKind::ExpectTx: return "expect_tx";
        case TimelineEventKind::TmaLoad: return "tma_load";
        case TimelineEventKind::MbarWait: return "mbarrier_wait";
        case TimelineEventKind::MbarArrive: return "mbarrier_arrive";
        case TimelineEventKind::WgmmaWait: return "wgmma_wait";
        case TimelineEventKind::TmaStore: return "tma_store";
        case TimelineEventKind::TmaReduceAdd: return "tma_reduce_add";
        case TimelineEventKind::BulkCommit: return "bulk_commit";
        case TimelineEventKind::BulkWait: return "bulk_wait";
    }
    return "?";
}

const char* timelinePhaseName(TimelinePhase p) {
    switch (p) {
        case TimelinePhase::Prologue: return "prologue";
        case TimelinePhase::Steady: return "steady";
        case TimelinePhase::Epilogue: return "epilogue";
    }
    return "?";
}

namespace {

std::string firstLine(const Stmt& s) {
    std::string t = toString(s);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\n')) t.pop_back();
    auto nl = t.find('\n');
    if (nl != std::string::npos) t = t.substr(0, nl) + " ...";
    while (!t.empty() && (t.back() == ' ' || t.back() == '\n')) t.pop_back();
    size_t b = t.find_first_not_of(' ');
    return b == std::string::npos ? t : t.substr(b);
}

/// The shared tile a copy writes (producers) or the first shared operand a statement reads.
std::string copyDst(const Stmt& s) {
    auto* t = as<TileOpNode>(s);
    return t && t->isRegion(1) ? t->region(1).buffer->name : "";
}

std::string sharedOperands(const Stmt& s) {
    std::string out;
    walk(s, [&](const Stmt& st) {
        auto* t = as<TileOpNode>(st);
        if (!t) return;
        for (auto& a : t->args)
            if (auto* r = std::get_if<Region>(&a); r && r->buffer->scope == Scope::Shared &&
                                                   out.find(r->buffer->name) == std::string::npos)
                out += (out.empty() ? "" : ",") + r->buffer->name;
    });
    return out;
}

/// Short name of a consumer statement for labels: "mma", "copy", "reduce", "parallel", ...
std::string stmtKind(const Stmt& s) {
    if (auto* t = as<TileOpNode>(s)) {
        return t->op == TileOpKind::Gemm ? "mma" : tileOpName(t->op);
    }
    if (auto* f = as<ForNode>(s)) return f->forKind == ForKind::Parallel ? "parallel" : "loop";
    return "statement";
}

bool isGemm(const Stmt& s) {
    auto* t = as<TileOpNode>(s);
    return t && t->op == TileOpKind::Gemm;
}

class Builder {
public:
    Builder(const ForNode* loop, int64_t n, int64_t threads, bool inflight) : m_loop(loop), m_n(n), m_inflight(inflight) {
        m_out.loopSpan = loop->span;
        m_out.loopVar = loop->var->name;
        m_out.tripCount = n;
        auto producers = attrInts(loop->attrs, "pipeline_producers");
        int64_t S = attrInt(loop->attrs, "num_stages", 1);
        auto* sq = as<SeqNode>(loop->body);
        m_body = sq ? sq->stmts : std::vector<Stmt>{loop->body};
        for (size_t i = 0; i < m_body.size(); ++i) {
            bool isProd = std::find(producers.begin(), producers.end(), int64_t(i)) != producers.end();
            (isProd ? m_prod : m_cons).push_back(int(i));
            (isProd ? m_out.producers : m_out.consumers).push_back(firstLine(m_body[i]));
        }
        m_out.async = !m_prod.empty() && S >= 2;  // inject-pipeline's condition
        m_out.stages = m_out.async ? S : 1;
        m_inflight = m_inflight && m_out.async && S >= 3;  // the transform's own condition too
        m_out.wgmmaInflight = m_inflight;
        m_out.ahead = m_out.async ? S - (m_inflight ? 2 : 1) : 0;
        m_out.roles.push_back({"all warps", threads, {}});
    }

    PipelineTimeline build() {
        if (m_out.async) buildAsync();
        else buildSync();
        return std::move(m_out);
    }

private:
    TimelineEvent& add(TimelineEventKind k, TimelinePhase ph, int64_t iter, std::string label, int bodyIndex = -1) {
        auto& evs = m_out.roles[0].events;
        TimelineEvent e;
        e.kind = k;
        e.phase = ph;
        e.step = int64_t(evs.size());
        e.iteration = iter;
        e.label = std::move(label);
        e.bodyIndex = bodyIndex;
        if (bodyIndex >= 0) {
            e.irStmt = firstLine(m_body[size_t(bodyIndex)]);
            e.span = m_body[size_t(bodyIndex)]->span;
        } else {
            e.span = m_loop->span;
        }
        evs.push_back(std::move(e));
        return evs.back();
    }
    int64_t S() const { return m_out.stages; }

    void issueTile(int64_t tile, TimelinePhase ph, int64_t iter) {
        int64_t stage = tile % S();
        for (int i : m_prod) {
            std::string buf = copyDst(m_body[size_t(i)]);
            auto& e = add(TimelineEventKind::IssueCopy, ph, iter,
                          "issue " + buf + "[k=" + std::to_string(tile) + "] -> stage " + std::to_string(stage), i);
            e.tile = tile, e.stage = stage, e.buffer = buf;
            if (i == m_prod.front()) m_occ[tile] = {stage, tile, e.step, -1, -1};
        }
    }
    void commit(TimelinePhase ph, int64_t iter, bool empty) {
        int64_t g = m_out.groupsCommitted++;
        auto& e = add(TimelineEventKind::Commit, ph, iter,
                      "commit group " + std::to_string(g) + (empty ? " (empty)" : ""));
        e.group = g, e.empty = empty;
        e.irStmt = "tl.cp_async_commit()";
    }
    void wait(TimelinePhase ph, int64_t iter, int64_t pending) {
        // Groups complete after the wait: all but the `pending` most recent.
        int64_t complete = m_out.groupsCommitted - pending - 1;
        auto& e = add(TimelineEventKind::WaitGroup, ph, iter,
                      "wait cp.async (" + std::to_string(pending) + " pending): groups 0.." + std::to_string(complete) +
                          " complete");
        e.group = complete, e.pending = pending;
        e.irStmt = "tl.cp_async_wait(" + std::to_string(pending) + ")";
        // Group g carries tile g (prologue group p = tile p; main-loop group of iteration j =
        // tile j+S-1), so every tile <= complete has landed.
        for (auto& [tile, o] : m_occ)
            if (o.landedStep < 0 && tile <= complete) o.landedStep = e.step;
    }
    void release(TimelinePhase ph, int64_t iter, int64_t tile) {
        auto& e = add(TimelineEventKind::Release, ph, iter,
                      "release stage " + std::to_string(tile % S()) + " (tile k=" + std::to_string(tile) + ")");
        e.tile = tile, e.stage = tile % S();
        e.buffer = sharedOfProducers();
        m_occ[tile].releaseStep = e.step;
    }
    std::string sharedOfProducers() const {
        std::string out;
        for (int i : m_prod) out += (out.empty() ? "" : ",") + copyDst(m_body[size_t(i)]);
        return out;
    }
    void consumers(int64_t k, bool staged) {
        for (int i : m_cons) {
            const Stmt& s = m_body[size_t(i)];
            bool mma = isGemm(s);
            // Only statements that read a multi-buffered tile are tied to stage k % S.
            std::string shared = sharedOperands(s);
            bool readsStage = false;
            for (int p : m_prod)
                if (std::string d = copyDst(m_body[size_t(p)]); !d.empty() && shared.find(d) != std::string::npos) readsStage = true;
            bool onStage = staged && readsStage;
            auto& e = add(mma ? TimelineEventKind::Mma : TimelineEventKind::Compute, TimelinePhase::Steady, k,
                          stmtKind(s) + " k=" + std::to_string(k) + (onStage ? " (stage " + std::to_string(k % S()) + ")" : ""), i);
            e.tile = k;
            e.buffer = shared;
            if (onStage) e.stage = k % S();
        }
    }

    void buildAsync() {
        if (m_inflight) return buildInflight();
        // Prologue: S-1 groups, tiles 0..S-2 (a group stays empty when the loop is shorter).
        for (int64_t p = 0; p < S() - 1; ++p) {
            if (p < m_n) issueTile(p, TimelinePhase::Prologue, -1);
            commit(TimelinePhase::Prologue, -1, p >= m_n);
        }
        for (int64_t k = 0; k < m_n; ++k) {
            wait(TimelinePhase::Steady, k, S() - 2);
            auto& b = add(TimelineEventKind::Barrier, TimelinePhase::Steady, k, "barrier (all threads)");
            b.irStmt = "T.sync_threads()";
            if (k >= 1) release(TimelinePhase::Steady, k, k - 1);
            int64_t next = k + S() - 1;
            if (next < m_n) issueTile(next, TimelinePhase::Steady, k);
            commit(TimelinePhase::Steady, k, next >= m_n);
            consumers(k, true);
        }
        wait(TimelinePhase::Epilogue, -1, 0);
        if (m_n >= 1) release(TimelinePhase::Epilogue, -1, m_n - 1);
        for (auto& [tile, o] : m_occ) m_out.occupancy.push_back(o);
    }

    // InjectPipelineWgmmaGeneric.cpp: tiles S-2 ahead; at iteration k the barrier also follows
    // every thread's retirement of wgmma k-2 (its wait_group in iteration k-1), which frees tile
    // k-2's stage; the gemms of iteration k stay in flight (wait_group G) but in the last one.
    void buildInflight() {
        int64_t G = 0;
        for (int i : m_cons) G += isGemm(m_body[size_t(i)]);
        for (int64_t p = 0; p < S() - 2; ++p) {
            if (p < m_n) issueTile(p, TimelinePhase::Prologue, -1);
            commit(TimelinePhase::Prologue, -1, p >= m_n);
        }
        for (int64_t k = 0; k < m_n; ++k) {
            wait(TimelinePhase::Steady, k, S() - 3);
            auto& b = add(TimelineEventKind::Barrier, TimelinePhase::Steady, k, "barrier (all threads)");
            b.irStmt = "T.sync_threads()";
            if (k >= 2) release(TimelinePhase::Steady, k, k - 2);
            int64_t next = k + S() - 2;
            if (next < m_n) issueTile(next, TimelinePhase::Steady, k);
            commit(TimelinePhase::Steady, k, next >= m_n);
            consumers(k, true);
            const int64_t pending = k + 1 < m_n ? G : 0;
            auto& w = add(TimelineEventKind::WgmmaWait, TimelinePhase::Steady, k,
                          "wgmma wait_group " + std::to_string(pending) + (pending ? " (iteration k stays in flight)" : ""));
            w.pending = pending;
            w.irStmt = "wgmma.wait_group " + std::to_string(pending);
        }
        wait(TimelinePhase::Epilogue, -1, 0);
        for (int64_t t = std::max<int64_t>(0, m_n - 2); t < m_n; ++t) release(TimelinePhase::Epilogue, -1, t);
        for (auto& [tile, o] : m_occ) m_out.occupancy.push_back(o);
    }

    void buildSync() {
        for (int64_t k = 0; k < m_n; ++k)
            for (size_t i = 0; i < m_body.size(); ++i) {
                const Stmt& s = m_body[i];
                auto* t = as<TileOpNode>(s);
                bool copyToShared = t && t->op == TileOpKind::Copy && t->isRegion(1) &&
                                    t->region(1).buffer->scope == Scope::Shared;
                if (copyToShared) {
                    auto& e = add(TimelineEventKind::SyncCopy, TimelinePhase::Steady, k,
                                  "copy " + copyDst(s) + "[k=" + std::to_string(k) + "] (synchronous)", int(i));
                    e.tile = k, e.buffer = copyDst(s);
                } else {
                    m_cons = {int(i)};
                    consumers(k, false);
                }
            }
    }

    const ForNode* m_loop;
    int64_t m_n;
    bool m_inflight = false;
    std::vector<Stmt> m_body;
    std::vector<int> m_prod, m_cons;
    std::map<int64_t, StageOccupancy> m_occ;
    PipelineTimeline m_out;
};

}  // namespace

TimelineResult buildPipelineTimeline(const PrimFunc& planned, int64_t tripOverride,
                                     const std::function<bool(const ForNode&)>& inflight) {
    TimelineResult r;
    int64_t threads = 0;
    if (const KernelNode* kn = findKernel(planned)) {
        threads = 1;
        for (int64_t t : kn->threads) threads *= t;
    }
    walk(planned->body, [&](const Stmt& s) {
        auto* f = as<ForNode>(s);
        if (!f || f->forKind != ForKind::Pipelined) return;
        auto ext = constInt(f->extent);
        if (!ext && tripOverride <= 0) {
            r.notes.push_back("line " + std::to_string(f->span.line) + ": T.Pipelined trip count '" + toString(f->extent) +
                              "' is not a constant; give one with --trips N");
            return;
        }
        int64_t n = ext ? *ext : tripOverride;
        r.loops.push_back(Builder(f, std::max<int64_t>(n, 0), threads, inflight && inflight(*f)).build());
    });
    return r;
}

}  // namespace ts::analysis
