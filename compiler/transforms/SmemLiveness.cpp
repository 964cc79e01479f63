// See SmemLiveness.h: units of block-uniform scopes are the grain of liveness.
#include "compiler/transforms/SmemLiveness.h"

#include <map>
#include <set>
#include <string>

#include "compiler/ir/Intrinsics.h"
#include "compiler/transforms/BlockUniform.h"

namespace ts::xform {
using namespace ts::ir;

namespace {


/// A loop all threads run in step: its body is a scope of its own.
const ForNode* uniformLoop(const Stmt& s) {
    auto* f = as<ForNode>(s);
    if (!f || attrBool(f->attrs, "thread_loop", false) || mentionsThread(f->min) || mentionsThread(f->extent))
        return nullptr;
    return f;
}

using BufSet = std::set<const BufferNode*>;

class Builder {
public:
    Builder(SmemLiveness& r, BufSet asyncDsts, bool iterationLocal)
        : m_r(r), m_asyncDsts(std::move(asyncDsts)), m_iterationLocal(iterationLocal) {}

    /// Numbers the units of `body` as a new scope; returns every shared buffer accessed in it.
    /// `narrowed`: names of tiles allocated further out that live in this (loop body) scope.
    BufSet scope(const Stmt& body, int parent, bool loopBody, const std::set<std::string>& narrowed = {}) {
        int id = static_cast<int>(m_r.scopes.size());
        m_r.scopes.push_back({parent, loopBody, m_pos, 0, {}, {}});
        for (auto& [b, iv] : m_r.live)
            // Not yet touched (iteration-smem saw every access inside the loop), and not a
            // cp.async destination (those stay live up to waits anywhere).
            if (narrowed.count(b->name) && !iv.used() && !m_asyncDsts.count(b)) iv.scope = id;
        std::vector<Stmt> units;
        flattenSeq(body, units);
        BufSet all;
        for (auto& u : units) {
            int64_t start = m_pos++;
            m_r.scopes[static_cast<size_t>(id)].units.push_back(u);
            m_r.scopes[static_cast<size_t>(id)].unitStart.push_back(start);
            if (isSyncThreads(u)) m_r.barriers.push_back({id, start});
            // A wgmma left in flight reads its shared operand tiles until the wait that retires
            // it: they stay live over every unit up to that one (and over the unit itself).
            BufSet touched = m_inflight;
            pendingTmaInto(touched);
            BufSet inUnit = unit(u, id);
            touched.insert(inUnit.begin(), inUnit.end());
            touched.insert(m_inflight.begin(), m_inflight.end());
            pendingTmaInto(touched);
            // Every buffer of this scope touched in the unit is live over the whole unit.
            for (auto* b : touched) {
                auto& iv = m_r.live[b];
                if (iv.scope != id) continue;
                if (!iv.used()) iv.first = start;
                iv.last = m_pos - 1;
            }
            all.insert(touched.begin(), touched.end());
        }
        m_r.scopes[static_cast<size_t>(id)].end = m_pos - 1;
        // Still in flight at the end of a loop body: the next iteration runs before the retiring
        // wait, so a tile of this body read by that wgmma is live over the whole body.
        // The same for a plain TMA load still unwaited at the end of a loop body.
        BufSet carried = m_inflight;
        pendingTmaInto(carried);
        if (loopBody)
            for (auto* b : carried)
                if (auto it = m_r.live.find(b); it != m_r.live.end() && it->second.scope == id) {
                    it->second.first = m_r.scopes[static_cast<size_t>(id)].start;
                    it->second.last = m_pos - 1;
                }
        all.insert(carried.begin(), carried.end());
        return all;
    }

private:
    static void loads(const Expr& e, BufSet& out) {
        walkExpr(e, [&](const Expr& x) {
            if (auto* l = as<LoadNode>(x); l && l->buffer->scope == Scope::Shared) out.insert(l->buffer.get());
        });
    }
    BufSet unit(const Stmt& u, int id) {
        BufSet out;
        if (auto* f = uniformLoop(u)) {
            loads(f->min, out);
            loads(f->extent, out);
            std::set<std::string> narrowed;
            if (m_iterationLocal)
                if (auto it = f->attrs.find("smem_iteration_local"); it != f->attrs.end())
                    if (auto* names = std::get_if<std::string>(&it->second))
                        for (size_t a = 0, b; a <= names->size(); a = b + 1) {
                            b = names->find(',', a);
                            if (b == std::string::npos) b = names->size();
                            if (b > a) narrowed.insert(names->substr(a, b - a));
                        }
            BufSet inner = scope(f->body, id, true, narrowed);
            out.insert(inner.begin(), inner.end());
            return out;
        }
        // An `if` every thread takes alike (no thread index in the condition: insert-sync's rule
        // for where a barrier may go) is one unit here, and each branch a scope of its own, so
        // scratch inside a guarded body (a persistent kernel's `if tile_id < total:` around
        // its whole pipelined loop) gets intervals finer than the whole `if`.
        if (auto* i = as<IfNode>(u); i && !mentionsThread(i->cond)) {
            loads(i->cond, out);
            const BufSet before = m_inflight;
            const auto tmaBefore = m_tmaPending;
            BufSet t = scope(i->then, id, false);
            out.insert(t.begin(), t.end());
            BufSet after = m_inflight;  // either branch may have run: in flight after either
            const auto tmaAfter = m_tmaPending;
            m_inflight = before;
            m_tmaPending = tmaBefore;
            if (i->otherwise) {
                BufSet e = scope(i->otherwise, id, false);
                out.insert(e.begin(), e.end());
            }
            m_inflight.insert(after.begin(), after.end());
            for (auto& [bar, dsts] : tmaAfter) m_tmaPending[bar].insert(dsts.begin(), dsts.end());
            return out;
        }
        // Anything else (thread-dependent ifs, per-thread loops, leaves) is one unit; allocs
        // inside belong here.
        auto touch = [&](const Buffer& b) {
            if (b && b->scope == Scope::Shared) out.insert(b.get());
        };
        walk(
            u,
            [&](const Stmt& x) {
                if (auto* a = as<AllocNode>(x); a && a->buffer->scope == Scope::Shared) {
                    m_r.live[a->buffer.get()].scope = id;
                    if (a->init) touch(a->buffer);
                }
                if (auto* st = as<StoreNode>(x)) touch(st->buffer);
                if (auto* t = as<TileOpNode>(x))
                    for (auto& arg : t->args)
                        if (auto* reg = std::get_if<Region>(&arg)) touch(reg->buffer);
            },
            [&](const Expr& e) {
                if (auto* l = as<LoadNode>(e)) touch(l->buffer);
                // A cp.async lands in shared memory only by the next wait: its destination stays
                // live (its bytes not reusable) up to the waits.
                if (auto* c = as<CallNode>(e); c && c->op == intrin::kCpAsyncWait)
                    out.insert(m_asyncDsts.begin(), m_asyncDsts.end());
                if (auto* c = as<CallNode>(e)) wgmmaEvent(*c), tmaEvent(*c);
            });
        return out;
    }

