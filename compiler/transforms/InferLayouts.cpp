// infer-layouts: gives every fragment buffer a thread/register layout and every shared buffer a
// physical layout, then annotates gemm ops with their warp grid and Parallel loop nests with the
// layout that distributes them.
//
// Constraints, strongest first: user annotations (T.annotate_layout, already in f->layouts);
// gemm accumulators (mma.sync C fragment for the policy's warp grid); reductions (source: block
// fragment; destination: its row-reduced companion); Parallel nests (buffers indexed by the
// loop variables in order share the nest's layout; 1-D buffers indexed by the row variable get
// the row-reduced companion); remaining fragments get the cheapest block fragment (16-byte
// vectors). Two different required layouts for one buffer (compared element for element, so a
// user T.Fragment equal to a family agrees with it) are a diagnostic naming both ops.
// Requires: elaborated + bounds-checked IR. Produces: f->layouts, gemm attrs warp_m/warp_n,
// For attr layout_key on Parallel nests. Invalidates: nothing.
#include <map>
#include <set>
#include <sstream>

#include "compiler/analysis/GemmPartition.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/Swizzle.h"
#include "compiler/analysis/UserLayouts.h"
#include "compiler/ir/IR.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {
using namespace ts::ir;
using namespace ts::analysis;

namespace {

// Equal placement of every element, whatever constructor made the layouts (a user T.Fragment
// equal to the inferred block fragment is no conflict).
bool sameLayout(const Layout& a, const Layout& b) { return sameMapping(*a, *b); }

std::string spanText(Span s) { return s.valid() ? "line " + std::to_string(s.line) : "an earlier op"; }

struct Requirement {
    Layout layout;
    std::string by;  // "T.gemm at line 12"
};

class Inference {
public:
    Inference(const PrimFunc& f, PassContext& ctx) : m_f(f), m_ctx(ctx) {
        m_kernel = findKernel(f);
        m_threads = m_kernel ? m_kernel->threadCount() : 1;
        for (auto& [name, l] : f->layouts) m_req[name] = {l, "T.annotate_layout"};
    }

    PrimFunc run() {
        if (!m_kernel) return m_f;
        // Round 1: gemm/reduce constraints; round 2: Parallel nests; round 3: defaults for the rest.
        walk(m_f->body, [&](const Stmt& s) {
            if (auto* t = as<TileOpNode>(s)) {
                if (t->op == TileOpKind::Gemm) gemm(*t);
                if (t->op == TileOpKind::Reduce) reduce(*t);
            }
        });
        walk(m_f->body, [&](const Stmt& s) {
            if (auto* fr = as<ForNode>(s); fr && fr->forKind == ForKind::Parallel && !m_innerParallel.count(fr))
                parallelNest(*fr);
        });
        walk(m_f->body, [&](const Stmt& s) {
            if (auto* t = as<TileOpNode>(s)) defaultsFor(*t);
            if (auto* a = as<AllocNode>(s)) allocDefault(a->buffer);
        });
        if (m_ctx.diags.hasErrors()) return m_f;

        auto out = std::make_shared<PrimFuncNode>(*m_f);
        for (auto& [name, r] : m_req) out->layouts[name] = r.layout;
        for (auto& [key, l] : m_loopLayouts) out->layouts[key] = l;
        AttrWriter w(*this);
        out->body = w.mutate(m_f->body);
        return out;
    }

private:
    void require(const Buffer& b, Layout l, const std::string& by, Span span) {
        auto it = m_req.find(b->name);
        if (it == m_req.end()) {
            m_req[b->name] = {std::move(l), by};
            return;
        }
        if (sameLayout(it->second.layout, l)) return;
        m_ctx.diags.error(
            span,
            "conflicting layouts for " +
                std::string(b->scope == Scope::Shared ? "shared buffer '" : "fragment '") +
                b->name + "': " + it->second.by + " needs " + it->second.layout->description +
                ", but " + by + " needs " + l->description,
            "copy the data into a second fragment (T.copy) so each op gets its own layout",
            "infer-layouts");
    }

