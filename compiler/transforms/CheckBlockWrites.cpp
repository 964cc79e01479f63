// check-bounds' grid-level check (BlockUniform.h warnBlocksWritingOneRegion): a store to a global
// tensor whose element does not depend on a block index along a grid dimension of more than one
// block. Every block along that dimension writes the same elements: a forgotten `by` in
// `C[i, j]` for `C[by * block_M + i, j]`, which the tile interpreter (blocks in order, the last
// one's values kept) and a test with a one-block grid both pass. A warning, not an error: blocks
// writing equal values (a flag, a broadcast) are legal, only wasteful.
//
// Dependence is on the variables alone: a block index, a loop variable whose bounds use one, or
// anything read from memory (a load or a call: unknown, never reported). Stores under an `if`
// that reads the block index (`if bx == 0:`) or memory are the block's own choice.
#include <set>

#include "compiler/ir/IR.h"
#include "compiler/ir/PointerTensors.h"
#include "compiler/ops/Registry.h"
#include "compiler/transforms/BlockUniform.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

using Dims = unsigned;  ///< bit d: depends on the block index along d
constexpr Dims kUnknown = ~0u;

class BlockWrites {
public:
    BlockWrites(const PrimFuncNode& f, const KernelNode& k, DiagnosticEngine& diags) : m_f(f), m_k(k), m_diags(diags) {
        for (size_t d = 0; d < k.grid.size() && d < 3; ++d)
            if (auto g = constInt(k.grid[d]); g && *g > 1) m_wide |= 1u << d;
    }
    void run() {
        if (m_wide) stmt(m_k.body);
    }

private:
    Dims dep(const Expr& e) const {
        Dims d = 0;
        if (!e) return d;
        walkExpr(e, [&](const Expr& x) {
            if (auto* v = as<VarNode>(x)) {
                if (v->tag == VarTag::BlockIdx) d |= 1u << v->axis;
                else if (auto it = m_dep.find(v); it != m_dep.end()) d |= it->second;
            } else if (as<LoadNode>(x) || as<CallNode>(x)) {
                d = kUnknown;
            }
        });
        return d;
    }

    void stmt(const Stmt& s) {
        if (!s) return;
        if (auto* q = as<SeqNode>(s)) {
            for (auto& c : q->stmts) stmt(c);
        } else if (auto* f = as<ForNode>(s)) {
            m_dep[f->var.get()] = dep(f->min) | dep(f->extent);
            stmt(f->body);
        } else if (auto* i = as<IfNode>(s)) {
            const Dims saved = m_guard;
            m_guard |= dep(i->cond);
            stmt(i->then);
            stmt(i->otherwise);
            m_guard = saved;
        } else if (auto* st = as<StoreNode>(s)) {
            if (st->buffer->scope != Scope::Global) return;
            Dims d = 0;
            for (auto& x : st->indices) d |= dep(x);
            report(*st->buffer, d, st->span);
        } else if (auto* t = as<TileOpNode>(s)) {
            const ops::TileOp* op = ops::find(t->op);
            if (!op || t->op == TileOpKind::Atomic || op->spelling(*t).find("atomic") != std::string::npos) return;
            for (size_t a = 0; a < t->args.size(); ++a) {
                auto* r = std::get_if<Region>(&t->args[a]);
                if (!r || r->buffer->scope != Scope::Global || !(op->access(*t, a) & ops::kWrite)) continue;
                Dims d = 0;
                for (auto& rg : r->ranges) d |= dep(rg.min) | dep(rg.extent);
                report(*r->buffer, d, r->span.valid() ? r->span : t->span);
            }
        }
    }

    void report(const BufferNode& b, Dims idx, Span at) {
        if (idx == kUnknown || m_guard == kUnknown) return;
        // A tensor made in the kernel from a pointer (T.make_tensor(ptrs[bx], ...)) may be another
        // memory in each block: its index alone says nothing.
        if (isPointerTensor(m_f, b)) return;
        for (int d = 0; d < 3; ++d) {
            const Dims bit = 1u << d;
            if (!(m_wide & bit) || (idx & bit) || (m_guard & bit) || !m_reported.insert({&b, d}).second) continue;
            const int64_t g = *constInt(m_k.grid[size_t(d)]);
            const std::string var = size_t(d) < m_k.blockVars.size() ? m_k.blockVars[size_t(d)]->name : "";
            const std::string axis = std::string("blockIdx.") + "xyz"[d];
            const std::string who = var.empty() ? axis : "'" + var + "'";
            m_diags.warning(at,
                            "all " + std::to_string(g) + " blocks along " + axis + (var.empty() ? "" : " (" + who + ")") +
                                " write the same elements of '" + b.name + "' here: its index does not use " + who +
                                ", so unless they write equal values, which block's value is kept is undefined",
                            "index '" + b.name + "' by " + who + " (e.g. " + b.name + "[" + (var.empty() ? "b" : var) +
                                " * block + i, ...]), write it under `if " + (var.empty() ? "b" : var) + " == 0:`, or launch one block along that dimension",
                            "check-bounds");
        }
    }

    const PrimFuncNode& m_f;
    const KernelNode& m_k;
    DiagnosticEngine& m_diags;
    Dims m_wide = 0;   ///< grid dimensions of more than one block
    Dims m_guard = 0;  ///< what the enclosing `if` conditions read
    std::map<const VarNode*, Dims> m_dep;
    std::set<std::pair<const BufferNode*, int>> m_reported;
};

}  // namespace

void warnBlocksWritingOneRegion(const PrimFunc& f, PassContext& ctx) {
    walk(f->body, [&](const Stmt& s) {
        if (auto* k = as<KernelNode>(s)) BlockWrites(*f, *k, ctx.diags).run();
    });
}

}  // namespace ts::xform
