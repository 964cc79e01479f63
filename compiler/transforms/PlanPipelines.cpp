// plan-pipelines: decides, for every T.Pipelined loop, which statements are producers (global ->
// shared copies that can be issued num_stages-1 iterations early as cp.async) and which are
// consumers, keeping every dependence of the sequential loop:
//  - RAW inside an iteration (consumer reads what the producer wrote): kept by waiting for the
//    copy group before the consumers run;
//  - WAR across iterations (a producer overwrites a tile consumers of an earlier iteration still
//    read): kept by giving each in-flight iteration its own buffer (num_stages copies) and a
//    barrier before the producer is issued;
//  - loop-carried RAW (a statement reads the tile before the producer of the same iteration
//    wrote it, i.e. last iteration's tile), a producer whose source is written in the loop, a
//    tile written by anything else, or a tile used after the loop: these cannot be reordered, so
//    the producer stays synchronous and a warning says why.
// On a target without cp.async (Target::hasCpAsync: hip:gfx90a) the producers are synchronous
// copies and more than two buffers add no overlap: num_stages is capped at 2 there, with a
// warning at the loop.
// Requires: elaborated IR. Produces: For attrs "pipeline_producers" (body indices) and the
// effective "num_stages". Invalidates: nothing.
#include <algorithm>
#include <map>
#include <set>

#include "compiler/ir/IR.h"
#include "compiler/ir/Views.h"
#include "compiler/ops/Registry.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

// Accesses are keyed by the storage a buffer lies on (ir/Views.h storageName): a shared view
// (T.view / T.reshape of a T.alloc_shared tile) by the tile it views, a view of a kernel tensor by
// that parameter. Keyed by buffer, a copy into a view of a
// tile that a gemm before it reads looked independent of that gemm and was hoisted before it.
// `viewReads`: the shared tiles read through a view of them (storage -> the view's name).
struct Access {
    std::set<std::string> reads, writes;
    std::map<std::string, std::string> viewReads;
    std::map<std::string, std::set<std::string>> readNames;  ///< storage -> the names it is read as
};

Access accessesOf(const PrimFuncNode& f, const Stmt& s) {
    Access a;
    auto read = [&](const BufferNode& b) {
        std::string k = storageName(f, b);
        if (b.scope == Scope::Shared && k != b.name) a.viewReads.emplace(k, b.name);
        a.readNames[k].insert(b.name);
        a.reads.insert(std::move(k));
    };
    walk(
        s,
        [&](const Stmt& st) {
            if (auto* t = as<TileOpNode>(st)) {
                const ops::TileOp& op = ops::get(t->op);
                for (size_t i = 0; i < t->args.size(); ++i) {
                    auto* r = std::get_if<Region>(&t->args[i]);
                    if (!r) continue;
                    uint8_t acc = op.access(*t, i);
                    if (acc & ops::kWrite) a.writes.insert(storageName(f, *r->buffer));
                    if (acc & ops::kRead) read(*r->buffer);
                }
            } else if (auto* st2 = as<StoreNode>(st)) {
                a.writes.insert(storageName(f, *st2->buffer));
            }
        },
        [&](const Expr& e) {
            if (auto* l = as<LoadNode>(e)) read(*l->buffer);
        });
    return a;
}

bool isProducerCandidate(const Stmt& s) {
    auto* t = as<TileOpNode>(s);
    return t && ops::get(t->op).asyncProducer(*t);
}

