// Plain (non-pipelined) T.copy global -> shared on sm_90a as one TMA load (issue 9): the copy's
// own mbarrier, set up once at the start of the kernel (lower-tile-ops' prelude):
//
//   tma_copy_bar = alloc_shared((1,), uint64); tl.mbarrier_init(tma_copy_bar[0], 1)
//   [phase = alloc_local((1,), int32); phase[0] = 0]        # only in loops whose count is not static
//   T.sync_threads()
//   ...
//   tl.fence_proxy_async()            # every thread: its generic writes before the async write
//   T.sync_threads()                  # every thread is done with the tile (WAR) and fenced
//   elected: tl.mbarrier_expect_tx(bar, rows*cols*e); tl.tma_load(map, tile, bar, rows, cols, 1, coords)
//   tl.mbarrier_wait(bar, parity)     # parity 0 outside loops; in loops (earlier executions) % 2,
//                                     # from the loop variables, or phase[0] flipped after each wait
//
// The fence is always emitted: plan-smem may give the tile bytes that another buffer's generic
// writes used before (PTX ISA §9.7.13.4: generic-proxy writes are ordered before later
// async-proxy accesses only through fence.proxy.async). Legality (plainTmaWhyNot) follows
// cuTensorMapEncodeTiled (global address 16-byte aligned -- cudaMalloc'd kernel tensors --,
// every global stride a multiple of 16 bytes, box dims 1..256, inner box bytes a multiple of
// 16, a TMA element type) and PTX ISA §9.7.9.25.5.1 (out-of-bounds box elements read 0, which
// is T.copy's own rule for out-of-bounds source elements, negative starts included). The tile
// lands as the tile's layout stores it (tmaDestGeometry): row-major (swizzle NONE), a wgmma
// operand tile (its panels' TMA swizzle), or a 32/64/128-byte row swizzled over that span.
//
// Plain T.copy shared -> global on sm_90a as one TMA store (lowerCopyTmaStore):
//
//   tl.fence_proxy_async()            # every thread: its generic writes of the tile become
//                                     # visible to the async proxy, which reads it
//   T.sync_threads()                  # every thread's writes are done and fenced
//   elected: tl.tma_store(map, tile, rows, cols, 1, coords)   # one bulk async-group
//   elected: tl.tma_store_wait(0, read)
//   ...
//   elected: tl.tma_store_wait(0, 0)  # at the end of the kernel body
//
// Outside loops the wait after the store is cp.async.bulk.wait_group.read 0 (the tile's bytes
// have been read; insert-sync's barrier before the next writer of the tile orders the other
// threads after it) and the group's global writes are waited for once, before the kernel exits.
// Inside a loop the same copy may run again and write the same elements: two bulk async-groups
// are not ordered with each other (PTX ISA §9.7.9.27 orders only completion), so there the wait
// is the full wait_group 0 after every store. Legality (tmaStoreWhyNot) is the load's rule on
// the global side (tmaBoxRowDim: cuTensorMapEncodeTiled's and the measured 16-byte start) and on
// the tile side (tmaDestGeometry: the layout the box reads), plus: the destination is touched by
// nothing else in the kernel, also not through a view of its memory (no generic read or write to
// order against the async proxy's writes), and its start cannot be negative (a box starting before the tensor faulted on the
// H200; boxes past the far edges are clipped, PTX ISA §9.7.9.25.5.2: T.copy's guarded store).
#include <functional>

#include "compiler/analysis/SharedViewLayout.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/PointerTensors.h"
#include "compiler/ir/Views.h"
#include "compiler/transforms/Hopper.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::xform::lower {
using namespace ts::ir;