    /// A plain TMA load writes its tile until the mbarrier wait that completes it (sink-tma-waits
    /// may put unrelated statements between the two): the tile stays live, its bytes not given
    /// to another buffer, from the issue up to and including the unit of that wait.
    void tmaEvent(const CallNode& c) {
        if (c.op == intrin::kTmaLoad && c.args.size() >= 3) {
            if (const BufferNode* bar = plainCopyBarrier(c.args[2])) loads(c.args[1], m_tmaPending[bar]);
        } else if (c.op == intrin::kMbarrierWait && !c.args.empty()) {
            if (const BufferNode* bar = plainCopyBarrier(c.args[0])) m_tmaPending.erase(bar);
        }
    }

    void pendingTmaInto(BufSet& out) const {
        for (auto& [bar, dsts] : m_tmaPending) out.insert(dsts.begin(), dsts.end());
    }

    /// Tracks the shared tiles of wgmma groups still in flight (m_inflight): a tl.wgmma_ss /
    /// tl.wgmma_rs committed with wait_group n > 0 (pairIndependentWgmmas' first gemm, the
    /// in-flight schedules of InjectPipelineTmaFragment.cpp) adds the tiles it reads; a
    /// wait_group 0 (a tl.wgmma_wait, or a later wgmma that waits to completion) retires them
    /// all. A wait_group n > 0 retires only older groups: kept (conservative, never too short).
    void wgmmaEvent(const CallNode& c) {
        auto waitArg = [&](size_t i) { return i < c.args.size() ? constInt(c.args[i]).value_or(1) : 0; };
        int64_t wait = -1;
        if (c.op == intrin::kWgmmaSS && c.args.size() >= 10) {
            wait = waitArg(9);
            if (wait != 0) loads(c.args[0], m_inflight), loads(c.args[1], m_inflight);
        } else if (c.op == intrin::kWgmmaRS && c.args.size() >= 8) {
            // tl.wgmma_rs(A regs, B, C, M, N, K, warpgroups, trans_B[, wait][, role first, count])
            wait = c.args.size() == 9 || c.args.size() == 11 ? waitArg(8) : 0;
            if (wait != 0) loads(c.args[1], m_inflight);
        } else if (c.op == intrin::kWgmmaWait && c.args.size() >= 3) {
            wait = waitArg(2);
        }
        if (wait == 0) m_inflight.clear();
    }