class Planner : public Mutator {
public:
    Planner(PassContext& ctx, const PrimFuncNode& f) : m_ctx(ctx), m_func(f), m_root(f.body) {}

protected:
    Stmt visitFor(const ForNode* n, const Stmt& self) override {
        Stmt body = mutate(n->body);
        if (n->forKind != ForKind::Pipelined) return body == n->body ? self : forLoop(n->var, n->min, n->extent, n->forKind, body, n->attrs, n->span);
        int64_t stages = attrInt(n->attrs, "num_stages", 1);
        auto* sq = as<SeqNode>(body);
        std::vector<Stmt> stmts = sq ? sq->stmts : std::vector<Stmt>{body};
        std::vector<int64_t> producers;
        if (stages >= 2) {
            std::vector<Access> acc;
            for (auto& s : stmts) acc.push_back(accessesOf(m_func, s));
            for (size_t i = 0; i < stmts.size(); ++i) {
                if (!isProducerCandidate(stmts[i])) continue;
                auto* t = as<TileOpNode>(stmts[i]);
                const BufferNode* dst = t->region(1).buffer.get();
                const BufferNode* src = t->region(0).buffer.get();
                const std::string dstKey = storageName(m_func, *dst), srcKey = storageName(m_func, *src);
                // Names the viewed tile too when the copy writes through a view of it.
                const std::string dstName = dstKey == dst->name ? "'" + dst->name + "'" : "'" + dst->name + "' (a view of '" + dstKey + "')";
                std::string why, hint = "restructure the loop so each shared tile is written only by its copy";
                for (size_t j = 0; j < stmts.size() && why.empty(); ++j) {
                    if (j == i) continue;
                    if (acc[j].writes.count(dstKey)) why = dstName + " is also written by another statement of the loop";
                    else if (j < i && acc[j].reads.count(dstKey))
                        why = "a statement before the copy reads " + dstName + " (it would see the previous iteration's tile)";
                    else if (acc[j].writes.count(srcKey)) why = "the loop writes the copy's source '" + src->name + "'";
                    else if (auto r = acc[j].readNames.find(dstKey);
                             dstKey != dst->name && r != acc[j].readNames.end() &&
                             std::any_of(r->second.begin(), r->second.end(), [&](const std::string& x) { return x != dst->name; })) {
                        // The copy writes the tile through a view: staging would give the view a
                        // leading stage dimension and leave the tile (and its other views) on the
                        // first stage's bytes, so the loop would read stale data.
                        const std::string other = *std::find_if(r->second.begin(), r->second.end(), [&](const std::string& x) { return x != dst->name; });
                        why = "it writes '" + dstKey + "' through its view '" + dst->name + "' and the loop reads those bytes as '" + other +
                              "', which would stay on the first stage";
                        hint = "copy into '" + dstKey + "' itself, or read the data through '" + dst->name + "' in the loop";
                    } else if (auto v = acc[j].viewReads.find(dstKey); v != acc[j].viewReads.end()) {
                        // Staging gives the tile a leading stage dimension; a view of it keeps the
                        // tile's first bytes (plan-smem), so it would read stage 0 whatever the iteration.
                        why = "the loop reads '" + dstKey + "' through its view '" + v->second + "', which would stay on the first of the tile's stages";
                        hint = "read '" + dstKey + "' itself in the loop, or copy it into a buffer of the view's shape";
                    }
                }
                if (why.empty() && usedOutside(dstKey, n)) why = dstName + " is used outside the loop";
                if (!why.empty()) {
                    m_ctx.diags.warning(t->span, "T.Pipelined: this copy stays synchronous because " + why, hint, "plan-pipelines");
                    continue;
                }
                producers.push_back(static_cast<int64_t>(i));
            }
        }
        // Without cp.async (hip:gfx90a: a global -> LDS copy is a global load into VGPRs and a
        // ds_write, finished before the next statement) iteration k's copy of tile k+1 is complete
        // when it returns: two buffers let it go to the other buffer while tile k is read, with
        // one barrier per iteration; a third adds no overlap, only shared memory (64 KiB of LDS
        // per workgroup there).
        const int cap = m_ctx.target.hasCpAsync() ? 0 : 2;
        if (cap > 0 && stages > cap && !producers.empty()) {
            m_ctx.diags.warning(n->span,
                                "T.Pipelined: num_stages=" + std::to_string(stages) + " uses " + std::to_string(cap) +
                                    " buffers on " + m_ctx.target.name + ": its copies are synchronous (no cp.async), so a tile is complete when its copy returns and more buffers add shared memory, not overlap",
                                "num_stages=" + std::to_string(cap) + " states the same schedule on this target", "plan-pipelines");
            stages = cap;
        }
        Attrs a = n->attrs;
        a["num_stages"] = producers.empty() ? int64_t(1) : stages;
        a["pipeline_producers"] = producers;
        return forLoop(n->var, n->min, n->extent, n->forKind, body, a, n->span);
    }

private:
    // Any tile op or element access outside the loop that touches the storage `key`.
    bool usedOutside(const std::string& key, const ForNode* loop) {
        std::set<const StmtNode*> inLoop;
        walk(loop->body, [&](const Stmt& x) { inLoop.insert(x.get()); });
        bool used = false;
        walk(m_root, [&](const Stmt& s) {
            if (s.get() == loop || inLoop.count(s.get())) return;
            if (auto* t = as<TileOpNode>(s))
                for (auto& arg : t->args)
                    if (auto* r = std::get_if<Region>(&arg); r && storageName(m_func, *r->buffer) == key) used = true;
            if (auto* st = as<StoreNode>(s); st && storageName(m_func, *st->buffer) == key) used = true;
        });
        return used;
    }

    PassContext& m_ctx;
    const PrimFuncNode& m_func;
    Stmt m_root;
};

}  // namespace

PrimFunc planPipelines(const PrimFunc& f, PassContext& ctx) {
    // Hand-written mbarrier schedules (T.alloc_barrier, attr explicit_mbarriers): the user's
    // arrive/wait protocol is the pipeline (its parities assume one buffer per barrier phase),
    // so its T.Pipelined loops run as written, one iteration after the other.
    if (attrInt(f->attrs, "explicit_mbarriers", 0)) {
        struct Serial : Mutator {
            Stmt visitFor(const ForNode* n, const Stmt& self) override {
                Stmt body = mutate(n->body);
                if (n->forKind != ForKind::Pipelined && body == n->body) return self;
                return std::make_shared<ForNode>(n->var, n->min, n->extent,
                                                 n->forKind == ForKind::Pipelined ? ForKind::Serial : n->forKind,
                                                 n->forKind == ForKind::Pipelined ? Attrs{} : n->attrs, body,
                                                 n->span);
            }
        } serial;
        return withBody(f, serial.mutate(f->body));
    }
    Planner p(ctx, *f);
    return withBody(f, p.mutate(f->body));
}

}  // namespace ts::xform