namespace {

/// Adds `d` unless the same note is already there (a pipeline's prologue and main loop lower
/// copies of one T.copy).
void note(Ctx& c, Diagnostic d) {
    for (auto& x : c.pass.diags.all())
        if (x.severity == d.severity && x.message == d.message && x.span == d.span) return;
    c.pass.diags.add(std::move(d));
}

/// Element types cuTensorMapEncodeTiled takes (CUtensorMapDataType; fp8 loads as UINT8).
bool tmaElementType(DType t) {
    switch (t) {
        case DType::Int8: case DType::UInt8: case DType::Float8E4M3: case DType::Float8E5M2:
        case DType::Int16: case DType::UInt16: case DType::Int32: case DType::UInt32:
        case DType::Int64: case DType::UInt64: case DType::Float16: case DType::BFloat16:
        case DType::Float32: case DType::Float64:
            return true;
        default:
            return false;
    }
}

/// A shared buffer whose elements another member of its tile-and-views group places
/// (analysis/SharedViewLayout.h): a tensor map of its box would describe it row-major.
std::string viewOfLaidOutTileWhy(const PrimFuncNode& f, const BufferNode& b) {
    if (b.scope != Scope::Shared) return {};
    auto all = analysis::sharedPlacements(f);
    auto it = all.find(b.name);
    if (it == all.end() || !it->second.through) return {};
    return "'" + b.name + "' shares its bytes with '" + it->second.through->name + "', whose layout (" + it->second.layout->description +
           ") places them; the copy goes element by element through it";
}

/// The kernel writes `b` (a store, a tile op other than a copy reading it, an intrinsic taking
/// its address), directly or through a view of its memory (T.Tensor(shape, dtype, b.data),
/// T.reshape: ir/Views.h storageName): TMA reads global memory through the async proxy, which
/// would need a fence.proxy.async.global after those writes. The buffer written (`b` or the
/// view), or null.
const BufferNode* kernelWrites(const PrimFuncNode& f, const BufferNode* b) {
    const BufferNode* w = nullptr;
    auto on = [&](const BufferNode& x) { return &x == b || storageName(f, x) == b->name; };
    walk(f.body, [&](const Stmt& s) {
        if (w) return;
        if (auto* st = as<StoreNode>(s); st && on(*st->buffer)) w = st->buffer.get();
        if (auto* t = as<TileOpNode>(s))
            for (size_t i = 0; i < t->args.size(); ++i)
                if (t->isRegion(i) && on(*t->region(i).buffer) && !(t->op == TileOpKind::Copy && i == 0)) w = t->region(i).buffer.get();
        if (auto* ev = as<EvalNode>(s))
            walkExpr(ev->call, [&](const Expr& e) {
                if (auto* c = as<CallNode>(e); c && c->op == intrin::kAddressOf && !c->args.empty())
                    if (auto* l = as<LoadNode>(c->args[0]); l && on(*l->buffer)) w = l->buffer.get();
            });
    });
    return w;
}

/// A tile op as the user wrote it: "T.copy", "T.clear", "T.reduce_max", "T.atomic_add".
std::string userOpName(const TileOpNode& t) {
    switch (t.op) {
        case TileOpKind::Fill: return attrBool(t.attrs, "clear", false) ? "T.clear" : "T.fill";
        case TileOpKind::Reduce: return "T.reduce_" + attrStr(t.attrs, "op", "sum");
        case TileOpKind::Atomic: return "T.atomic_" + attrStr(t.attrs, "op", "add");
        default: return std::string("T.") + tileOpName(t.op);
    }
}

/// Whether argument `i` of tile op `t` is written (the destination), else read.
bool writesArg(const TileOpNode& t, size_t i) {
    switch (t.op) {
        case TileOpKind::Copy: case TileOpKind::Reduce: case TileOpKind::Cumsum: return i == 1;
        case TileOpKind::Gemm: return i == 2;
        case TileOpKind::Fill: case TileOpKind::Atomic: return i == 0;
        default: return false;
    }
}

std::string atText(const Span& s) {
    return s.valid() ? " at line " + std::to_string(s.line) + ", column " + std::to_string(s.col) : std::string();
}

/// The first access of `b` in the kernel (program order) that `exempt` does not allow, in words
/// for a note: "writes 'Out' (an element store at line 12, column 13)", "reads 'Out' (T.copy at
/// line 24, column 13)"; empty when there is none. A TMA store or reduce-add into `b` writes it
/// through the async proxy, unordered with any such access (fresh-user finding: the note said
/// only "the kernel reads or writes 'Out' elsewhere" and left the user to find where).
/// Accesses through a view of `b`'s memory (ir/Views.h storageName) count as accesses of `b`:
/// "reads 'Out' through its view 'flat' (an element read at line 20, column 25)".
std::string otherAccess(const PrimFuncNode& f, const BufferNode* b, const std::function<bool(const TileOpNode&, size_t)>& exempt) {
    std::string found;
    auto on = [&](const BufferNode& x) { return &x == b || storageName(f, x) == b->name; };
    auto name = [&](const BufferNode& x) { return "'" + b->name + "'" + (&x == b ? std::string() : " through its view '" + x.name + "'"); };
    walk(f.body, [&](const Stmt& s) {
        if (!found.empty()) return;
        if (auto* st = as<StoreNode>(s); st && on(*st->buffer))
            found = "writes " + name(*st->buffer) + " (an element store" + atText(st->span) + ")";
        if (auto* t = as<TileOpNode>(s))
            for (size_t i = 0; i < t->args.size() && found.empty(); ++i)
                if (t->isRegion(i) && on(*t->region(i).buffer) && !exempt(*t, i))
                    found = std::string(writesArg(*t, i) ? "writes " : "reads ") + name(*t->region(i).buffer) + " (" + userOpName(*t) + atText(t->span) + ")";
    }, [&](const Expr& e) {
        if (!found.empty()) return;
        if (auto* l = as<LoadNode>(e); l && on(*l->buffer)) found = "reads " + name(*l->buffer) + " (an element read" + atText(l->span) + ")";
    });
    return found;
}

/// otherAccess for a TMA store by the copy `self` (the same T.copy node, or its copy in a
/// rebuilt tree: same buffers and span).
std::string accessBesidesCopy(const PrimFuncNode& f, const BufferNode* b, const TileOpNode& self) {
    return otherAccess(f, b, [&](const TileOpNode& t, size_t) {
        return &t == &self || (t.op == TileOpKind::Copy && t.span == self.span && t.args.size() >= 2 && t.isRegion(0) && t.isRegion(1) &&
                               t.region(0).buffer == self.region(0).buffer && t.region(1).buffer == self.region(1).buffer);
    });
}

/// otherAccess for a TMA reduce-add: T.atomic_add into `b` (of any form) is allowed.
std::string accessBesidesAtomicAdds(const PrimFuncNode& f, const BufferNode* b) {
    return otherAccess(f, b, [](const TileOpNode& t, size_t i) {
        return t.op == TileOpKind::Atomic && attrStr(t.attrs, "op", "add") == "add" && i == 0;
    });
}

/// The kernel already runs a TMA/mbarrier schedule (a T.Pipelined loop on TMA, hand-written
/// mbarriers): its elected thread may move to a producer warpgroup (warp-specialize), which
/// the plain copy's block-wide issue does not follow.
bool kernelHasMbarriers(const PrimFuncNode& f) {
    if (attrBool(f.attrs, "explicit_mbarriers", false)) return true;
    bool any = false;
    walk(f.body, [&](const Stmt& s) {
        // The TMA loads of a cp.async schedule (attr "tma_loads", InjectPipelineTmaLoads.cpp)
        // stay on thread 0: warp-specialize declines kernels that have them.
        if (auto* l = as<ForNode>(s); l && attrBool(l->attrs, "ws_candidate", false)) any = true;
    });
    return any;
}

/// The stored geometry TMA writes into shared tile `dst` (the tensor map's box and swizzle), or
/// nullopt with *why. Row-major tiles (no layout, or infer-layouts' plain "shared" layout):
/// swizzle NONE, one box of the whole tile. wgmma_smem tiles (analysis::wgmmaSharedOffset): the
/// TMA swizzle of their panels, one box per panel. "shared" tiles with an XOR swizzle whose
/// mode equals the row (32/64/128 bytes, analysis/Swizzle.h): the same bytes as TMA's swizzle
/// of that span (chunk bits 4.. XOR address bits 7..), plan-smem aligns them to 1024 bytes.
std::optional<analysis::WgmmaTileGeometry> tmaDestGeometry(const Layout& l, const Buffer& dst, std::string& why, bool rowTile = false) {
    const auto dsh = constShape(*dst);
    const bool row = rowTile && dsh && dsh->size() == 1;  // a 1-D tile: one row, stored row-major
    if (!dsh || (dsh->size() != 2 && !row))
        return why = "shared tile '" + dst->name + "' is not a 2-D tile of constant shape", std::nullopt;
    const int e = dtypeBytes(dst->dtype);
    const int64_t rows = row ? 1 : (*dsh)[0], cols = row ? (*dsh)[0] : (*dsh)[1];
    if (row && l && !(l->kind == LayoutKind::Shared && l->family == "shared" && l->swizzleBytes == 0 && l->padElems == 0 && !l->offset))
        return why = "shared tile '" + dst->name + "' has a layout TMA cannot write (" + l->description + ")", std::nullopt;
    if (!l || (l->kind == LayoutKind::Shared && l->family == "shared" && l->swizzleBytes == 0 && l->padElems == 0 && !l->offset)) {
        if (cols > 256) return why = "the tile has more than 256 columns (TMA box)", std::nullopt;
        if ((cols * e) % 16)
            return why = "a tile row is " + std::to_string(cols * e) + " bytes, not a multiple of 16 (TMA box inner extent)", std::nullopt;
        analysis::WgmmaTileGeometry g;
        g.rows = rows, g.cols = cols, g.eltBytes = e, g.panelBytes = 0, g.panelElems = cols, g.panels = 1;
        return g;
    }
    if (l->family == "wgmma_smem")
        if (auto g = analysis::wgmmaGeometryOf(*l, e)) return g;
    if (l->kind == LayoutKind::Shared && l->family == "shared" && l->padElems == 0 && !l->offset && l->swizzleBytes == cols * e)
        if (auto g = analysis::wgmmaTileGeometry(rows, cols, e); g && g->panels == 1 && g->panelBytes == l->swizzleBytes) return g;
    return why = "shared tile '" + dst->name + "' has a layout TMA cannot write (" + l->description +
                 "; TMA writes row-major, a wgmma operand tile, or a row of 32/64/128 bytes swizzled over that span)",
           std::nullopt;
}

/// How many times the statement being lowered ran before in this block, when it runs once per
/// iteration of its enclosing loops (no `if` inside them): sum over loops of (v - min) times the
/// trip counts of the loops inside it, which must be constants. Null when not expressible.
Expr executionsBefore(const Ctx& c) {
    Expr n = intImm(0);
    int64_t inner = 1;
    for (size_t i = c.loops.size(); i-- > 0;) {
        const ForNode& f = *c.loops[i];
        n = add(n, mul(sub(f.var, f.min), intImm(inner)));
        auto e = constInt(f.extent);
        if (i > 0 && (!e || *e < 0)) return nullptr;
        inner *= e ? *e : 1;
    }
    return n;
}

}  // namespace

}  // namespace ts::xform::lower