    SmemLiveness& m_r;
    BufSet m_asyncDsts;  ///< shared buffers some tl.cp_async writes
    BufSet m_inflight;   ///< shared tiles read by wgmma groups not yet retired (wgmmaEvent)
    std::map<const BufferNode*, BufSet> m_tmaPending;  ///< plain TMA copies not yet waited: barrier -> tiles (tmaEvent)
    bool m_iterationLocal = false;
    int64_t m_pos = 0;
};

}  // namespace

const BufferNode* plainCopyBarrier(const Expr& addr) {
    auto* c = as<CallNode>(addr);
    auto* l = c && c->op == intrin::kAddressOf && c->args.size() == 1 ? as<LoadNode>(c->args[0]) : nullptr;
    if (!l || l->buffer->scope != Scope::Shared) return nullptr;
    for (auto& d : l->buffer->shape)
        if (constInt(d).value_or(0) != 1) return nullptr;
    return l->buffer.get();
}

bool SmemLiveness::within(int inner, int outer) const {
    for (int s = inner; s >= 0; s = scopes[static_cast<size_t>(s)].parent)
        if (s == outer) return true;
    return false;
}

const Stmt& SmemLiveness::unitAt(int scope, int64_t pos) const {
    const auto& sc = scopes[static_cast<size_t>(scope)];
    size_t i = 0;
    while (i + 1 < sc.unitStart.size() && sc.unitStart[i + 1] <= pos) ++i;
    return sc.units[i];
}

SmemLiveness smemLiveness(const Stmt& body, bool iterationLocal) {
    SmemLiveness r;
    const KernelNode* kernel = nullptr;
    walk(body, [&](const Stmt& s) {
        if (auto* k = as<KernelNode>(s); k && !kernel) kernel = k;
    });
    if (!kernel) return r;
    BufSet asyncDsts;
    walk(
        kernel->body, [](const Stmt&) {},
        [&](const Expr& e) {
            auto* c = as<CallNode>(e);
            if (!c || c->op != intrin::kCpAsync || c->args.empty()) return;
            auto* addr = as<CallNode>(c->args[0]);
            auto* l = addr && addr->op == intrin::kAddressOf && !addr->args.empty() ? as<LoadNode>(addr->args[0]) : nullptr;
            if (l && l->buffer->scope == Scope::Shared) asyncDsts.insert(l->buffer.get());
        });
    Builder(r, std::move(asyncDsts), iterationLocal).scope(kernel->body, -1, false);
    return r;
}

}  // namespace ts::xform
