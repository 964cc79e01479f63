// lower-to-threads: turns logical multi-dimensional indices into flat element offsets, applying
// each buffer's physical layout: row-major (or explicit strides) for global tensors and local
// arrays; for shared tiles, padded rows and the XOR swizzle of analysis/Swizzle.h computed
// relative to the tile's base (leading dimensions, e.g. pipeline stages, stack whole tiles); for
// T.Layout index maps that are none of these, the map itself.
// A shared tile and its T.view / T.reshape views are one set of bytes: when one of them has a
// layout that is not row-major, the others' elements are placed through it (TileLang's semantics:
// a view's layout derives from its tile's; analysis/SharedViewLayout.h picks the member): element
// f (row-major) of a member is byte f * size, i.e. that member's logical element at that byte.
// After this pass every Load/Store has one index, which is what codegen emits; padded and
// index-mapped shared tiles are re-declared with their physical extent.
// Requires: lower-tile-ops, plan-smem. Produces: flat indices, attr "flattened".
// Invalidates: logical indices (the pass viewer shows the physical ones from here on).
#include <map>
#include <set>

#include "compiler/analysis/SharedViewLayout.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Views.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

Expr rowMajor(const BufferNode& b, const std::vector<Expr>& idx, size_t from, size_t to, int64_t padLast = 0) {
    Expr off = intImm(0);
    for (size_t d = from; d < to; ++d) {
        Expr ext = b.shape[d];
        if (d + 1 == b.shape.size() && padLast) ext = add(ext, intImm(padLast));
        off = add(mul(off, ext), idx[d]);
    }
    return off;
}

/// A global tensor whose elements cannot all be addressed with 32-bit offsets (more than
/// 2^31-1 elements): its offsets are computed in int64 (each index widened before the first
/// multiply), so ordinary tensors keep 32-bit index arithmetic.
bool needs64BitOffsets(const BufferNode& b) {
    if (b.scope != Scope::Global) return false;
    auto n = constNumel(b);
    return n && *n > int64_t(INT32_MAX);
}

Expr rowMajor64(const BufferNode& b, const std::vector<Expr>& idx) {
    Expr off = intImm(0, {}, DType::Int64);
    for (size_t d = 0; d < idx.size(); ++d)
        off = add(mul(off, cast(DType::Int64, b.shape[d])), cast(DType::Int64, idx[d]));
    return off;
}

/// `e` computed in int64: every integer leaf widened and the + - * // % above them done in 64
/// bits. A 1-D index of a tensor (or a flat view) of more than 2^31-1 elements is the user's own
/// expression (`Af[i * N + 5]`): widening only its result would keep `i * 65536` overflowing in
/// 32 bits (fresh-user trial 2026-12-06, helper-109).
Expr widen64(const Expr& e) {
    if (!e || !isInt(e->dtype)) return e;
    if (e->dtype == DType::Int64) {
        // Already 64-bit at the top, but maybe over 32-bit arithmetic: `bx * N + 7 + (M - 1) * N`
        // with an int64 literal is int64(bx * N + 7) + 4294901760, whose bx * N still overflows.
        if (auto* c = as<CastNode>(e); c && isInt(c->value->dtype) && isSigned(c->value->dtype)) return widen64(c->value);
        auto* b = as<BinaryNode>(e);
        if (!b || !isInt(b->a->dtype) || !isInt(b->b->dtype)) return e;
        Expr x = widen64(b->a), y = widen64(b->b);
        return x == b->a && y == b->b ? e : std::make_shared<BinaryNode>(b->op, x, y, DType::Int64, e->span);
    }
    if (auto* b = as<BinaryNode>(e)) {
        switch (b->op) {
            case BinOp::Add: case BinOp::Sub: case BinOp::Mul: case BinOp::FloorDiv: case BinOp::FloorMod:
            case BinOp::Div: case BinOp::Min: case BinOp::Max:
                return std::make_shared<BinaryNode>(b->op, widen64(b->a), widen64(b->b), DType::Int64, e->span);
            default: break;
        }
    }
    if (auto* sel = as<SelectNode>(e)) return std::make_shared<SelectNode>(sel->cond, widen64(sel->t), widen64(sel->f), DType::Int64, e->span);
    return cast(DType::Int64, e);
}

