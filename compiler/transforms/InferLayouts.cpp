// infer-layouts: gives every fragment buffer a thread/register layout and every shared buffer a
// physical layout, then annotates gemm ops with their warp grid and Parallel loop nests with the
// layout that distributes them.
//
// Constraints, strongest first: user annotations (T.annotate_layout, already in f->layouts);
// gemm accumulators (mma.sync C fragment for the policy's warp grid) and register A operands
// (the C layout of their M x K tile, which gemm_rs reads as A fragments; none when the grid has
// several warp columns or A is transposed: lowering stages A through shared memory then);
// reductions (source: block fragment, or the gemm accumulator it already is; destination: the
// source's row companion -- row_reduced, or mma_c_rows held by the lane quads of each row);
// fragments read element-wise outside T.Parallel (replicated in every thread); Parallel nests,
// those touching an already-placed fragment first (buffers indexed by the loop variables in
// order share the nest's layout; 1-D buffers indexed by the row variable get its row
// companion; a nest with only row values placed takes the 2-D layout of that companion);
// fragment -> fragment copies give an unplaced side the other's layout (only when no nest
// decides it; differing layouts are converted by lowering); remaining fragments get the
// cheapest block fragment (16-byte vectors). Two different required layouts for one buffer
// (compared element for element, so a user T.Fragment equal to a family agrees with it) are a
// diagnostic naming both ops.
// Requires: elaborated + bounds-checked IR. Produces: f->layouts, gemm attrs warp_m/warp_n,
// For attr layout_key on Parallel nests. Invalidates: nothing.
#include <map>
#include <set>
#include <sstream>

