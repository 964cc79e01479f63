// iteration-smem: finds the shared tiles whose values never cross an iteration of the loop that
// uses them, and lists them on that loop as attr "smem_iteration_local" (comma-separated names).
// A tile qualifies for the innermost non-Parallel loop L around all of its accesses when it is
// allocated outside L and the first statement of L's body that touches it writes all of it
// without reading it:
//  - T.copy or T.fill / T.clear whose destination region is the whole tile (a copy writes every
//    destination element: out-of-bounds source elements read 0, CopyLowering.cpp), or
//  - a T.Parallel nest over exactly the tile's shape whose body stores tile[v0, v1, ...] (the
//    nest's variables, in order) unconditionally, once, and never loads the tile.
// Then every iteration overwrites the whole tile before any read, so the bytes are free between
// its last use in one iteration and its first write in the next. plan-smem may give them to
// another tile used in a disjoint part of the same iteration (SmemLiveness.h), which it does
// only when the block would not fit the target's shared memory otherwise (PlanSharedMemory.cpp):
// FlashAttention backward on gfx90a (64 KiB of LDS) fits because dS^T shares bytes with the
// staged P^T operand of the MFMA gemm.
// Tile level, after inject-pipeline: a pipelined loop is its prologue + main loop by now, and a
// staged producer tile is touched in both, so it never qualifies.
// Requires: inject-pipeline. Produces: For attr "smem_iteration_local". Invalidates: nothing.
#include <algorithm>
#include <map>
#include <set>

#include "compiler/ir/IR.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

using LoopPath = std::vector<const ForNode*>;

/// Where each shared tile is allocated and the innermost loop path around all its accesses.
struct Sites {
    std::map<const BufferNode*, LoopPath> alloc;
    std::map<const BufferNode*, LoopPath> common;  ///< common prefix of every access's loop path
    std::set<const BufferNode*> accessed;
};

class SiteFinder {
public:
    explicit SiteFinder(Sites& s) : m_s(s) {}

    void stmt(const Stmt& s) {
        if (!s) return;
        if (auto* q = as<SeqNode>(s)) {
            for (auto& c : q->stmts) stmt(c);
        } else if (auto* f = as<ForNode>(s)) {
            exprs(f->min);
            exprs(f->extent);
            // A T.Parallel nest is per-thread work inside one statement, not an iteration scope.
            const bool scope = f->forKind != ForKind::Parallel;
            if (scope) m_path.push_back(f);
            stmt(f->body);
            if (scope) m_path.pop_back();
        } else if (auto* i = as<IfNode>(s)) {
            exprs(i->cond);
            stmt(i->then);
            stmt(i->otherwise);
        } else if (auto* st = as<StoreNode>(s)) {
            touch(st->buffer);
            for (auto& x : st->indices) exprs(x);
            exprs(st->value);
        } else if (auto* a = as<AllocNode>(s)) {
            if (a->buffer->scope == Scope::Shared) m_s.alloc[a->buffer.get()] = m_path;
            exprs(a->init);
        } else if (auto* k = as<KernelNode>(s)) {
            stmt(k->body);
        } else if (auto* t = as<TileOpNode>(s)) {
            for (auto& arg : t->args) {
                if (auto* r = std::get_if<Region>(&arg)) {
                    touch(r->buffer);
                    for (auto& rg : r->ranges) exprs(rg.min), exprs(rg.extent);
                } else {
                    exprs(std::get<Expr>(arg));
                }
            }
        } else if (auto* e = as<EvalNode>(s)) {
            exprs(e->call);
        }
    }

private:
    void exprs(const Expr& e) {
        if (!e) return;
        walkExpr(e, [&](const Expr& x) {
            if (auto* l = as<LoadNode>(x)) touch(l->buffer);
        });
    }
    void touch(const Buffer& b) {
        if (!b || b->scope != Scope::Shared) return;
        const BufferNode* k = b.get();
        if (m_s.accessed.insert(k).second) {
            m_s.common[k] = m_path;
            return;
        }
        LoopPath& c = m_s.common[k];
        size_t n = 0;
        while (n < c.size() && n < m_path.size() && c[n] == m_path[n]) ++n;
        c.resize(n);
    }

    Sites& m_s;
    LoopPath m_path;
};