    void gemm(const TileOpNode& t) {
        if (t.args.size() < 3 || !t.isRegion(0) || !t.isRegion(1) || !t.isRegion(2)) return;
        const Region &A = t.region(0), &B = t.region(1), &C = t.region(2);
        auto cs = constExtents(C);
        std::string where = "T.gemm at " + spanText(t.span);
        if (C.buffer->scope != Scope::Fragment || !cs || cs->size() != 2) {
            m_ctx.diags.error(t.span, "T.gemm: the accumulator '" + C.buffer->name + "' must be a 2-D fragment (T.alloc_fragment)",
                              "allocate C with T.alloc_fragment((block_M, block_N), accum_dtype)", "infer-layouts");
            return;
        }
        int64_t M = (*cs)[0], N = (*cs)[1];
        if (m_threads % 32 != 0) {
            m_ctx.diags.error(t.span, "T.gemm needs whole warps: threads=" + std::to_string(m_threads) + " is not a multiple of 32",
                              "use threads=128 or 256", "infer-layouts");
            return;
        }
        auto policy = parseGemmPolicy(attrStr(t.attrs, "policy", "Square")).value_or(GemmPolicy::Square);
        int warps = static_cast<int>(m_threads / 32);
        auto wp = partitionWarps(M, N, warps, policy);
        if (!wp) {
            std::ostringstream msg;
            msg << "T.gemm: " << warps << " warps cannot tile M=" << M << ", N=" << N << " with policy "
                << gemmPolicyName(policy) << "; valid thread counts: " << validThreadCounts(M, N, policy);
            m_ctx.diags.error(t.span, msg.str(),
                              "each warp owns a multiple of 16x16 accumulator elements; change threads=, the block "
                              "shape or the policy",
                              "infer-layouts");
            return;
        }
        m_gemmWarps[&t] = *wp;
        require(C.buffer, makeMmaAccumulator(M, N, *wp), where, t.span);
        for (const Region* op : {&A, &B}) {
            if (op->buffer->scope != Scope::Shared) continue;
            auto shape = constShape(*op->buffer);
            if (!shape || shape->size() < 2) continue;
            int64_t rowBytes = shape->back() * dtypeBytes(op->buffer->dtype);
            int64_t rows = 1;
            for (size_t d = 0; d + 1 < shape->size(); ++d) rows *= (*shape)[d];
            int mode = chooseSwizzleMode(rowBytes, rows);
            auto& cur = m_req[op->buffer->name];
            if (!cur.layout) cur = {makeSharedLayout(*shape, dtypeBytes(op->buffer->dtype), mode), where};
            // gemm_ss addresses its operands as row-major tiles with an XOR swizzle, nothing else.
            else if (cur.layout->family != "shared" || cur.layout->padElems != 0)
                m_ctx.diags.error(t.span,
                                  "conflicting layouts for shared buffer '" + op->buffer->name +
                                      "': " + cur.by + " needs " + cur.layout->description +
                                      ", but " + where +
                                      " reads its operands as row-major or XOR-swizzled tiles",
                                  "annotate the gemm operand with "
                                  "tilelang.layout.make_swizzled_layout, or copy it "
                                  "into a second shared tile for the gemm",
                                  "infer-layouts");
        }
    }