#include "compiler/analysis/GemmPartition.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/Swizzle.h"
#include "compiler/analysis/WgmmaLayouts.h"
#include "compiler/analysis/HwLayouts.h"
#include "compiler/transforms/Hopper.h"
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
        // Round 1: gemm constraints (accumulators, fragment A operands), then reductions (whose
        // source may be a gemm accumulator whatever the program order); round 2: Parallel nests
        // touching an already-placed fragment, then (when none is left) fragment -> fragment
        // copies placing an unplaced side, then the first remaining nest with the default block
        // fragment, until every nest is placed; round 3: defaults for the rest.
        std::vector<const TileOpNode*> reduces, fragCopies;
        std::vector<const ForNode*> nests;
        walk(m_f->body, [&](const Stmt& s) {
            if (auto* t = as<TileOpNode>(s)) {
                if (t->op == TileOpKind::Gemm) gemm(*t);
                if (t->op == TileOpKind::Reduce) reduces.push_back(t);
                if (t->op == TileOpKind::Copy && isFragmentCopy(*t)) fragCopies.push_back(t);
            }
        });
        for (auto* t : reduces) reduce(*t);
        walk(m_f->body, [&](const Stmt& s) {
            if (auto* fr = as<ForNode>(s); fr && fr->forKind == ForKind::Parallel && !m_innerParallel.count(fr)) {
                nests.push_back(fr);
                for (auto* l = as<ForNode>(fr->body); l && l->forKind == ForKind::Parallel; l = as<ForNode>(l->body))
                    m_innerParallel.insert(l);
            }
        });
        scalarAccesses(nests);
        while (!nests.empty() && !m_ctx.diags.hasErrors()) {
            bool progress = false;
            for (size_t k = 0; k < nests.size();) {
                if (nestTouchesPlaced(*nests[k])) {
                    parallelNest(*nests[k]);
                    nests.erase(nests.begin() + static_cast<long>(k));
                    progress = true;
                } else {
                    ++k;
                }
            }
            // A copy gives its unplaced side the other's layout only when no nest constrains it:
            // a nest's own requirement wins, and the copy converts (lower-tile-ops).
            if (!progress) progress = propagateCopies(fragCopies);
            if (!progress) {
                parallelNest(*nests.front());
                nests.erase(nests.begin());
            }
        }
        propagateCopies(fragCopies);
        walk(m_f->body, [&](const Stmt& s) {
            if (auto* t = as<TileOpNode>(s)) {
                defaultsFor(*t);
                if (t->op == TileOpKind::Copy && isFragmentCopy(*t)) propagateCopies({t});
            }
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

    static bool isFragmentCopy(const TileOpNode& t) {
        return t.args.size() >= 2 && t.isRegion(0) && t.isRegion(1) && t.region(0).buffer->scope == Scope::Fragment &&
               t.region(1).buffer->scope == Scope::Fragment;
    }

    // A whole-fragment copy between two fragments of one shape is register to register when both
    // have the same layout: give the unplaced side the placed side's layout. Returns whether
    // anything was placed.
    bool propagateCopies(const std::vector<const TileOpNode*>& copies) {
        bool placed = false;
        for (auto* t : copies) {
            const Buffer &a = t->region(0).buffer, &b = t->region(1).buffer;
            auto sa = constShape(*a), sb = constShape(*b);
            if (!sa || !sb || *sa != *sb) continue;
            auto ia = m_req.find(a->name), ib = m_req.find(b->name);
            std::string where = "T.copy at " + spanText(t->span);
            if (ia != m_req.end() && ib == m_req.end()) require(b, ia->second.layout, where, t->span), placed = true;
            else if (ib != m_req.end() && ia == m_req.end()) require(a, ib->second.layout, where, t->span), placed = true;
        }
        return placed;
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
        // sm_90a: TMA + wgmma when the gemm, its operand copies and its loop qualify (Hopper.h).
        if (auto plan = selectHopperGemm(*m_f, t, m_threads, m_ctx.target)) {
            m_gemmWarpgroups[&t] = plan->warpgroups;
            require(C.buffer, makeWgmmaAccumulator(M, N, {plan->warpgroups, 1, N}), where, t.span);
            require(A.buffer, makeWgmmaSharedLayout(plan->a), where, t.span);
            require(B.buffer, makeWgmmaSharedLayout(plan->b), where, t.span);
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
        if (A.buffer->scope == Scope::Fragment) fragmentOperandA(t, A, M, *wp, where);
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

    // gemm_rs reads A (M x K) from registers laid out as the m16n8k16 accumulator of an M x K
    // tile on the same warp rows (ts_device.cuh GemmRS): the C fragment of atoms (mi, 2kk) and
    // (mi, 2kk+1) is the A fragment of k-step kk (PTX ISA §9.7.14.5.8), so a softmax'ed score
    // accumulator feeds the next gemm without a trip through shared memory (FlashAttention-2).
    // Each warp must then own whole rows of A: the warp grid must be wm x 1.
    void fragmentOperandA(const TileOpNode& t, const Region& A, int64_t M, WarpPartition wp, const std::string& where) {
        auto as = constExtents(A);
        if (!as || as->size() != 2) {
            m_ctx.diags.error(t.span, "T.gemm: a fragment A operand ('" + A.buffer->name + "') must be a whole 2-D fragment",
                              "allocate the operand with the gemm's M x K shape", "infer-layouts");
            return;
        }
        if (attrBool(t.attrs, "transpose_A", false)) return;  // K x M: staged through shared memory
        int64_t K = (*as)[1];
        // With several warp columns (wn > 1) each warp needs rows that no single register layout
        // gives it alone: lower-tile-ops stages A through a shared tile instead (gemm_ss), and A
        // keeps whatever layout its producer gives it.
        if (wp.wn == 1 && K % 16 == 0)
            require(A.buffer, makeMmaAccumulator(M, K, wp), where + " (register A operand)", t.span);
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
            if (!p && shape->size() == 2) {
                // Accumulators (and any layout with a row companion) reduce in place: per-thread
                // partials, quad shuffles, then shared memory across warp columns (lower-tile-ops).
                if (Layout rows = rowCompanion(*it->second.layout)) {
                    if (dst->scope == Scope::Fragment) require(dst, rows, where, t.span);
                    return;
                }
            }
            if (!p) {
                m_ctx.diags.error(t.span,
                                  where + ": cannot reduce fragment '" + src->name + "' with layout '" +
                                      it->second.layout->description + "' (required by " + it->second.by + ")",
                                  "reductions read block fragments and mma accumulators; copy '" + src->name +
                                      "' through a shared tile into a fragment of its own first",
                                  "infer-layouts");
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

    // Fragments read or written element by element outside T.Parallel (`if mask[k] != 0:` in
    // a serial loop) are held whole by every thread: any thread may ask for any element.
    void scalarAccesses(const std::vector<const ForNode*>& nests) {
        std::set<const void*> inNest;
        for (auto* n : nests)
            walk(n->body, [&](const Stmt& s) { inNest.insert(s.get()); }, [&](const Expr& e) { inNest.insert(e.get()); });
        auto place = [&](const Buffer& b, Span sp) {
            if (b->scope != Scope::Fragment) return;
            auto shape = constShape(*b);
            if (!shape || shape->empty()) return;
            require(b, makeReplicated(*shape, m_threads), "the scalar access at " + spanText(sp), sp);
        };
        walk(m_f->body,
             [&](const Stmt& s) {
                 if (auto* st = as<StoreNode>(s); st && !inNest.count(s.get())) place(st->buffer, st->span);
             },
             [&](const Expr& e) {
                 if (auto* l = as<LoadNode>(e); l && !inNest.count(e.get())) place(l->buffer, l->span);
             });
    }

    // Whether a Parallel nest reads or writes a fragment that already has a layout.
    bool nestTouchesPlaced(const ForNode& outer) {
        bool placed = false;
        auto check = [&](const Buffer& b) { placed |= b->scope == Scope::Fragment && m_req.count(b->name); };
        walk(outer.body,
             [&](const Stmt& s) {
                 if (auto* st = as<StoreNode>(s)) check(st->buffer);
             },
             [&](const Expr& e) {
                 if (auto* l = as<LoadNode>(e)) check(l->buffer);
             });
        return placed;
    }

    // True if every thread that runs an iteration of `loop` holds element `idx` of the fragment
    // layout `frag` in the register frag.local(idx), which lower-tile-ops reads for a broadcast.
    static bool broadcastHeld(const LayoutNode& frag, const std::vector<int64_t>& idx, const LayoutNode& loop) {
        if (frag.kind != LayoutKind::Fragment || loop.kind != LayoutKind::Fragment || loop.replicate != 1) return false;
        auto at = fragmentLocate(frag, idx);
        if (!at) return false;
        std::vector<bool> holds(static_cast<size_t>(std::max<int64_t>(frag.threads, 0)), false);
        for (int64_t t = 0; t < frag.threads; ++t) {
            auto e = fragmentInverse(frag, t, at->second);
            holds[static_cast<size_t>(t)] = e && *e == idx;
        }
        int64_t n = 1;
        for (auto e : loop.shape) n *= e;
        if (n > (int64_t(1) << 16)) return false;
        std::vector<int64_t> it(loop.shape.size(), 0);
        for (int64_t k = 0; k < n; ++k) {
            int64_t r = k;
            for (size_t d = it.size(); d-- > 0;) it[d] = r % loop.shape[d], r /= loop.shape[d];
            auto lt = fragmentLocate(loop, it);
            if (!lt || lt->first < 0 || lt->first >= frag.threads || !holds[static_cast<size_t>(lt->first)]) return false;
        }
        return true;
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
        struct Broadcast {
            Buffer buffer;
            std::vector<int64_t> idx;
            Span span;
        };
        std::vector<Broadcast> broadcasts;
        bool bad = false;
        auto classify = [&](const Buffer& b, const std::vector<Expr>& idx, Span sp, bool isLoad) {
            if (b->scope != Scope::Fragment) return;
            // `x[i] / s[0]`: a read at a fixed index of a fragment that every thread running the
            // loop holds (the result of a full reduction) is a broadcast; checked below.
            std::vector<int64_t> at;
            for (auto& e : idx)
                if (auto c = constInt(e)) at.push_back(*c);
            if (isLoad && !idx.empty() && at.size() == idx.size()) return broadcasts.push_back({b, at, sp});
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
                 if (auto* st = as<StoreNode>(s)) classify(st->buffer, st->indices, st->span, false);
             },
             [&](const Expr& e) {
                 if (auto* l = as<LoadNode>(e)) classify(l->buffer, l->indices, l->span, true);
             });
        if (bad) return;
        std::string where = "T.Parallel at " + spanText(outer.span);
        Layout loop;
        for (auto& b : aligned)
            if (auto it = m_req.find(b->name); it != m_req.end() && !loop) loop = it->second.layout;
        if (!loop)
            for (auto& b : rowVecs)
                if (auto it = m_req.find(b->name); it != m_req.end())
                    if ((loop = layoutWithRowCompanion(*it->second.layout, ext[0], ext[1]))) break;
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
        for (auto& bc : broadcasts) {
            auto it = m_req.find(bc.buffer->name);
            const Layout l = it == m_req.end() ? nullptr : it->second.layout;
            if (l && broadcastHeld(*l, bc.idx, *loop)) continue;
            m_ctx.diags.error(bc.span, "fragment '" + bc.buffer->name + "' is read at a fixed index inside a T.Parallel loop, but not every thread running the loop holds a copy of it" +
                                           (l ? " (its layout: " + l->description + ")" : std::string()),
                              "reduce into it first (T.reduce_sum(x, s) with s of shape (1,)), or keep the value in a T.alloc_var / shared buffer",
                              "infer-layouts");
            return;
        }
        for (auto& b : aligned) require(b, loop, where, outer.span);
        if (!rowVecs.empty()) {
            Layout rows = rowCompanion(*loop);
            if (!rows) {
                m_ctx.diags.error(outer.span, where + ": row values (" + rowVecs[0]->name + "[" + nest[0]->var->name +
                                                  "]) cannot be combined with layout '" + loop->description + "'",
                                  "copy the fragment through a shared tile into one of its own first", "infer-layouts");
                return;
            }
            for (auto& b : rowVecs) require(b, rows, where, outer.span);
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
            if (auto wg = m_in.m_gemmWarpgroups.find(n); wg != m_in.m_gemmWarpgroups.end()) {
                Attrs a = n->attrs;
                a["wgmma_warpgroups"] = int64_t(wg->second);
                return std::make_shared<TileOpNode>(n->op, n->args, a, n->span);
            }
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
    std::map<const TileOpNode*, int> m_gemmWarpgroups;  ///< gemms on the sm_90a wgmma path
    std::set<const ForNode*> m_innerParallel;
    std::map<std::string, Layout> m_loopLayouts;
    std::map<const ForNode*, std::string> m_loopKey;
};

}  // namespace

PrimFunc inferLayouts(const PrimFunc& f, PassContext& ctx) { return Inference(f, ctx).run(); }

}  // namespace ts::xform
