#include "compiler/analysis/LocalRegisters.h"

#include <map>
#include <set>
#include <vector>

#include "compiler/ir/Functor.h"

namespace ts::analysis {
using namespace ts::ir;

namespace {

using ArraySet = std::set<const BufferNode*>;

struct Walker {
    std::set<const VarNode*> threadVars;
    std::map<const BufferNode*, int64_t> bytes;

    int64_t total(const ArraySet& s) const {
        int64_t b = 0;
        for (auto* a : s) b += bytes.at(a);
        return b;
    }

    /// A condition on the thread index only (constants besides): its branches run on disjoint
    /// threads.
    bool splitsThreads(const Expr& cond) const {
        bool thread = false, other = false;
        walkExpr(cond, [&](const Expr& e) {
            if (auto* v = as<VarNode>(e)) (threadVars.count(v) ? thread : other) = true;
            if (as<LoadNode>(e)) other = true;
        });
        return thread && !other;
    }

    /// The Local arrays expression `e` references.
    void refs(const Expr& e, ArraySet& out) const {
        if (!e) return;
        walkExpr(e, [&](const Expr& x) {
            if (auto* l = as<LoadNode>(x); l && bytes.count(l->buffer.get())) out.insert(l->buffer.get());
        });
    }

    /// Arrays one thread may hold at once in `s`: a thread-splitting branch contributes the
    /// heavier of its two sides, everything else all it references.
    ArraySet worst(const Stmt& s) const {
        ArraySet out;
        if (!s) return out;
        if (auto* i = as<IfNode>(s); i && i->otherwise && splitsThreads(i->cond)) {
            ArraySet a = worst(i->then), b = worst(i->otherwise);
            return total(a) >= total(b) ? a : b;
        }
        if (auto* i = as<IfNode>(s); i && splitsThreads(i->cond)) return worst(i->then);
        if (auto* q = as<SeqNode>(s)) {
            // Roles are disjoint from each other, not from what the whole block runs around them.
            for (auto& c : q->stmts) {
                ArraySet w = worst(c);
                out.insert(w.begin(), w.end());
            }
            return out;
        }
        if (auto* f = as<ForNode>(s)) return worst(f->body);
        if (auto* i = as<IfNode>(s)) {
            refs(i->cond, out);
            for (const Stmt& b : {i->then, i->otherwise}) {
                ArraySet w = worst(b);
                out.insert(w.begin(), w.end());
            }
            return out;
        }
        walk(s, [&](const Stmt& x) {
                 if (auto* st = as<StoreNode>(x); st && bytes.count(st->buffer.get())) out.insert(st->buffer.get());
             },
             [&](const Expr& e) {
                 if (auto* l = as<LoadNode>(e); l && bytes.count(l->buffer.get())) out.insert(l->buffer.get());
             });
        return out;
    }
};

}  // namespace

LocalArrayPeak peakLocalArrayBytes(const KernelNode& kernel) {
    Walker w;
    for (auto& v : kernel.threadVars) w.threadVars.insert(v.get());
    std::vector<const BufferNode*> order;  // allocation order: the first of equal arrays is named
    walk(kernel.body, [&](const Stmt& s) {
        auto* a = as<AllocNode>(s);
        if (!a || a->buffer->scope != Scope::Local) return;
        if (auto n = constNumel(*a->buffer); n && !w.bytes.count(a->buffer.get()))
            w.bytes[a->buffer.get()] = *n * dtypeBytes(a->buffer->dtype), order.push_back(a->buffer.get());
    });
    LocalArrayPeak p;
    const ArraySet live = w.worst(kernel.body);
    for (auto* a : order) {
        if (!live.count(a)) continue;
        const int64_t b = w.bytes.at(a);
        p.bytes += b;
        if (b > p.largestBytes) p.largestBytes = b, p.largest = a->name;
    }
    return p;
}

}  // namespace ts::analysis