    void reduce(const TileOpNode& t) {
        if (!t.isRegion(0) || !t.isRegion(1)) return;
        const Buffer &src = t.region(0).buffer, &dst = t.region(1).buffer;
        if (src->scope != Scope::Fragment) return;
        auto shape = constShape(*src);
        int64_t dim = attrInt(t.attrs, "dim", -1);
        if (!shape) return;
        if (dim < 0) dim += static_cast<int64_t>(shape->size());
        std::string where = "T.reduce_" + attrStr(t.attrs, "op", "sum") + " at " + spanText(t.span);
        if (shape->size() > 2 || dim != static_cast<int64_t>(shape->size()) - 1) {
            m_ctx.diags.error(t.span, where + ": only reductions over the last dimension of a 1-D or 2-D fragment are supported",
                              "reduce along dim=-1 (transpose the tile when copying it in if needed)", "infer-layouts");
            return;
        }
        int64_t rows = shape->size() == 2 ? (*shape)[0] : 1, cols = shape->back();
        auto it = m_req.find(src->name);
        std::optional<BlockFragmentParams> p;
        if (it != m_req.end()) {
            p = blockParamsOf(*it->second.layout);
            if (!p) {
                m_ctx.diags.error(t.span,
                                  where + ": cannot reduce fragment '" + src->name + "' with layout '" +
                                      it->second.layout->description + "' (required by " + it->second.by + ")",
                                  "copy it into a separate fragment first (T.copy(" + src->name + ", tmp))", "infer-layouts");
                return;
            }
        } else {
            p = chooseBlockFragment(rows, cols, m_threads, dtypeBytes(src->dtype));
            require(src, makeBlockFragment(*p, shape->size() == 1), where, t.span);
        }
        if (dst->scope == Scope::Fragment) require(dst, makeRowReduced(*p), where, t.span);
    }

    Layout defaultFragment(const Buffer& b) {
        auto shape = constShape(*b);
        if (!shape || shape->empty() || shape->size() > 2) return nullptr;
        int64_t rows = shape->size() == 2 ? (*shape)[0] : 1;
        auto p = chooseBlockFragment(rows, shape->back(), m_threads, dtypeBytes(b->dtype));
        return makeBlockFragment(p, shape->size() == 1);
    }

    void allocDefault(const Buffer& b) {
        if (m_req.count(b->name)) return;
        if (b->scope == Scope::Fragment) {
            if (auto l = defaultFragment(b)) m_req[b->name] = {l, "the default layout"};
            else
                m_ctx.diags.error(b->span, "cannot infer a layout for fragment '" + b->name + "': only 1-D and 2-D fragments with constant shapes are supported",
                                  "use a constant 1-D or 2-D shape", "infer-layouts");
        } else if (b->scope == Scope::Shared) {
            auto shape = constShape(*b);
            if (shape && !shape->empty()) m_req[b->name] = {makeSharedLayout(*shape, dtypeBytes(b->dtype), 0), "the default layout"};
        }
    }

    void defaultsFor(const TileOpNode& t) {
        for (auto& a : t.args)
            if (auto* r = std::get_if<Region>(&a)) allocDefault(r->buffer);
    }