namespace ts::xform {
using namespace ts::ir;

std::string tmaDisabledWhy(const PrimFuncNode& f, const TileOpNode& op) {
    if (std::string pref = attrStr(op.attrs, "prefer_instruction", ""); !pref.empty())
        return "prefer_instruction=\"" + pref + "\"";
    if (attrBool(op.attrs, "disable_tma", false)) return "disable_tma=True";
    if (attrInt(f.attrs, "tma_lower_disabled", 0)) return "pass_configs tl.disable_tma_lower is True";
    return {};
}

std::string tmaLoadWhyNot(const PrimFuncNode& f, const TileOpNode& op, const Layout& dstLayout, const Target& target, TmaLoadPlan* out,
                          bool rowTile) {
    const Region &src = op.region(0), &dst = op.region(1);
    if (!target.hasWgmma()) return "the target " + target.arch() + " has no TMA";
    if (std::string off = tmaDisabledWhy(f, op); !off.empty()) return off;
    if (std::string v = lower::viewOfLaidOutTileWhy(f, *dst.buffer); !v.empty()) return v;
    // A T.make_tensor tensor's base address is read from a pointer table inside the kernel;
    // tensor maps are encoded on the host from kernel arguments, so it stays on cp.async/plain
    // loads (a tensor map built on the device with tensormap.replace is not implemented).
    if (isPointerTensor(f, *src.buffer))
        return "'" + src.buffer->name + "' is made by T.make_tensor from a pointer known only inside the kernel (TMA tensor maps are built on the host)";
    if (src.buffer->dtype != dst.buffer->dtype) return "it converts " + std::string(dtypeName(src.buffer->dtype)) + " to " + std::string(dtypeName(dst.buffer->dtype));
    if (!lower::tmaElementType(src.buffer->dtype)) return "dtype " + std::string(dtypeName(src.buffer->dtype)) + " is not a TMA element type";
    if (!src.buffer->strides.empty()) return "'" + src.buffer->name + "' is a strided tensor";
    std::string why;
    auto g = lower::tmaDestGeometry(dstLayout, dst.buffer, why, rowTile);
    if (!g) return why;
    auto rowDim = tmaCopyRowDim(op, *g, why);
    if (!rowDim) return why;
    int64_t param = -1;
    for (size_t i = 0; i < f.params.size(); ++i)
        if (f.params[i] == src.buffer) param = int64_t(i);
    if (param < 0) return "'" + src.buffer->name + "' is not a kernel tensor parameter (no tensor map)";
    if (const BufferNode* w = lower::kernelWrites(f, src.buffer.get()))
        return "the kernel writes '" + src.buffer->name + "'" + (w == src.buffer.get() ? std::string() : " through its view '" + w->name + "'") +
               " (TMA reads it through the async proxy)";
    if (out) *out = {*g, *rowDim, param};
    return {};
}

std::string tmaStoreWhyNot(const PrimFuncNode& f, const TileOpNode& op, const Layout& srcLayout, const Target& target, TmaLoadPlan* out,
                           const TileOpNode* reduceOf) {
    const Region &src = op.region(0), &dst = op.region(1);
    if (!target.hasWgmma()) return "the target " + target.arch() + " has no TMA";
    if (std::string off = tmaDisabledWhy(f, op); !off.empty()) return off;
    if (std::string v = lower::viewOfLaidOutTileWhy(f, *src.buffer); !v.empty()) return v;
    if (isPointerTensor(f, *dst.buffer))
        return "'" + dst.buffer->name + "' is made by T.make_tensor from a pointer known only inside the kernel (TMA tensor maps are built on the host)";
    if (src.buffer->dtype != dst.buffer->dtype) return "it converts " + std::string(dtypeName(src.buffer->dtype)) + " to " + std::string(dtypeName(dst.buffer->dtype));
    if (!lower::tmaElementType(dst.buffer->dtype)) return "dtype " + std::string(dtypeName(dst.buffer->dtype)) + " is not a TMA element type";
    if (!dst.buffer->strides.empty()) return "'" + dst.buffer->name + "' is a strided tensor";
    std::string why;
    // The box reads the tile as its layout stores it: the same geometries a TMA load writes.
    auto g = lower::tmaDestGeometry(srcLayout, src.buffer, why);
    if (!g) {
        // The rule's words are a load's ("TMA cannot write"); here TMA reads the tile.
        for (auto [from, to] : {std::pair{"TMA cannot write", "TMA cannot read"}, std::pair{"TMA writes row-major", "TMA reads row-major"}})
            if (auto at = why.find(from); at != std::string::npos) why.replace(at, std::string(from).size(), to);
        return why;
    }
    auto rowDim = tmaBoxRowDim(dst, src, *g, true, why, reduceOf != nullptr);
    if (!rowDim) return why;
    // Measured on the H200 (2026-12-04, bench/h200_tma_store.sh, tilec 43331bc): every store whose
    // box started before the tensor (a negative row or column) faulted with
    // CUDA_ERROR_ILLEGAL_INSTRUCTION, while boxes running past the far edges were clipped as PTX
    // ISA §9.7.9.25.5.2 says. Loads take negative starts (out-of-bounds elements read 0); stores
    // are kept to starts that cannot be negative. A reduce-add addresses its box through the same
    // tensor map coordinates (cp.reduce.async.bulk.tensor): kept to the same starts, unmeasured.
    const auto signedVars = signedScalars(f);
    for (size_t d = 0; d < dst.ranges.size(); ++d)
        if (!nonNegativeByForm(dst.ranges[d].min, &signedVars))
            return "the region of '" + dst.buffer->name + "' may start before the tensor in dimension " + std::to_string(d) + " (start " +
                   toString(dst.ranges[d].min) + "): " +
                   (reduceOf ? "a TMA reduce-add whose box starts at a negative coordinate is not generated (a TMA store's faults on "
                               "the H200, and the reduce-add addresses its box the same way)"
                             : "a TMA store whose box starts at a negative coordinate faults on the H200");
    int64_t param = -1;
    for (size_t i = 0; i < f.params.size(); ++i)
        if (f.params[i] == dst.buffer) param = int64_t(i);
    if (param < 0) return "'" + dst.buffer->name + "' is not a kernel tensor parameter (no tensor map)";
    if (std::string other = reduceOf ? lower::accessBesidesAtomicAdds(f, dst.buffer.get())
                                     : lower::accessBesidesCopy(f, dst.buffer.get(), op);
        !other.empty())
        return "the kernel also " + other + ": a TMA " + (reduceOf ? "reduce-add" : "store") +
               " writes it through the async proxy, unordered with that access" +
               (reduceOf ? " (other atomic adds into '" + dst.buffer->name + "' may stay: additions commute)" : std::string());
    if (out) *out = {*g, *rowDim, param};
    return {};
}

std::string pipelinedTmaWhyNot(const PrimFuncNode& f, const TileOpNode& op, const Target& target, TmaLoadPlan* out) {
    if (!op.isRegion(0) || !op.isRegion(1) || op.region(0).buffer->scope != Scope::Global || op.region(1).buffer->scope != Scope::Shared)
        return "it is not a global -> shared copy";
    if (attrBool(f.attrs, "explicit_mbarriers", false)) return "the kernel has hand-written mbarriers";
    auto it = f.layouts.find(op.region(1).buffer->name);
    TmaLoadPlan p;
    std::string why = tmaLoadWhyNot(f, op, it == f.layouts.end() ? nullptr : it->second, target, &p, /*rowTile=*/true);
    if (!why.empty()) return why;
    // Stage s of the staged tile starts at s * bytes: TMA writes 128-byte aligned destinations,
    // a swizzled one 1024-byte aligned (the pattern repeats every 1024 bytes).
    const int64_t align = p.geo.panelBytes ? 1024 : 128;
    if (p.geo.bytes() % align)
        return "a stage of '" + op.region(1).buffer->name + "' is " + std::to_string(p.geo.bytes()) + " bytes, not a multiple of " +
               std::to_string(align) + " (TMA destination alignment)";
    if (out) *out = p;
    return {};
}

}  // namespace ts::xform