bool touches(const Stmt& s, const BufferNode* b) {
    bool hit = false;
    walk(
        s,
        [&](const Stmt& x) {
            if (auto* st = as<StoreNode>(x); st && st->buffer.get() == b) hit = true;
            if (auto* t = as<TileOpNode>(x))
                for (auto& arg : t->args)
                    if (auto* r = std::get_if<Region>(&arg); r && r->buffer.get() == b) hit = true;
        },
        [&](const Expr& e) {
            if (auto* l = as<LoadNode>(e); l && l->buffer.get() == b) hit = true;
        });
    return hit;
}

/// `u` writes every element of `b` and reads none of it (see the file comment).
bool overwritesWhole(const Stmt& u, const BufferNode* b) {
    if (auto* t = as<TileOpNode>(u)) {
        if (t->op == TileOpKind::Copy && t->isRegion(0) && t->isRegion(1))
            return t->region(1).buffer.get() == b && wholeBuffer(t->region(1)) && t->region(0).buffer.get() != b;
        if (t->op == TileOpKind::Fill && t->isRegion(0))
            return t->region(0).buffer.get() == b && wholeBuffer(t->region(0));
        return false;
    }
    // A T.Parallel nest whose variables are the tile's indices, in order.
    std::vector<const ForNode*> nest;
    Stmt s = u;
    while (auto* f = as<ForNode>(s)) {
        if (f->forKind != ForKind::Parallel || constInt(f->min) != 0) return false;
        nest.push_back(f);
        s = f->body;
    }
    if (nest.size() != b->shape.size() || nest.empty()) return false;
    std::vector<Stmt> leaves;
    flattenSeq(s, leaves);
    int stores = 0;
    for (auto& leaf : leaves) {
        auto* st = as<StoreNode>(leaf);
        if (!st || st->buffer.get() != b) continue;
        if (st->indices.size() != nest.size()) return false;
        for (size_t d = 0; d < nest.size(); ++d) {
            auto* v = as<VarNode>(st->indices[d]);
            auto ext = constInt(nest[d]->extent), n = constInt(b->shape[d]);
            if (!v || v != nest[d]->var.get() || !ext || !n || *ext != *n) return false;
        }
        ++stores;
    }
    if (stores != 1) return false;
    // No load of the tile, and no other store to it (e.g. under an if) anywhere in the nest.
    int allStores = 0;
    bool reads = false;
    walk(
        u,
        [&](const Stmt& x) {
            if (auto* st = as<StoreNode>(x); st && st->buffer.get() == b) ++allStores;
            if (as<TileOpNode>(x) && touches(x, b)) reads = true;
        },
        [&](const Expr& e) {
            if (auto* l = as<LoadNode>(e); l && l->buffer.get() == b) reads = true;
        });
    return allStores == 1 && !reads;
}

class Marker : public Mutator {
public:
    explicit Marker(const std::map<const ForNode*, std::set<std::string>>& m) : m_marks(m) {}

protected:
    Stmt visitFor(const ForNode* n, const Stmt& self) override {
        Stmt body = mutate(n->body);
        auto it = m_marks.find(n);
        if (it == m_marks.end())
            return body == n->body ? self : forLoop(n->var, n->min, n->extent, n->forKind, body, n->attrs, n->span);
        Attrs a = n->attrs;
        std::string names;  // sorted: the printed IR does not depend on pointer order
        for (auto& name : it->second) names += (names.empty() ? "" : ",") + name;
        a["smem_iteration_local"] = names;
        return forLoop(n->var, n->min, n->extent, n->forKind, body, a, n->span);
    }

private:
    const std::map<const ForNode*, std::set<std::string>>& m_marks;
};

}  // namespace

PrimFunc markIterationSmem(const PrimFunc& f, PassContext&) {
    Sites sites;
    SiteFinder(sites).stmt(f->body);
    std::map<const ForNode*, std::set<std::string>> marks;
    for (const auto& [b, path] : sites.common) {
        auto al = sites.alloc.find(b);
        // Allocated outside the loop (a tile allocated in a loop body is fresh each iteration
        // already), on its loop path.
        if (path.empty() || al == sites.alloc.end() || al->second.size() >= path.size()) continue;
        if (!std::equal(al->second.begin(), al->second.end(), path.begin())) continue;
        const ForNode* loop = path.back();
        std::vector<Stmt> units;
        flattenSeq(loop->body, units);
        for (auto& u : units) {
            if (!touches(u, b)) continue;
            if (overwritesWhole(u, b)) marks[loop].insert(b->name);
            break;
        }
    }
    if (marks.empty()) return f;
    return withBody(f, Marker(marks).mutate(f->body));
}

}  // namespace ts::xform