int log2i(int64_t v) {
    int r = 0;
    while ((int64_t(1) << r) < v) ++r;
    return r;
}

class Flatten : public Mutator {
public:
    Flatten(const PrimFuncNode& f, PassContext& ctx) : m_f(f), m_ctx(ctx), m_place(analysis::sharedPlacements(f)) {
        walk(f.body, [&](const Stmt& s) {
            if (auto* a = as<AllocNode>(s); a && a->buffer->scope == Scope::Shared) m_shared[a->buffer->name] = a->buffer;
        });
        for (auto& [name, p] : m_place)
            if (!p.error.empty())
                if (auto it = m_shared.find(name); it != m_shared.end())
                    ctx.diags.error(it->second->span, p.error, p.hint, "lower-to-threads");
    }

    /// The member of n's tile-and-views group whose layout places n's elements (SharedViewLayout.h).
    const analysis::SharedPlacement* placedThrough(const BufferNode& n) const {
        if (n.scope != Scope::Shared || m_place.empty()) return nullptr;
        auto it = m_place.find(n.name);
        return it != m_place.end() && it->second.through && m_shared.count(it->second.through->name) ? &it->second : nullptr;
    }

    Expr offset(const Buffer& b, const std::vector<Expr>& idx) {
        const BufferNode& n = *b;
        if (const analysis::SharedPlacement* p = placedThrough(n))
            return placedOffset(n, m_shared.at(p->through->name), *p->layout, idx);
        if (n.scope == Scope::Shared)
            if (auto it = m_f.layouts.find(n.name);
                it != m_f.layouts.end() && it->second && it->second->offset)
                return userOffset(n, *it->second, idx);
        if (idx.size() <= 1) return idx.empty() ? intImm(0) : needs64BitOffsets(n) ? widen64(idx[0]) : idx[0];  // (visitLoad/visitStore widen unplaced 1-D indices themselves)
        if (needs64BitOffsets(n)) {
            if (n.strides.empty()) return rowMajor64(n, idx);
            Expr off = intImm(0, {}, DType::Int64);
            for (size_t d = 0; d < idx.size() && d < n.strides.size(); ++d)
                off = add(off, mul(cast(DType::Int64, idx[d]), cast(DType::Int64, n.strides[d])));
            return off;
        }
        if (!n.strides.empty()) {
            Expr off = intImm(0);
            for (size_t d = 0; d < idx.size() && d < n.strides.size(); ++d) off = add(off, mul(idx[d], n.strides[d]));
            return off;
        }
        if (n.scope != Scope::Shared) return rowMajor(n, idx, 0, idx.size());
        auto it = m_f.layouts.find(n.name);
        const LayoutNode* l = it != m_f.layouts.end() ? it->second.get() : nullptr;
        int64_t pad = l ? l->padElems : 0;
        int mode = l ? l->swizzleBytes : 0;
        size_t r = idx.size();
        // Tile = last two dims; leading dims select a tile.
        Expr tileIdx = rowMajor(n, idx, 0, r - 2);
        Expr tileElems = mul(n.shape[r - 2], add(n.shape[r - 1], intImm(pad)));
        Expr inTile = add(mul(idx[r - 2], add(n.shape[r - 1], intImm(pad))), idx[r - 1]);
        if (mode && !pad) {
            int elt = dtypeBytes(n.dtype);
            int64_t rowBytes = l->rowBytes;
            // key = (rowBytes >= 128 ? o / rowBytes : o / 128) % 8, in elements.
            Expr key = rowBytes >= 128 ? idx[r - 2] : floordiv(inTile, intImm(128 / elt));
            key = binary(BinOp::BitAnd, key, intImm(mode / 16 - 1));
            inTile = binary(BinOp::BitXor, inTile, binary(BinOp::Shl, key, intImm(log2i(16 / elt))));
        }
        return add(mul(tileIdx, tileElems), inTile);
    }

