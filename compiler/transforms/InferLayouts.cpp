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
// The tile ops state their own requirements (ops::TileOp::layoutConstraints, propagateLayouts:
// gemm in compiler/ops/GemmSm80.cpp, reductions in ReduceOp.cpp, fragment copies in CopyOp.cpp);
// this pass orders the rounds, places T.Parallel nests and scalar accesses, and gives defaults.
// Requires: elaborated + bounds-checked IR. Produces: f->layouts, gemm attrs warp_m/warp_n,
// For attr layout_key on Parallel nests. Invalidates: nothing.
#include <algorithm>
#include <exception>
#include <map>
#include <set>
#include <sstream>

#include "compiler/analysis/GemmPartition.h"
#include "compiler/analysis/LayoutViews.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/LoopLayouts.h"
#include "compiler/analysis/Swizzle.h"
#include "compiler/analysis/UserLayouts.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/FragmentViews.h"
#include "compiler/ops/Registry.h"
#include "compiler/transforms/Passes.h"
#include "compiler/transforms/WarpRoles.h"

namespace ts::xform {
using namespace ts::ir;
using namespace ts::analysis;

namespace {

// Equal placement of every element, whatever constructor made the layouts (a user T.Fragment
// equal to the inferred block fragment is no conflict).
bool sameLayout(const Layout& a, const Layout& b) { return sameMapping(*a, *b); }

std::string spanText(Span s) { return ops::LayoutSolver::lineOf(s); }

struct Requirement {
    Layout layout;
    std::string by;  // "T.gemm at line 12"
};

class Inference final : public ops::LayoutSolver {
public:
    /// `noOrder`: fragments (gemm accumulators, register A operands) that may not take the
    /// warpgroup order, each with the requirement that conflicted with it in an earlier solve.
    Inference(const PrimFunc& f, PassContext& ctx, bool warpgroupOrder, std::map<std::string, std::string> noOrder = {})
        : m_f(f), m_ctx(ctx), m_warpgroupOrder(warpgroupOrder), m_noOrder(std::move(noOrder)) {
        m_kernel = findKernel(f);
        m_threads = m_blockThreads = m_kernel ? m_kernel->threadCount() : 1;
        // Tile ops and nests inside a warp role (T.ws, `if tx < 128`) are laid out over the
        // role's threads (WarpRoles.h), as lower-tile-ops lowers them.
        if (m_kernel) m_roles = warpRolesOf(f->body, WarpRole{0, m_blockThreads});
        for (auto& [name, l] : f->layouts) m_req[name] = {l, "T.annotate_layout"};
        for (auto& p : f->params) m_names.insert(p->name);
        std::map<std::string, Buffer> frags;
        walk(f->body, [&](const Stmt& s) {
            auto* a = as<AllocNode>(s);
            if (!a) return;
            m_names.insert(a->buffer->name);
            if (a->buffer->scope == Scope::Fragment) frags[a->buffer->name] = a->buffer;
            if (const std::string* base = fragmentViewBase(*f, *a->buffer))
                if (auto it = frags.find(*base); it != frags.end()) {
                    m_viewBase[a->buffer->name] = it->second;
                    m_views[*base].push_back(a->buffer);
                }
        });
    }