    // A maximal nest of directly nested Parallel loops.
    void parallelNest(const ForNode& outer) {
        std::vector<const ForNode*> nest{&outer};
        while (auto* inner = as<ForNode>(nest.back()->body)) {
            if (inner->forKind != ForKind::Parallel) break;
            m_innerParallel.insert(inner);
            nest.push_back(inner);
        }
        std::vector<int64_t> ext;
        for (auto* l : nest) {
            auto e = constInt(l->extent);
            if (!e) {
                m_ctx.diags.error(l->span, "T.Parallel extents must be compile-time constants", "use a meta parameter", "infer-layouts");
                return;
            }
            ext.push_back(*e);
        }
        if (nest.size() > 2) {
            m_ctx.diags.error(outer.span, "T.Parallel nests of more than 2 dimensions are not supported yet",
                              "split the nest into a serial outer loop and a 2-D T.Parallel", "infer-layouts");
            return;
        }
        // Classify fragment accesses in the body.
        std::vector<Buffer> aligned, rowVecs;
        bool bad = false;
        auto classify = [&](const Buffer& b, const std::vector<Expr>& idx, Span sp) {
            if (b->scope != Scope::Fragment) return;
            bool isAligned = idx.size() == nest.size();
            for (size_t d = 0; isAligned && d < idx.size(); ++d) isAligned = idx[d].get() == nest[d]->var.get();
            if (isAligned) return aligned.push_back(b);
            if (nest.size() == 2 && idx.size() == 1 && idx[0].get() == nest[0]->var.get()) return rowVecs.push_back(b);
            bad = true;
            m_ctx.diags.error(sp, "fragment '" + b->name + "' must be indexed by the T.Parallel loop variables in order (" +
                                      nest[0]->var->name + (nest.size() > 1 ? ", " + nest[1]->var->name : std::string()) + ")",
                              "fragments are distributed over threads by the loop; use a shared buffer for other access patterns",
                              "infer-layouts");
        };
        walk(nest.back()->body,
             [&](const Stmt& s) {
                 if (auto* st = as<StoreNode>(s)) classify(st->buffer, st->indices, st->span);
             },
             [&](const Expr& e) {
                 if (auto* l = as<LoadNode>(e)) classify(l->buffer, l->indices, l->span);
             });
        if (bad) return;
        std::string where = "T.Parallel at " + spanText(outer.span);
        Layout loop;
        for (auto& b : aligned)
            if (auto it = m_req.find(b->name); it != m_req.end() && !loop) loop = it->second.layout;
        if (!loop)
            for (auto& b : rowVecs)
                if (auto it = m_req.find(b->name); it != m_req.end())
                    if (auto p = blockParamsOf(*it->second.layout); p && p->rows == ext[0] && p->cols == ext[1]) {
                        loop = makeBlockFragment(*p);
                        break;
                    }
        if (!loop) {
            int elt = 4;
            if (!aligned.empty()) elt = dtypeBytes(aligned[0]->dtype);
            auto p = chooseBlockFragment(nest.size() == 2 ? ext[0] : 1, ext.back(), m_threads, elt);
            loop = makeBlockFragment(p, nest.size() == 1);
        }
        if (loop->shape != ext) {
            m_ctx.diags.error(outer.span, where + ": the loop extents do not match the shape of the fragments it indexes",
                              "iterate over the whole fragment (T.Parallel(*frag.shape))", "infer-layouts");
            return;
        }
        for (auto& b : aligned) require(b, loop, where, outer.span);
        if (!rowVecs.empty()) {
            auto p = blockParamsOf(*loop);
            if (!p) {
                m_ctx.diags.error(outer.span, where + ": row values (" + rowVecs[0]->name + "[" + nest[0]->var->name +
                                                  "]) cannot be combined with layout '" + loop->description + "'",
                                  "copy the accumulator into a separate fragment first", "infer-layouts");
                return;
            }
            for (auto& b : rowVecs) require(b, makeRowReduced(*p), where, outer.span);
        }
        std::string key = "__loop" + std::to_string(m_loopLayouts.size());
        m_loopLayouts[key] = loop;
        m_loopKey[&outer] = key;
    }

    class AttrWriter : public Mutator {
    public:
        explicit AttrWriter(Inference& in) : m_in(in) {}

    protected:
        Stmt visitTileOp(const TileOpNode* n, const Stmt& self) override {
            auto it = m_in.m_gemmWarps.find(n);
            if (it == m_in.m_gemmWarps.end()) return self;
            Attrs a = n->attrs;
            a["warp_m"] = int64_t(it->second.wm);
            a["warp_n"] = int64_t(it->second.wn);
            return std::make_shared<TileOpNode>(n->op, n->args, a, n->span);
        }
        Stmt visitFor(const ForNode* n, const Stmt& self) override {
            Stmt body = mutate(n->body);
            auto it = m_in.m_loopKey.find(n);
            if (it == m_in.m_loopKey.end() && body == n->body) return self;
            Attrs a = n->attrs;
            if (it != m_in.m_loopKey.end()) a["layout_key"] = it->second;
            return forLoop(n->var, n->min, n->extent, n->forKind, body, a, n->span);
        }

    private:
        Inference& m_in;
    };

    const PrimFunc& m_f;
    PassContext& m_ctx;
    const KernelNode* m_kernel = nullptr;
    int64_t m_threads = 1;
    std::map<std::string, Requirement> m_req;
    std::map<const TileOpNode*, WarpPartition> m_gemmWarps;
    std::set<const ForNode*> m_innerParallel;
    std::map<std::string, Layout> m_loopLayouts;
    std::map<const ForNode*, std::string> m_loopKey;
};

}  // namespace

PrimFunc inferLayouts(const PrimFunc& f, PassContext& ctx) { return Inference(f, ctx).run(); }

}  // namespace ts::xform