    // Element `idx` of `v`, placed through `by`'s layout: the physical element of `by` holding the
    // element's first byte (row-major byte f * size of v), in v's units. An element narrower than
    // by's is a part of one of them; a wider one spans consecutive ones, which the layout keeps
    // together (sharedPlacements checked that it keeps 16-byte chunks whole).
    Expr placedOffset(const BufferNode& v, const Buffer& by, const LayoutNode& l, const std::vector<Expr>& idx) {
        const int64_t vb = dtypeBits(v.dtype), tb = dtypeBits(by->dtype);
        Expr f = idx.empty() ? intImm(0) : rowMajor(v, idx, 0, idx.size());
        auto shape = constShape(*by);
        if (l.swizzleBytes && !l.padElems && !l.offset && shape && shape->size() >= 2 && vb % 8 == 0 && l.rowBytes % 16 == 0) {
            // An XOR-swizzled tile, directly in v's units (the same bytes as offset(by, ...), in the
            // form codegen's vectorizer reads: f's 16-byte chunk bits XOR the row key, as the
            // tile's own accesses): o = f * size is the row-major byte; tiles of rows*rowBytes stack.
            const int64_t e = vb / 8, rowBytes = l.rowBytes;
            const int64_t tileBytes = rowBytes * (*shape)[shape->size() - 2];
            Expr in = floormod(f, intImm(tileBytes / e)), tile = floordiv(f, intImm(tileBytes / e));
            Expr key = rowBytes >= 128 ? floordiv(in, intImm(rowBytes / e)) : floordiv(in, intImm(128 / e));
            key = binary(BinOp::BitAnd, key, intImm(l.swizzleBytes / 16 - 1));
            in = binary(BinOp::BitXor, in, binary(BinOp::Shl, key, intImm(log2i(16 / e))));
            return add(mul(tile, intImm(tileBytes / e)), in);
        }
        Expr first = vb >= tb ? mul(f, intImm(vb / tb)) : floordiv(f, intImm(tb / vb));
        // by's logical indices of its element `first` (row-major over its shape).
        std::vector<Expr> t(by->shape.size());
        for (size_t d = by->shape.size(); d-- > 0;) {
            t[d] = d == 0 ? first : floormod(first, by->shape[d]);
            if (d > 0) first = floordiv(first, by->shape[d]);
        }
        Expr phys = offset(by, t);
        if (vb == tb) return phys;
        if (vb > tb) return floordiv(phys, intImm(vb / tb));
        return add(mul(phys, intImm(tb / vb)), floormod(f, intImm(tb / vb)));
    }

    // A T.Layout index map ("user_shared"): the map on the trailing dims, leading dims (pipeline
    // stages) stacking tiles of the map's physical extent.
    Expr userOffset(const BufferNode& n, const LayoutNode& l, const std::vector<Expr>& idx) {
        size_t lead = idx.size() - l.inputs.size();
        std::unordered_map<const VarNode*, Expr> m;
        for (size_t d = 0; d < l.inputs.size(); ++d) m[l.inputs[d].get()] = idx[lead + d];
        Expr in = substitute(l.offset, m);
        if (lead == 0) return in;
        return add(mul(rowMajor(n, idx, 0, lead), intImm(l.physicalElems)), in);
    }