namespace ts::xform::lower {

namespace {
/// The reason a TMA op under a condition on the thread index (T.ws(i), `if tx >= 64:`) is not
/// issued: the TMA issue is elected from the whole block (thread 0), which need not be among
/// the threads selected. Called "a warp role" before, which reads as warp specialization's
/// producer/consumer roles; the compiler has those only in its own schedules (fresh-user finding).
std::string underThreadCondition(const Ctx& c) {
    return "it is under a condition on the thread index (threads " + std::to_string(c.roleFirst) + ".." +
           std::to_string(c.roleFirst + c.threads - 1) + " of the block's " + std::to_string(c.blockThreads) +
           "; the TMA issue is elected from the whole block)";
}
}  // namespace

std::string plainTmaWhyNot(const Ctx& c, const TileOpNode& op, const Target& target, int* rowDimOut) {
    if (!target.hasWgmma()) return "the target " + target.arch() + " has no TMA";
    if (attrBool(op.attrs, "async", false))
        return "it is a producer of a T.Pipelined loop kept on cp.async (inject-pipeline's note says why)";
    if (c.blockThreads && c.threads != c.blockThreads) return underThreadCondition(c);
    TmaLoadPlan p;
    std::string why = tmaLoadWhyNot(c.func, op, c.layoutOf(op.region(1).buffer->name), target, &p);
    if (!why.empty()) return why;
    if (kernelHasMbarriers(c.func)) return "the kernel already runs a TMA/mbarrier schedule (its elected thread may be a producer warpgroup's)";
    if (rowDimOut) *rowDimOut = p.rowDim;
    return {};
}

std::string plainTmaStoreWhyNot(const Ctx& c, const TileOpNode& op, const Target& target, TmaLoadPlan* out) {
    if (!target.hasWgmma()) return "the target " + target.arch() + " has no TMA";
    if (c.blockThreads && c.threads != c.blockThreads) return underThreadCondition(c);
    // A hand-written schedule may give thread 0 a role of its own (a producer that never reaches
    // the copy): the elected issue would be skipped.
    if (attrBool(c.func.attrs, "explicit_mbarriers", false)) return "the kernel has hand-written mbarriers";
    return tmaStoreWhyNot(c.func, op, c.layoutOf(op.region(0).buffer->name), target, out);
}

namespace {
// One shared -> global TMA box op (`op`: tl.tma_store or tl.tma_reduce_add) of tile `src` into
// region `dst` under plan p: every thread fences its generic writes of the tile to the async
// proxy, a barrier, the elected issue, then its wait: .read only when `readWait` (the tile may be
// rewritten after the next barrier; the writes complete by the kernel's exit wait, added once),
// else the full wait (a store in a loop: the next execution may write the same elements).
Stmt tmaOutStmts(Ctx& c, const char* op, const Region& src, const Region& dst, const TmaLoadPlan& p, bool readWait, Span sp) {
    const analysis::WgmmaTileGeometry& g = p.geo;
    if (c.funcAttrs.empty()) c.funcAttrs = c.func.attrs;
    const int64_t map = tensorMapFor(c.funcAttrs, p.param, g, p.rowDim);
    std::vector<Expr> args{intImm(map), addressOf(src.buffer, {intImm(0), intImm(0)}), intImm(g.rows), intImm(g.panelElems), intImm(g.panels)};
    for (Expr& x : tmaCoordinates(dst, {})) args.push_back(x);
    std::vector<Stmt> out{intrinsicStmt(intrin::kFenceProxyAsync, {}, sp), intrinsicStmt(intrin::kSyncThreads, {}, sp),
                          intrinsicStmt(op, args, sp), intrinsicStmt(intrin::kTmaStoreWait, {intImm(0), intImm(readWait ? 1 : 0)}, sp)};
    if (readWait && !c.storeExitWait) {
        c.storeExitWait = true;
        c.epilogue.push_back(intrinsicStmt(intrin::kTmaStoreWait, {intImm(0), intImm(0)}, sp));
    }
    return seq(out, sp);
}
}  // namespace

Stmt lowerCopyTmaStore(Ctx& c, const TileOpNode& op, const Target& target) {
    if (!target.hasWgmma() || op.args.size() < 2 || !op.isRegion(0) || !op.isRegion(1)) return nullptr;
    const Region &src = op.region(0), &dst = op.region(1);
    if (src.buffer->scope != Scope::Shared || dst.buffer->scope != Scope::Global) return nullptr;
    TmaLoadPlan p;
    const std::string why = plainTmaStoreWhyNot(c, op, target, &p);
    const std::string what = "T.copy from '" + src.buffer->name + "' into '" + dst.buffer->name + "'";
    if (!why.empty()) {
        note(c, {Severity::Note, op.span, what + " does not use a TMA store: " + why, tmaWhyNotHint(why, true), "lower-tile-ops"});
        return nullptr;
    }
    const Span sp = op.span;
    const analysis::WgmmaTileGeometry& g = p.geo;
    // In a loop the next execution may write the same elements: wait for the writes (see the top).
    const bool inLoop = c.loopDepth > 0;
    Stmt out = tmaOutStmts(c, intrin::kTmaStore, src, dst, p, !inLoop, sp);
    note(c, {Severity::Note, sp,
             what + " uses a TMA store (" + tmaBoxesText(g) + ", " + std::to_string(g.bytes()) +
                 " bytes; out-of-bounds elements are not written)",
             "disable_tma=True keeps plain stores", "lower-tile-ops"});
    return out;
}

// T.atomic_add(dst, tile, use_tma=True) on sm_90a: one TMA reduce-add of the shared tile
// (cp.reduce.async.bulk.tensor .add), under the TMA store's rules (the tile's layout, the box, a
// non-negative start), with other atomic adds into dst allowed. Waited with .read only, in loops
// too: two groups adding into the same elements need no order between them (the adds commute and
// each is atomic); the kernel's exit waits for them all. float32 destinations (the f16/bf16 forms
// of the instruction need .noftz and are not generated).
Stmt lowerAtomicTmaReduce(Ctx& c, const TileOpNode& op, const Target& target) {
    if (!attrBool(op.attrs, "use_tma", false) || op.args.size() < 2 || !op.isRegion(0) || !op.isRegion(1)) return nullptr;
    const Region &dst = op.region(0), &src = op.region(1);
    const std::string what = "T.atomic_add into '" + dst.buffer->name + "' from '" + src.buffer->name + "' with use_tma=True";
    std::string why;
    TmaLoadPlan p;
    if (!target.hasWgmma()) why = "the target " + target.arch() + " has no TMA path (TileScope's TMA is cuda:sm_90a's)";
    else if (attrStr(op.attrs, "op", "add") != "add") why = "only additions have a TMA reduction here";
    else if (src.buffer->scope != Scope::Shared || dst.buffer->scope != Scope::Global) why = "TMA reduces a shared tile into a global tensor";
    else if (dst.buffer->dtype != DType::Float32) why = "TileScope generates the TMA reduce-add for float32 destinations only";
    else if (c.blockThreads && c.threads != c.blockThreads) why = underThreadCondition(c);
    else if (attrBool(c.func.attrs, "explicit_mbarriers", false)) why = "the kernel has hand-written mbarriers";
    else {
        TileOpNode asCopy(TileOpKind::Copy, {src, dst}, op.attrs, op.span);
        why = tmaStoreWhyNot(c.func, asCopy, c.layoutOf(src.buffer->name), target, &p, &op);
    }
    if (!why.empty()) {  // on every target: the user asked for TMA
        note(c, {Severity::Note, op.span, what + " keeps per-element atomics: " + why, tmaWhyNotHint(why, true, true), "lower-tile-ops"});
        return nullptr;
    }
    const Span sp = op.span;
    const analysis::WgmmaTileGeometry& g = p.geo;
    Stmt out = tmaOutStmts(c, intrin::kTmaReduceAdd, src, dst, p, true, sp);
    note(c, {Severity::Note, sp,
             what + " is a TMA reduce-add (" + tmaBoxesText(g) + ", " + std::to_string(g.bytes()) +
                 " bytes added atomically; out-of-bounds elements are skipped)",
             "use_tma=False keeps per-element atomics", "lower-tile-ops"});
    return out;
}

Stmt lowerCopyTma(Ctx& c, const TileOpNode& op, const Target& target) {
    if (!target.hasWgmma() || op.args.size() < 2 || !op.isRegion(0) || !op.isRegion(1)) return nullptr;
    const Region &src = op.region(0), &dst = op.region(1);
    if (src.buffer->scope != Scope::Global || dst.buffer->scope != Scope::Shared) return nullptr;
    int rowDim = -1;
    const std::string why = plainTmaWhyNot(c, op, target, &rowDim);
    if (!why.empty()) {
        // A pipelined producer kept on cp.async: inject-pipeline's note says why (once per copy).
        if (attrBool(op.attrs, "async", false)) return nullptr;
        // The user asked for TMA by name (T.tma_copy, e.g. a producer's under T.ws): a warning
        // that says what runs instead, not a note about a T.copy (fresh-user trial 2026-12-06).
        if (attrBool(op.attrs, "tma_copy", false)) {
            note(c, {Severity::Warning, op.span,
                     "T.tma_copy into '" + dst.buffer->name + "' runs as a copy by the threads that execute it, not a TMA bulk copy: " + why,
                     "the result is the same (the mbarrier's phases still complete with its arrivals, as in TileLang); for TMA, "
                     "copy with T.copy outside the condition on the thread index (TileScope issues it by TMA from an elected thread) "
                     "or in a T.Pipelined loop (a TMA + mbarrier pipeline of its own)",
                     "lower-tile-ops"});
            return nullptr;
        }
        note(c, {Severity::Note, op.span, "T.copy into '" + dst.buffer->name + "' does not use TMA: " + why, tmaWhyNotHint(why),
                 "lower-tile-ops"});
        return nullptr;
    }
    const Span sp = op.span;
    std::string unused;
    const analysis::WgmmaTileGeometry g = *tmaDestGeometry(c.layoutOf(dst.buffer->name), dst.buffer, unused);
    int64_t param = 0;
    for (size_t i = 0; i < c.func.params.size(); ++i)
        if (c.func.params[i] == src.buffer) param = int64_t(i);
    if (c.funcAttrs.empty()) c.funcAttrs = c.func.attrs;
    const int64_t map = tensorMapFor(c.funcAttrs, param, g, rowDim);

    Buffer bar = std::make_shared<BufferNode>(c.fresh("tma_copy_bar"), DType::UInt64, std::vector<Expr>{intImm(1)}, Scope::Shared, sp);
    const Expr barAddr = addressOf(bar, {intImm(0)});
    c.prelude.push_back(std::make_shared<AllocNode>(bar, nullptr, sp));
    c.prelude.push_back(intrinsicStmt(intrin::kMbarrierInit, {barAddr, intImm(1)}, sp));
    Expr parity = intImm(0);
    Buffer phase;
    if (Expr n = c.condInLoop ? nullptr : executionsBefore(c)) {
        // Once per iteration of loops of constant inner extents: the parity is the number of
        // earlier executions mod 2, a function of the loop variables (the static timeline
        // and barrier check can follow it).
        if (!constInt(n) || *constInt(n) != 0) parity = floormod(n, intImm(2));
    } else if (c.loopDepth > 0) {
        phase = std::make_shared<BufferNode>(c.fresh("tma_copy_phase"), DType::Int32, std::vector<Expr>{intImm(1)}, Scope::Local, sp);
        c.prelude.push_back(std::make_shared<AllocNode>(phase, nullptr, sp));
        c.prelude.push_back(store(phase, {intImm(0)}, intImm(0), sp));
        parity = load(phase, {intImm(0)}, sp);
    }
    std::vector<Expr> args{intImm(map), addressOf(dst.buffer, {intImm(0), intImm(0)}), barAddr, intImm(g.rows), intImm(g.panelElems), intImm(g.panels)};
    for (Expr& x : tmaCoordinates(src, {})) args.push_back(x);
    std::vector<Stmt> out{intrinsicStmt(intrin::kFenceProxyAsync, {}, sp), intrinsicStmt(intrin::kSyncThreads, {}, sp),
                          intrinsicStmt(intrin::kMbarrierExpectTx, {barAddr, intImm(g.bytes())}, sp),
                          intrinsicStmt(intrin::kTmaLoad, args, sp), intrinsicStmt(intrin::kMbarrierWait, {barAddr, parity}, sp)};
    if (phase) out.push_back(store(phase, {intImm(0)}, sub(intImm(1), load(phase, {intImm(0)}, sp)), sp));
    note(c, {Severity::Note, sp,
             "T.copy into '" + dst.buffer->name + "' uses TMA (" + tmaBoxesText(g) + ", " + std::to_string(g.bytes()) +
                 " bytes on its own mbarrier; out-of-bounds elements read 0)",
             "disable_tma=True keeps plain loads", "lower-tile-ops"});
    return seq(out, sp);
}

}  // namespace ts::xform::lower