    PrimFunc run() {
        if (!m_kernel) return m_f;
        // Round 1: gemm constraints (accumulators, fragment A operands), then reductions (whose
        // source may be a gemm accumulator whatever the program order); round 2: Parallel nests
        // touching an already-placed fragment, then (when none is left) fragment -> fragment
        // copies placing an unplaced side, then the first remaining nest with the default block
        // fragment, until every nest is placed; round 3: defaults for the rest.
        std::vector<const TileOpNode*> tileOps;
        std::vector<const ForNode*> nests;
        walk(m_f->body, [&](const Stmt& s) {
            if (auto* t = as<TileOpNode>(s)) tileOps.push_back(t);
        });
        walk(m_f->body, [&](const Stmt& s) {
            if (auto* fr = as<ForNode>(s); fr && fr->forKind == ForKind::Parallel && !m_innerParallel.count(fr)) {
                nests.push_back(fr);
                const ForNode* innermost = fr;
                for (auto* l = as<ForNode>(fr->body); l && l->forKind == ForKind::Parallel; l = as<ForNode>(l->body)) {
                    m_innerParallel.insert(l);
                    innermost = l;
                }
                rejectImperfectNest(*fr, *innermost);
            }
        });
        narrowestCompanions(nests);
        for (auto* t : tileOps) enter(t), ops::get(t->op).layoutConstraints(ops::LayoutRound::Hardware, *this, *t);
        enter(nullptr);
        // Scalar accesses before the derived round: a reduction whose result is read as a scalar
        // (`amax[0]` outside T.Parallel) then sees its destination replicated and reduces into
        // it through shared memory instead of claiming a row layout for it.
        scalarAccesses();
        replicatedReads(nests);
        for (auto* t : tileOps) enter(t), ops::get(t->op).layoutConstraints(ops::LayoutRound::Derived, *this, *t);
        enter(nullptr);
        while (!nests.empty() && !m_ctx.diags.hasErrors()) {
            bool progress = false;
            for (size_t k = 0; k < nests.size();) {
                if (nestTouchesPlaced(*nests[k])) {
                    enter(nests[k]);
                    parallelNest(*nests[k]);
                    enter(nullptr);
                    nests.erase(nests.begin() + static_cast<long>(k));
                    progress = true;
                } else {
                    ++k;
                }
            }
            // A copy gives its unplaced side the other's layout only when no nest constrains it:
            // a nest's own requirement wins, and the copy converts (lower-tile-ops).
            if (!progress) progress = propagate(tileOps);
            if (!progress) {
                // The first nest of the highest rank takes the default: a 2-D nest reading row
                // values x[i] places x as its row companion, and a 1-D nest writing x then
                // follows (defaulting the 1-D nest first would give x a layout no 2-D nest
                // can read it with).
                size_t pick = 0;
                for (size_t k = 1; k < nests.size(); ++k)
                    if (nestVars(*nests[k]).size() > nestVars(*nests[pick]).size()) pick = k;
                enter(nests[pick]);
                parallelNest(*nests[pick]);
                enter(nullptr);
                nests.erase(nests.begin() + static_cast<long>(pick));
            }
        }
        propagate(tileOps);
        walk(m_f->body, [&](const Stmt& s) {
            if (auto* t = as<TileOpNode>(s)) {
                enter(t);
                defaultsFor(*t);
                ops::get(t->op).propagateLayouts(*this, *t);
                enter(nullptr);
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

    // For each fragment, the narrowest element size among the same-shaped fragments a T.Parallel
    // nest accesses together with it: a performance hint only (vectorEltBytes), any layout is exact.
    void narrowestCompanions(const std::vector<const ForNode*>& nests) {
        for (auto* n : nests) {
            std::vector<const BufferNode*> frags;
            walk(n->body, [&](const Stmt& st) {
                if (auto* x = as<StoreNode>(st); x && x->buffer->scope == Scope::Fragment) frags.push_back(x->buffer.get());
            }, [&](const Expr& e) {
                if (auto* x = as<LoadNode>(e); x && x->buffer->scope == Scope::Fragment) frags.push_back(x->buffer.get());
            });
            for (auto* a : frags)
                for (auto* b : frags) {
                    auto sa = constShape(*a), sb = constShape(*b);
                    if (!sa || !sb || *sa != *sb) continue;
                    auto [it, fresh] = m_narrowest.try_emplace(a->name, dtypeBytes(a->dtype));
                    it->second = std::min(it->second, dtypeBytes(b->dtype));
                }
        }
    }

    // --- ops::LayoutSolver
    int vectorEltBytes(const Buffer& b) const override {
        auto it = m_narrowest.find(b->name);
        return it == m_narrowest.end() ? dtypeBytes(b->dtype) : std::min(it->second, dtypeBytes(b->dtype));
    }
    const Target& target() const override { return m_ctx.target; }
    const PrimFuncNode& func() const override { return *m_f; }
    int64_t threads() const override { return m_threads; }
    Layout placed(const Buffer& b, std::string* by) const override {
        auto it = m_req.find(b->name);
        if (it == m_req.end()) return nullptr;
        if (by) *by = it->second.by;
        return it->second.layout;
    }
    void require(const Buffer& b, Layout l, const std::string& by, Span span) override {
        if (auto wp = analysis::mmaWarpPartitionOf(*l); wp && wp->byWarpgroup) m_usedWarpgroupOrder = true;
        auto it = m_req.find(b->name);
        if (it == m_req.end()) {
            m_req[b->name] = {l, by};
            tieViews(b, l, by, span);
            return;
        }
        if (sameLayout(it->second.layout, l)) return;
        // A conflict with the warpgroup order: remember the fragment (a view's base) and the
        // other side, so the next solve keeps just this fragment off that order.
        auto ordered = [](const Layout& x) {
            auto wp = analysis::mmaWarpPartitionOf(*x);
            return wp && wp->byWarpgroup;
        };
        if (ordered(it->second.layout) != ordered(l)) {
            auto v = m_viewBase.find(b->name);
            const std::string& frag = v != m_viewBase.end() ? v->second->name : b->name;
            const bool oldOrdered = ordered(it->second.layout);
            m_orderConflicts.try_emplace(frag, (oldOrdered ? by : it->second.by) + " needs " +
                                                   (oldOrdered ? l : it->second.layout)->description);
        }
        m_ctx.diags.error(
            span,
            "conflicting layouts for " +
                std::string(b->scope == Scope::Shared ? "shared buffer '" : "fragment '") +
                b->name + "': " + it->second.by + " needs " + it->second.layout->description +
                ", but " + by + " needs " + l->description,
            "copy the data into a second fragment (T.copy) so each op gets its own layout",
            "infer-layouts");
    }

    bool wgmmaWarpgroupOrder(const TileOpNode& gemm) const override {
        if (!m_warpgroupOrder) return false;
        for (size_t i : {size_t(0), size_t(2)})
            if (i < gemm.args.size() && gemm.isRegion(i) && m_noOrder.count(gemm.region(i).buffer->name)) return false;
        return true;
    }
    std::string wgmmaOrderConflict(const TileOpNode& gemm) const override {
        for (size_t i : {size_t(2), size_t(0)})
            if (i < gemm.args.size() && gemm.isRegion(i))
                if (auto it = m_noOrder.find(gemm.region(i).buffer->name); it != m_noOrder.end()) return it->second;
        return {};
    }
    /// Fragments whose warpgroup-order layout conflicted with another requirement (name -> that
    /// requirement, "T.gemm at line 34 needs ...").
    const std::map<std::string, std::string>& orderConflicts() const { return m_orderConflicts; }
    /// Whether some requirement was an mma_c layout in warpgroup order.
    bool usedWarpgroupOrder() const { return m_usedWarpgroupOrder; }
    void annotate(const TileOpNode& n, Attrs attrs) override {
        for (auto& [k, v] : attrs) m_annotations[&n][k] = v;
    }
    void error(Span at, const std::string& msg, const std::string& hint) override {
        m_ctx.diags.error(at, msg, hint, "infer-layouts");
    }
    void note(Span at, const std::string& msg, const std::string& hint) override {
        m_ctx.diags.add({Severity::Note, at, msg, hint, "infer-layouts"});
    }

private:
    // A fragment and its T.reshape views share registers: placing one places the others with
    // the same element placement seen through their shapes (reshapeLayout).
    void tieViews(const Buffer& b, const Layout& l, const std::string& by, Span span) {
        std::vector<Buffer> tied;
        if (auto it = m_viewBase.find(b->name); it != m_viewBase.end()) tied.push_back(it->second);
        if (auto it = m_views.find(b->name); it != m_views.end()) tied.insert(tied.end(), it->second.begin(), it->second.end());
        for (auto& t : tied) {
            auto shape = constShape(*t);
            Layout tl = shape ? reshapeLayout(l, *shape) : nullptr;
            if (!tl) {
                m_ctx.diags.error(span, "fragment '" + t->name + "' views the registers of '" + b->name + "', whose layout (" +
                                            l->description + ", by " + by + ") cannot be seen through the shape of '" + t->name + "'",
                                  "reshape only the leading dimensions of a fragment whose rows are padded, or copy it into a fragment of the new shape",
                                  "infer-layouts");
                continue;
            }
            require(t, tl, by + " (through the view '" + (m_viewBase.count(b->name) ? b->name : t->name) + "')", span);
        }
    }

    // Every op's propagateLayouts, in program order; whether any placed a buffer.
    bool propagate(const std::vector<const TileOpNode*>& tileOps) {
        bool placed = false;
        for (auto* t : tileOps) enter(t), placed |= ops::get(t->op).propagateLayouts(*this, *t);
        enter(nullptr);
        return placed;
    }

    // The cheapest block fragment of `shape`; a rank-3+ shape is distributed like the 2-D one
    // over its merged leading dims (reshapeLayout).
    Layout defaultBlock(const std::vector<int64_t>& shape, int eltBytes) const {
        int64_t rows = 1;
        for (size_t d = 0; d + 1 < shape.size(); ++d) rows *= shape[d];
        auto p = chooseBlockFragment(rows, shape.back(), m_threads, eltBytes);
        Layout l = makeBlockFragment(p, shape.size() == 1);
        return shape.size() > 2 ? reshapeLayout(l, shape) : l;
    }

    Layout defaultFragment(const Buffer& b) {
        auto shape = constShape(*b);
        if (!shape || shape->empty()) return nullptr;
        return defaultBlock(*shape, vectorEltBytes(b));
    }

    void allocDefault(const Buffer& b) {
        if (m_req.count(b->name)) return;
        if (b->scope == Scope::Fragment) {
            if (auto l = defaultFragment(b)) require(b, l, "the default layout", b->span);
            else
                m_ctx.diags.error(b->span, "cannot infer a layout for fragment '" + b->name + "': only fragments with constant shapes are supported",
                                  "use a constant shape", "infer-layouts");
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
    void scalarAccesses() {
        // The body without its T.Parallel nests (an expression node may be shared by a nest and
        // a statement outside it, e.g. a let value inlined into both: only the outside use counts).
        struct WithoutNests : Mutator {
            Stmt visitFor(const ForNode* n, const Stmt& self) override {
                return n->forKind == ForKind::Parallel ? seq({}, n->span) : Mutator::visitFor(n, self);
            }
        };
        auto place = [&](const Buffer& b, Span sp) {
            if (b->scope != Scope::Fragment) return;
            auto shape = constShape(*b);
            if (!shape || shape->empty()) return;
            require(b, makeReplicated(*shape, m_threads), "the scalar access at " + spanText(sp), sp);
        };
        walk(WithoutNests().mutate(m_f->body),
             [&](const Stmt& s) {
                 if (auto* st = as<StoreNode>(s)) place(st->buffer, st->span);
             },
             [&](const Expr& e) {
                 if (auto* l = as<LoadNode>(e)) place(l->buffer, l->span);
             });
    }

    // The loop variables of the maximal Parallel nest starting at `outer`.
    static std::vector<const VarNode*> nestVars(const ForNode& outer) {
        std::vector<const VarNode*> vars{outer.var.get()};
        for (auto* l = as<ForNode>(outer.body); l && l->forKind == ForKind::Parallel; l = as<ForNode>(l->body))
            vars.push_back(l->var.get());
        return vars;
    }

    // How a Parallel nest over `vars` indexes a fragment: by the loop variables in order, by the
    // first one only (row values of a 2-D nest), at constant indices (a broadcast), or otherwise.
    // Permuted: by every loop variable once, in another order (`t[j, i]` in a nest over (i, j));
    // then idx[d] is vars[(*perm)[d]].
    // Shifted: idx[d] = vars[d] + shift[d], each shift a multiple of a constant step (a constant
    // or `s * step` with s outside the nest: sparse MLA backward's `acc_dkv[bi_i + s * (BS // 2), d_i]`).
    enum class NestAccess { Aligned, Permuted, RowValue, Fixed, Shifted, Other };
    /// The constant step of a shifted index `var + k * step` / `var + step` (0: not shifted this way).
    static std::optional<int64_t> shiftStep(const Expr& e, const VarNode* var) {
        if (e.get() == var) return 0;
        auto* b = as<BinaryNode>(e);
        if (!b || b->op != BinOp::Add) return std::nullopt;
        const Expr& other = b->a.get() == var ? b->b : b->b.get() == var ? b->a : nullptr;
        if (!other) return std::nullopt;
        if (auto c = constInt(other)) return *c;
        if (auto* m = as<BinaryNode>(other); m && m->op == BinOp::Mul) {
            bool usesVar = false;
            walkExpr(other, [&](const Expr& x) { usesVar |= x.get() == var; });
            if (usesVar) return std::nullopt;
            if (auto c = constInt(m->b)) return *c;
            if (auto c = constInt(m->a)) return *c;
        }
        return std::nullopt;
    }
    // Unit dims indexed by 0 are dropped first (`logits[i, 0]` of an (N, 1) fragment in a nest
    // over i is Permuted with the identity: the layout the loop's, seen through the unit dim).
    static NestAccess classifyAccess(const std::vector<Expr>& idx, const std::vector<const VarNode*>& vars,
                                     std::vector<size_t>* perm = nullptr, const BufferNode* b = nullptr) {
        bool fixed = !idx.empty();
        for (auto& e : idx) fixed &= constInt(e).has_value();
        if (fixed) return NestAccess::Fixed;
        bool aligned = idx.size() == vars.size();
        for (size_t d = 0; aligned && d < idx.size(); ++d) aligned = idx[d].get() == vars[d];
        if (aligned) return NestAccess::Aligned;
        if (vars.size() == 2 && idx.size() == 1 && idx[0].get() == vars[0]) return NestAccess::RowValue;
        std::vector<Expr> sq = idx;
        if (auto shape = b ? constShape(*b) : std::nullopt; shape && shape->size() == idx.size() && idx.size() > vars.size()) {
            sq.clear();
            for (size_t d = 0; d < idx.size(); ++d)
                if ((*shape)[d] != 1 || constInt(idx[d]) != 0) sq.push_back(idx[d]);
        }
        if (idx.size() == vars.size()) {
            bool shifted = false, ok = true;
            for (size_t d = 0; ok && d < idx.size(); ++d) {
                auto st = shiftStep(idx[d], vars[d]);
                ok = st.has_value();
                shifted |= ok && *st != 0;
            }
            if (ok && shifted) return NestAccess::Shifted;
        }
        if (sq.size() == vars.size()) {
            std::vector<size_t> p;
            for (auto& e : sq)
                for (size_t v = 0; v < vars.size(); ++v)
                    if (e.get() == vars[v] && std::find(p.begin(), p.end(), v) == p.end()) {
                        p.push_back(v);
                        break;
                    }
            if (p.size() == vars.size()) {
                if (perm) *perm = std::move(p);
                return NestAccess::Permuted;
            }
        }
        return NestAccess::Other;
    }
    static std::vector<int64_t> squeezed(const std::vector<int64_t>& shape) {
        std::vector<int64_t> out;
        for (auto e : shape)
            if (e != 1) out.push_back(e);
        return out.empty() ? std::vector<int64_t>{1} : out;
    }
    static std::vector<size_t> inversePerm(const std::vector<size_t>& p) {
        std::vector<size_t> q(p.size());
        for (size_t d = 0; d < p.size(); ++d) q[p[d]] = d;
        return q;
    }

    // Fragments read inside T.Parallel at other indices (`mask[j]` in a nest over (i, j), `a[k, i]`
    // with a serial k) are held whole by every thread (TileLang's replicated fragment), decided
    // before any nest is placed so that the nests writing them take that layout. Writes at such
    // indices stay an error (parallelNest): a thread would update only its own copy.
    void replicatedReads(const std::vector<const ForNode*>& nests) {
        for (auto* n : nests) {
            auto vars = nestVars(*n);
            walk(n->body, [](const Stmt&) {}, [&](const Expr& e) {
                auto* l = as<LoadNode>(e);
                if (!l || l->buffer->scope != Scope::Fragment || m_req.count(l->buffer->name)) return;
                // A shifted read of a fragment no op has placed yet is held whole as before; one of
                // a placed fragment (a gemm accumulator) is left to parallelNest's shift check.
                const NestAccess how = classifyAccess(l->indices, vars, nullptr, l->buffer.get());
                if (how != NestAccess::Other && how != NestAccess::Shifted) return;
                if (auto shape = constShape(*l->buffer); shape && !shape->empty())
                    require(l->buffer, makeReplicated(*shape, m_threads),
                            "the read at " + spanText(l->span) + " (indices other than the T.Parallel loop variables)", l->span);
            });
        }
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

    // True if the fragment layout `l` puts element idx + steps in the thread that holds idx,
    // wherever both are in its shape (then every multiple of the steps stays in that thread, as
    // each point between lies in the shape too).
    static bool shiftInvariant(const LayoutNode& l, const std::vector<int64_t>& steps) {
        if (l.kind != LayoutKind::Fragment || l.replicate != 1 || steps.size() != l.shape.size()) return false;
        int64_t n = 1;
        for (auto e : l.shape) n *= e;
        if (n > (int64_t(1) << 18)) return false;
        std::vector<int64_t> it(l.shape.size(), 0), to(l.shape.size(), 0);
        for (int64_t k = 0; k < n; ++k) {
            int64_t r = k;
            for (size_t d = it.size(); d-- > 0;) it[d] = r % l.shape[d], r /= l.shape[d];
            bool in = true;
            for (size_t d = 0; d < it.size(); ++d) {
                to[d] = it[d] + steps[d];
                in &= to[d] >= 0 && to[d] < l.shape[d];
            }
            if (!in) continue;
            auto a = fragmentLocate(l, it), b = fragmentLocate(l, to);
            if (!a || !b || a->first != b->first) return false;
        }
        return true;
    }

    // One T.Parallel nest is one layout over all its axes, so a T.Parallel loop may only nest
    // directly (as the whole body) in another; one under a statement, an `if` or a serial loop
    // inside the nest has no layout and would survive lowering.
    void rejectImperfectNest(const ForNode& outer, const ForNode& innermost) {
        bool reported = false;
        walk(innermost.body, [&](const Stmt& s) {
            auto* l = as<ForNode>(s);
            if (!l || l->forKind != ForKind::Parallel) return;
            m_innerParallel.insert(l);
            if (reported) return;
            reported = true;
            m_ctx.diags.error(l->span,
                              "a T.Parallel loop inside the T.Parallel loop at " + spanText(outer.span) +
                                  " must be the whole body of the loop around it",
                              "write one loop over all axes (for i, j in T.Parallel(M, N)), or make the outer loop "
                              "T.serial; statements beside an inner T.Parallel are not supported",
                              "infer-layouts");
        });
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
        // Classify fragment accesses in the body.
        std::vector<Buffer> aligned, rowVecs;
        std::vector<std::pair<Buffer, std::vector<size_t>>> permuted;
        std::set<const BufferNode*> rowVecWritten;
        struct Broadcast {
            Buffer buffer;
            std::vector<int64_t> idx;
            Span span;
        };
        std::vector<Broadcast> broadcasts, replicatedReads, shiftedReads;
        std::vector<const VarNode*> vars;
        for (auto* l : nest) vars.push_back(l->var.get());
        bool bad = false;
        auto classify = [&](const Buffer& b, const std::vector<Expr>& idx, Span sp, bool isLoad) {
            if (b->scope != Scope::Fragment) return;
            // `x[i] / s[0]`: a read at a fixed index of a fragment that every thread running the
            // loop holds (the result of a full reduction) is a broadcast; checked below.
            std::vector<size_t> perm;
            NestAccess how = classifyAccess(idx, vars, &perm, b.get());
            if (isLoad && how == NestAccess::Fixed) {
                std::vector<int64_t> at;
                for (auto& e : idx) at.push_back(*constInt(e));
                return broadcasts.push_back({b, at, sp});
            }
            if (how == NestAccess::Aligned) return aligned.push_back(b);
            if (how == NestAccess::Shifted && isLoad) {
                std::vector<int64_t> steps;
                for (size_t d = 0; d < idx.size(); ++d) steps.push_back(*shiftStep(idx[d], vars[d]));
                return shiftedReads.push_back({b, steps, sp});
            }
            if (how == NestAccess::Permuted) return permuted.push_back({b, perm});
            if (how == NestAccess::RowValue) {
                if (!isLoad) rowVecWritten.insert(b.get());
                return rowVecs.push_back(b);
            }
            // Any other read (`mask[j]` in a nest over (i, j), `a[k, i]` with a serial k, a
            // transposed tile): every thread running the loop may need any element, so the
            // fragment is held whole by every thread (TileLang's replicated fragment). Writes
            // must stay aligned: a thread would update only its own copy.
            if (isLoad) return replicatedReads.push_back({b, {}, sp});
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
        // The nest takes the layout of a placed fragment it indexes by its loop variables,
        // preferring one it writes (converting a written fragment costs a copy in and out, a
        // read one only a copy in).
        std::set<const BufferNode*> written;
        walk(nest.back()->body, [&](const Stmt& s) {
            if (auto* st = as<StoreNode>(s)) written.insert(st->buffer.get());
        });
        Layout loop;
        for (int pass = 0; pass < 2 && !loop; ++pass)
            for (auto& b : aligned)
                if (auto it = m_req.find(b->name); it != m_req.end() && !loop && (pass == 1 || written.count(b.get())))
                    loop = it->second.layout;
        // Else a placed fragment it reads at the loop variables shifted by multiples of a step
        // whose layout keeps each thread's elements under that shift (see shiftInvariant): the
        // loop follows it and each thread reads the shifted element from its own registers.
        if (!loop)
            for (auto& sr : shiftedReads)
                if (auto it = m_req.find(sr.buffer->name); it != m_req.end() && !loop && it->second.layout->shape == ext &&
                                                           shiftInvariant(*it->second.layout, sr.idx))
                    loop = it->second.layout;
        // Else a placed fragment it indexes by the loop variables in another order (a nest over
        // (h, n) scaling the (n, h) gemm accumulator `logits[n, h]`): the loop follows it.
        for (int pass = 0; pass < 2 && !loop; ++pass)
            for (auto& [b, perm] : permuted)
                if (auto it = m_req.find(b->name); it != m_req.end() && !loop && (pass == 1 || written.count(b.get())))
                    if (Layout sq = reshapeLayout(it->second.layout, b->shape.size() > vars.size() ? squeezed(it->second.layout->shape)
                                                                                                   : it->second.layout->shape))
                        loop = permuteLayout(sq, inversePerm(perm));
        if (!loop)
            for (auto& b : rowVecs)
                if (auto it = m_req.find(b->name); it != m_req.end())
                    if ((loop = layoutWithRowCompanion(*it->second.layout, ext[0], ext[1]))) break;
        if (!loop) {
            // The narrowest dtype sets the vector width: a bf16 row read from global memory gets
            // 16-byte (8-element) accesses even when an fp32 companion (RMSNorm's squares) shares
            // the layout -- that one only lives in registers, where 8 contiguous values cost nothing.
            int elt = 4;
            if (!aligned.empty()) {
                elt = vectorEltBytes(aligned[0]);
                for (auto& b : aligned) elt = std::min(elt, vectorEltBytes(b));
            }
            loop = defaultBlock(ext, elt);
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
        m_nestNeed.clear();
        for (auto& b : aligned) placeOrConvert(outer, b, loop, where);
        for (auto& [b, perm] : permuted) {
            Layout l = loop ? reshapeLayout(permuteLayout(loop, perm), *constShape(*b)) : nullptr;
            if (!l) {
                m_ctx.diags.error(outer.span, where + ": fragment '" + b->name + "' cannot take the loop's layout (" + loop->description +
                                                  ") through its unit dimensions", "index it by the loop variables in order", "infer-layouts");
                return;
            }
            placeOrConvert(outer, b, l, where);
        }
        for (auto& sr : shiftedReads) {
            auto it = m_req.find(sr.buffer->name);
            if (it != m_req.end() && sameLayout(it->second.layout, loop) && shiftInvariant(*loop, sr.idx)) {
                m_nestNeed[sr.buffer->name] = loop;
                continue;
            }
            replicatedReads.push_back({sr.buffer, {}, sr.span});  // no layout to follow: held whole
        }
        for (auto& rd : replicatedReads)
            if (auto shape = constShape(*rd.buffer); shape && !shape->empty())
                placeOrConvert(outer, rd.buffer, makeReplicated(*shape, m_threads),
                               "the read at " + spanText(rd.span) + " (indices other than the T.Parallel loop variables)");
        if (!rowVecs.empty()) {
            Layout rows = rowCompanion(*loop);
            if (!rows && rowVecWritten.empty()) {
                // Row values only read, under a loop layout without a row companion: every
                // thread holds them whole.
                for (auto& b : rowVecs)
                    if (auto shape = constShape(*b); shape && !shape->empty())
                        placeOrConvert(outer, b, makeReplicated(*shape, m_threads), where + " (row values read under a layout without a row companion)");
                rowVecs.clear();
            } else if (!rows) {
                m_ctx.diags.error(outer.span, where + ": row values (" + rowVecs[0]->name + "[" + nest[0]->var->name +
                                                  "]) cannot be combined with layout '" + loop->description + "'",
                                  "copy the fragment through a shared tile into one of its own first", "infer-layouts");
                return;
            }
            for (auto& b : rowVecs) placeOrConvert(outer, b, rows, where);
        }
        std::string key;
        for (int nth = 1; key.empty() || m_loopLayouts.count(key); ++nth) key = analysis::loopLayoutKey(outer.span.line, nth);
        m_loopLayouts[key] = loop;
        m_loopKey[&outer] = key;
    }

    // A fragment the nest needs in layout `l`: placed with it if it has none yet; if it already
    // has another one (a gemm accumulator that an element-wise nest of another layout also
    // reads or writes, row values shared by nests of two layouts), the nest works on a
    // converted copy instead (TileLang's layout conversion): a fragment of layout `l` that
    // T.copy fills from the original before the nest and, if the nest writes it, copies back
    // after it (lower-tile-ops converts fragment -> fragment copies through a shared tile).
    void placeOrConvert(const ForNode& outer, const Buffer& b, const Layout& l, const std::string& by) {
        // One nest holds a fragment in one layout: `x[j, i] = x[i, j]` needs two.
        if (auto n = m_nestNeed.find(b->name); n != m_nestNeed.end()) {
            if (!sameLayout(n->second, l))
                m_ctx.diags.error(outer.span,
                                  "fragment '" + b->name + "' is indexed in two ways in one T.Parallel nest (" +
                                      n->second->description + " and " + l->description +
                                      "): a nest distributes a fragment over the threads in one layout",
                                  "write one of the accesses into a second fragment in a nest of its own", "infer-layouts");
            return;
        }
        m_nestNeed[b->name] = l;
        auto it = m_req.find(b->name);
        if (it == m_req.end()) return require(b, l, by, outer.span);
        if (sameLayout(it->second.layout, l)) return;
        // A replicated copy puts the whole fragment in every thread's registers: fine for row
        // values and small tables, not for an accumulator tile (the conflict stays a diagnostic).
        if (l->family == "replicated" && l->localSize > kMaxReplicatedCopy) return require(b, l, by, outer.span);
        auto& convs = m_conversions[&outer];
        for (auto& c : convs)
            if (c.from.get() == b.get()) {
                if (!sameLayout(m_req.at(c.to->name).layout, l))
                    require(c.to, l, by, outer.span);  // the nest needs it in two layouts: the conflict diagnostic
                return;
            }
        std::string name = b->name + "_as_" + std::to_string(m_loopLayouts.size()) + "_" + std::to_string(convs.size());
        while (m_names.count(name)) name += "_";
        m_names.insert(name);
        auto to = std::make_shared<BufferNode>(name, b->dtype, b->shape, Scope::Fragment, b->span);
        m_req[name] = {l, by + " (a converted copy of '" + b->name + "', which " + it->second.by + " placed as " +
                              it->second.layout->description + ")"};
        convs.push_back({b, to});
    }

    static constexpr int64_t kMaxReplicatedCopy = 256;  ///< elements a converted replicated copy may hold

    struct Conversion {
        Buffer from, to;
    };

    // Rewrites a nest onto its converted copies: copy in (when the nest reads the fragment or
    // may leave elements unwritten), the nest, copy back (when it writes the fragment).
    Stmt convertNest(const ForNode& outer, Stmt nest, const std::vector<Conversion>& convs) {
        struct Rename : Mutator {
            std::map<const BufferNode*, Buffer> to;
            Expr visitLoad(const LoadNode* n, const Expr& self) override {
                auto it = to.find(n->buffer.get());
                if (it == to.end()) return Mutator::visitLoad(n, self);
                std::vector<Expr> idx;
                for (auto& e : n->indices) idx.push_back(mutate(e));
                return load(it->second, idx, n->span);
            }
            Stmt visitStore(const StoreNode* n, const Stmt& self) override {
                auto it = to.find(n->buffer.get());
                if (it == to.end()) return Mutator::visitStore(n, self);
                std::vector<Expr> idx;
                for (auto& e : n->indices) idx.push_back(mutate(e));
                return store(it->second, idx, mutate(n->value), n->span);
            }
        } rename;
        std::set<const BufferNode*> read, written;
        bool conditional = false;
        walk(nest,
             [&](const Stmt& s) {
                 if (auto* st = as<StoreNode>(s)) written.insert(st->buffer.get());
                 conditional |= as<IfNode>(s) != nullptr;
             },
             [&](const Expr& e) {
                 if (auto* l = as<LoadNode>(e)) read.insert(l->buffer.get());
             });
        std::vector<Stmt> before, after;
        auto whole = [&](const Buffer& b) {
            std::vector<Range> r;
            for (auto& e : b->shape) r.push_back({intImm(0), e});
            return Region{b, r, outer.span};
        };
        for (auto& c : convs) {
            rename.to[c.from.get()] = c.to;
            m_hoisted.push_back(std::make_shared<AllocNode>(c.to, nullptr, c.from->span));
            if (read.count(c.from.get()) || conditional || !written.count(c.from.get()))
                before.push_back(std::make_shared<TileOpNode>(TileOpKind::Copy, std::vector<TileArg>{whole(c.from), whole(c.to)}, Attrs{}, outer.span));
            if (written.count(c.from.get()))
                after.push_back(std::make_shared<TileOpNode>(TileOpKind::Copy, std::vector<TileArg>{whole(c.to), whole(c.from)}, Attrs{}, outer.span));
        }
        before.push_back(rename.mutate(nest));
        before.insert(before.end(), after.begin(), after.end());
        return seq(before, outer.span);
    }

    class AttrWriter : public Mutator {
    public:
        explicit AttrWriter(Inference& in) : m_in(in) {}

    protected:
        Stmt visitTileOp(const TileOpNode* n, const Stmt& self) override {
            auto it = m_in.m_annotations.find(n);
            if (it == m_in.m_annotations.end()) return self;
            Attrs a = n->attrs;
            for (auto& [k, v] : it->second) a[k] = v;
            return std::make_shared<TileOpNode>(n->op, n->args, a, n->span);
        }
        Stmt visitFor(const ForNode* n, const Stmt& self) override {
            Stmt body = mutate(n->body);
            auto it = m_in.m_loopKey.find(n);
            if (it == m_in.m_loopKey.end() && body == n->body) return self;
            Attrs a = n->attrs;
            if (it != m_in.m_loopKey.end()) a["layout_key"] = it->second;
            Stmt loop = forLoop(n->var, n->min, n->extent, n->forKind, body, a, n->span);
            if (auto c = m_in.m_conversions.find(n); c != m_in.m_conversions.end() && !c->second.empty())
                return m_in.convertNest(*n, loop, c->second);
            return loop;
        }
        // Converted copies are declared at the top of the kernel (outside any pipelined loop).
        Stmt visitKernel(const KernelNode* n, const Stmt& self) override {
            Stmt body = mutate(n->body);
            if (m_in.m_hoisted.empty() && body == n->body) return self;
            std::vector<Stmt> all = m_in.m_hoisted;
            all.push_back(body);
            return std::make_shared<KernelNode>(n->grid, n->threads, n->blockVars, n->threadVars, seq(all, n->span), n->span);
        }

    private:
        Inference& m_in;
    };

    const PrimFunc& m_f;
    PassContext& m_ctx;
    bool m_warpgroupOrder = true, m_usedWarpgroupOrder = false;
    std::map<std::string, std::string> m_noOrder, m_orderConflicts;
    const KernelNode* m_kernel = nullptr;
    int64_t m_threads = 1;       ///< threads of the statement being placed (its warp role's)
    int64_t m_blockThreads = 1;  ///< the block's
    std::unordered_map<const StmtNode*, WarpRole> m_roles;
    /// Makes `s`'s warp role (or the block, for null / a statement outside roles) current.
    void enter(const StmtNode* s) {
        auto it = s ? m_roles.find(s) : m_roles.end();
        m_threads = it == m_roles.end() ? m_blockThreads : it->second.count;
    }
    std::map<std::string, Requirement> m_req;
    std::map<std::string, int> m_narrowest;  ///< fragment name -> narrowest companion element bytes (vectorEltBytes)
    std::map<const TileOpNode*, Attrs> m_annotations;  ///< from ops' annotate (gemm warp grid)
    std::set<const ForNode*> m_innerParallel;
    std::map<std::string, Layout> m_loopLayouts;
    std::map<const ForNode*, std::string> m_loopKey;
    std::map<const ForNode*, std::vector<Conversion>> m_conversions;  ///< nests working on converted copies
    std::map<std::string, Buffer> m_viewBase;           ///< fragment view -> the fragment it views
    std::map<std::string, std::vector<Buffer>> m_views;  ///< fragment -> its views
    std::map<std::string, Layout> m_nestNeed;  ///< the nest being placed: layout each fragment needs
    std::set<std::string> m_names;    ///< buffer names in use (converted copies get fresh ones)
    std::vector<Stmt> m_hoisted;      ///< their Allocs (AttrWriter)
};

}  // namespace

// First with the wgmma fragment path's warpgroup order (wgmma for accumulators that are not 16
// rows per warp of one warp column). That order is a new layout for every consumer of the
// accumulator; where one cannot take it (an mma.sync gemm accumulating into the same fragment,
// a user layout, a read at rows another warp holds, ...), the program is solved again with that
// fragment off the order -- its gemms keep mma.sync, as before the order existed -- while other
// accumulators keep it; rather than reporting a conflict the user did not write. A conflict that
// names no gemm fragment (or one that persists) solves everything without the order, as a last try.
PrimFunc inferLayouts(const PrimFunc& f, PassContext& ctx) {
    std::map<std::string, std::string> noOrder;
    // Each round keeps at least one more fragment off the order, so a handful of rounds suffice
    // for real kernels; the bound only guards the loop.
    for (int round = 0; round < 8; ++round) {
        DiagnosticEngine diags;
        PassContext trial{diags, ctx.target};
        Inference withOrder(f, trial, true, noOrder);
        PrimFunc out;
        std::exception_ptr thrown;
        try {
            out = withOrder.run();
        } catch (const CompileError&) {
            thrown = std::current_exception();
        }
        if (!withOrder.usedWarpgroupOrder() || (!thrown && !diags.hasErrors())) {
            for (auto& d : diags.take()) ctx.diags.add(std::move(d));
            if (thrown) std::rethrow_exception(thrown);
            return out;
        }
        bool more = false;
        for (auto& [frag, why] : withOrder.orderConflicts()) more = noOrder.try_emplace(frag, why).second || more;
        if (!more) break;
    }
    return Inference(f, ctx, false).run();
}

}  // namespace ts::xform