    // Padded and index-mapped shared tiles occupy more elements than their logical shape: after
    // flattening, the buffer is declared with its physical extent (leading dims, then padded
    // rows or the map's extent) so that the IR's own shape bounds every offset it uses.
    Buffer physical(const Buffer& b) {
        if (b->scope != Scope::Shared) return b;
        if (const analysis::SharedPlacement* pl = placedThrough(*b); pl && (pl->layout->offset || pl->layout->padElems)) {
            // A buffer placed through a padded or index-mapped one addresses that one's physical
            // extent (in its own units): declared 1-D with that extent.
            auto t = m_shared.find(pl->through->name);
            if (auto hit = m_phys.find(b.get()); hit != m_phys.end()) return hit->second;
            Buffer pt = physical(t->second);
            Expr n = intImm(1);
            for (auto& e : pt->shape) n = mul(n, e);
            const int64_t vb = dtypeBits(b->dtype), tb = dtypeBits(pt->dtype);
            n = vb >= tb ? floordiv(n, intImm(vb / tb)) : mul(n, intImm(tb / vb));
            auto nb = std::make_shared<BufferNode>(b->name, b->dtype, std::vector<Expr>{n}, b->scope, b->span);
            m_phys[b.get()] = nb;
            return nb;
        }
        auto it = m_f.layouts.find(b->name);
        const LayoutNode* l = it != m_f.layouts.end() ? it->second.get() : nullptr;
        if (!l || (!l->offset && !l->padElems) || b->rank() < l->shape.size() || l->shape.empty())
            return b;
        if (auto hit = m_phys.find(b.get()); hit != m_phys.end()) return hit->second;
        size_t lead = b->rank() - l->shape.size();
        std::vector<Expr> shape(b->shape.begin(),
                                b->shape.begin() + static_cast<std::ptrdiff_t>(lead));
        if (l->offset) {
            shape.push_back(intImm(l->physicalElems));
        } else {
            shape.insert(shape.end(), b->shape.begin() + static_cast<std::ptrdiff_t>(lead),
                         b->shape.end());
            shape.back() = add(shape.back(), intImm(l->padElems));
        }
        auto nb = std::make_shared<BufferNode>(b->name, b->dtype, shape, b->scope, b->span);
        m_phys[b.get()] = nb;
        return nb;
    }

protected:
    Stmt visitAlloc(const AllocNode* n, const Stmt& self) override {
        Buffer nb = physical(n->buffer);
        if (nb == n->buffer) return self;
        return std::make_shared<AllocNode>(nb, n->init, n->span);
    }
    Expr visitLoad(const LoadNode* n, const Expr& self) override {
        std::vector<Expr> idx;
        bool ch = mutateList(n->indices, idx);
        Buffer b = physical(n->buffer);
        const bool placed = placedThrough(*n->buffer) != nullptr;  // even 1-D: through another's layout
        if (idx.size() == 1 && !placed && needs64BitOffsets(*n->buffer)) return std::make_shared<LoadNode>(b, std::vector<Expr>{widen64(idx[0])}, n->dtype, n->span);
        if (idx.size() <= 1 && !placed && !ch && b == n->buffer) return self;
        if (idx.size() <= 1 && !placed) return std::make_shared<LoadNode>(b, idx, n->dtype, n->span);
        return std::make_shared<LoadNode>(b, std::vector<Expr>{offset(n->buffer, idx)}, n->dtype,
                                          n->span);
    }
    Stmt visitStore(const StoreNode* n, const Stmt& self) override {
        std::vector<Expr> idx;
        bool ch = mutateList(n->indices, idx);
        Expr v = mutate(n->value);
        Buffer b = physical(n->buffer);
        const bool placed = placedThrough(*n->buffer) != nullptr;
        if (idx.size() == 1 && !placed && needs64BitOffsets(*n->buffer)) return store(b, {widen64(idx[0])}, v, n->span);
        if (idx.size() <= 1 && !placed && !ch && v == n->value && b == n->buffer) return self;
        if (idx.size() > 1 || placed) idx = {offset(n->buffer, idx)};
        return store(b, idx, v, n->span);
    }

private:
    const PrimFuncNode& m_f;
    PassContext& m_ctx;
    std::map<const BufferNode*, Buffer> m_phys;
    std::map<std::string, analysis::SharedPlacement> m_place;  ///< tiles and views placed through another's layout
    std::map<std::string, Buffer> m_shared;  ///< shared buffers by name
};

}  // namespace

PrimFunc lowerToThreads(const PrimFunc& f, PassContext& ctx) {
    Flatten fl(*f, ctx);
    Stmt body = fl.mutate(f->body);
    auto out = std::make_shared<PrimFuncNode>(*f);
    out->body = body;
    out->attrs["flattened"] = true;
    return out;
}

}  // namespace ts::xform
