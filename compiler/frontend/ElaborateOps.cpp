// The kernel vocabulary of `T` (LANGUAGE.md §3) as the elaborator implements it: types,
// launch and loop constructs, allocations and tile ops (copy, gemm, fill, reduce, cumsum,
// atomics). Scalar math and the remaining helpers are in ElaborateMath.cpp. Each builtin
// checks what only the source can explain (shapes of copies, gemm operand dtypes and shapes,
// argument counts) and emits TileOp/Alloc statements; bounds and layouts are checked later.
#include "compiler/frontend/ElaborateOpsImpl.h"
#include "compiler/frontend/ElaboratePointers.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/target/Target.h"

namespace ts::fe::elab {

using ir::DType;

std::string shapeString(const std::vector<ir::Expr>& ext) {
    std::string s = "(";
    for (size_t i = 0; i < ext.size(); ++i) s += (i ? ", " : "") + ir::toString(ext[i]);
    return s + (ext.size() == 1 ? ",)" : ")");
}

std::string regionString(const ir::Region& r) {
    bool full = true;
    for (size_t d = 0; d < r.ranges.size(); ++d) {
        auto mn = ir::constInt(r.ranges[d].min), ext = ir::constInt(r.ranges[d].extent),
             dim = ir::constInt(r.buffer->shape[d]);
        full &= mn && *mn == 0 && ext && dim && *ext == *dim;
    }
    if (full) return "'" + r.buffer->name + "'";
    std::string s = r.buffer->name + "[";
    for (size_t d = 0; d < r.ranges.size(); ++d)
        s += (d ? ", " : "") + ir::toString(r.ranges[d].min) + ":" +
             ir::toString(ir::add(r.ranges[d].min, r.ranges[d].extent));
    return s + "]";
}

std::vector<ir::Expr> extentsOf(const ir::Region& r) {
    std::vector<ir::Expr> out;
    for (const auto& rg : r.ranges) out.push_back(rg.extent);
    return out;
}

std::vector<ir::Expr> squeezed(const std::vector<ir::Expr>& ext) {
    std::vector<ir::Expr> out;
    for (const auto& e : ext)
        if (!(ir::constInt(e) && *ir::constInt(e) == 1)) out.push_back(e);
    return out;
}

bool sameExtents(const std::vector<ir::Expr>& a, const std::vector<ir::Expr>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        auto x = ir::constInt(a[i]), y = ir::constInt(b[i]);
        if (x && y && *x != *y) return false;
        if ((x && !y) || (!x && y)) return false;
        if (!x && !y && ir::toString(a[i]) != ir::toString(b[i])) return false;
    }
    return true;
}

void onlyKeywords(const CallArgs& a, std::initializer_list<const char*> allowed) {
    for (size_t k = 0; k < a.kw.size(); ++k) {
        bool ok = false;
        for (const char* n : allowed) ok |= a.kw[k].first == n;
        if (ok) continue;
        std::vector<std::string> names(allowed.begin(), allowed.end());
        std::string near = closestMatch(a.kw[k].first, names);
        throw CompileError(
            k < a.kwSpans.size() ? a.kwSpans[k] : a.span,
            a.callee + "() got an unexpected keyword argument '" + a.kw[k].first + "'",
            near.empty() ? "" : "did you mean '" + near + "'?");
    }
}

bool boolArg(Interp& in, const CallArgs::Bound& b, size_t i, bool dflt) {
    if (!b.has(i)) return dflt;
    if (!b[i].isNumber())
        throw CompileError(b.spans[i], "expected True or False, got " + typeName(b[i]),
                           "write True or False (or a factory parameter holding one) without quotes");
    return in.truthy(b[i], b.spans[i]);
}

int64_t intArg(const CallArgs::Bound& b, size_t i, int64_t dflt, const std::string& what) {
    if (!b.has(i) || b[i].isNone()) return dflt;
    if (!b[i].isIntLike())
        throw CompileError(b.spans[i],
                           what + " must be a compile-time integer, got " + typeName(b[i]));
    return b[i].asInt();
}

// ---- Elaborator helpers for builtins
// -------------------------------------------------------------

DType Elaborator::dtypeArg(const Value& v, Span s, const std::string& what) {
    if (isPointerDType(v)) {
        // A raw device pointer is the element type of a pointer table parameter only
        // (ElaboratePointers.h); tiles, scalars and casts of pointers are not supported.
        throw CompileError(s,
                           what + ": T.ptr (a raw device pointer) is only supported as the element "
                                  "type of a kernel tensor parameter, a pointer table",
                           "declare `P: T.Tensor([G], T.ptr)` and make tensors of its elements with "
                           "T.make_tensor(P[g], shape, dtype)");
    }
    if (auto t = asDType(v)) return *t;
    if (v.is(ValueKind::Str)) {
        std::vector<std::string> names;
        for (int i = 0; i <= static_cast<int>(ir::kLastDType); ++i)
            names.emplace_back(ir::dtypeName(static_cast<DType>(i)));
        std::string near = closestMatch(v.asStr(), names);
        throw CompileError(s, "unknown dtype '" + v.asStr() + "'",
                           near.empty() ? "" : "did you mean '" + near + "'?");
    }
    if (v.is(ValueKind::Builtin) && v.builtinObj().name.rfind("T.", 0) == 0)  // T.tfloat32, ...
        throw CompileError(s, v.builtinObj().name + " is not a dtype TileScope supports yet",
                           "use float16, bfloat16, float32, float8_e4m3/e5m2, float4_e2m1fn or an "
                           "integer dtype");
    throw CompileError(s, what + " must be a dtype (\"float16\" or T.float16), got " + typeName(v),
                       "write a dtype name in quotes (\"float16\", \"bfloat16\", \"float32\", \"int32\", ...) or T.float16 / T.int32");
}

ir::Expr Elaborator::extentArg(const Value& v, Span s, const std::string& what) {
    if (v.isIntLike() && !v.is(ValueKind::Bool)) return ir::intImm(v.asInt(), s);
    if (isRuntime(v)) {
        ir::Expr e = toExpr(v, s, what);
        if (!ir::isFloat(e->dtype)) return e;
    }
    throw CompileError(s, what + " must be an integer, got " + typeName(v) + " (" + fe::repr(v) + ")",
                       v.is(ValueKind::Float) || isRuntime(v)
                           ? "an extent counts elements or iterations: use // or T.ceildiv(a, b) instead of /, or int(...)"
                           : "");
}

std::vector<ir::Expr> Elaborator::shapeArg(const Value& v, Span s, const std::string& what) {
    std::vector<ir::Expr> out;
    if (v.isSequence()) {
        for (const Value& d : v.items()) out.push_back(extentArg(d, s, what + " entry"));
        return out;
    }
    // A bare value is a one-dimensional shape; anything else that is no integer is most likely a
    // misplaced argument: say what a shape is.
    if (!v.isIntLike() && !isRuntime(v))
        throw CompileError(s, what + " must be a tuple or list of extents (or one integer), got " + typeName(v) + " (" + fe::repr(v) + ")",
                           "write the shape as (64, 32) or [64, 32]");
    out.push_back(extentArg(v, s, what));
    return out;
}

ir::Buffer Elaborator::allocate(ir::Scope scope, std::vector<ir::Expr> shape, DType t, Span s,
                                const std::string& fn, ir::Expr init) {
    requireKernel(s, fn);
    for (size_t d = 0; d < shape.size(); ++d) {
        auto c = ir::constInt(shape[d]);
        if (!c)
            throw CompileError(
                s, fn + ": the shape must be known at compile time, got " + shapeString(shape),
                "on-chip buffers need constant extents; use the tile sizes (block_M, ...)");
        if (*c <= 0)
            throw CompileError(s, fn + ": extent " + std::to_string(*c) + " of dimension " +
                                      std::to_string(d) + " must be positive",
                               "check the tile sizes (--param values such as block_M / block_K) the shape is computed from");
    }
    std::string base = takePendingName();
    auto b = std::make_shared<ir::BufferNode>(uniqueName(base.empty() ? "buf" : base), t,
                                              std::move(shape), scope, s);
    emit(std::make_shared<ir::AllocNode>(b, std::move(init), s));
    return b;
}

Value Elaborator::loopSpec(CallArgs& a, const std::string& name, ir::ForKind kind) {
    a.callee = name;
    onlyKeywords(a, {"explicit", "annotations"});
    if (a.pos.empty() || a.pos.size() > 3)
        throw CompileError(a.span,
                           name + "() takes 1 to 3 arguments (stop | start, stop[, step]) but " +
                               std::to_string(a.pos.size()) + " were given");
    auto spec = std::make_shared<LoopSpec>();
    spec->kind = kind;
    spec->name = name;
    spec->span = a.span;
    ir::Expr start = ir::intImm(0), stop;
    if (a.pos.size() == 1) {
        stop = extentArg(a.pos[0], a.argSpan(0), name + "() extent");
    } else {
        start = extentArg(a.pos[0], a.argSpan(0), name + "() start");
        stop = extentArg(a.pos[1], a.argSpan(1), name + "() stop");
    }
    if (a.pos.size() == 3) {
        if (!a.pos[2].isIntLike() || a.pos[2].asInt() <= 0)
            throw CompileError(a.argSpan(2),
                               name + "() step must be a positive compile-time integer");
        spec->step = a.pos[2].asInt();
    }
    ir::Expr extent = extentBetween(start, stop);
    if (spec->step != 1)
        extent = ir::floordiv(ir::add(extent, ir::intImm(spec->step - 1)), ir::intImm(spec->step));
    spec->dims.push_back({start, extent});
    return Value::ext(spec);
}

// ---- tile ops -----------------------------------------------------------------------------------

namespace {

Value tensorCtorValue(bool strided) {
    return Value::ext(std::make_shared<TensorTypeCtor>(strided));
}

Value opCopy(Elaborator& el, CallArgs& a) {
    auto b = a.bind(
        {"src", "dst", "coalesced_width", "disable_tma", "eviction_policy", "annotations", "prefer_instruction"}, 2);
    el.requireKernel(a.span, "T.copy");
    auto srcOwn = el.ownExtents(b[0]), dstOwn = el.ownExtents(b[1]);
    if (!srcOwn && !dstOwn)
        throw CompileError(
            a.span, "T.copy: cannot tell the shape of the copy: both operands are single elements",
            "slice one side (A[i:i+16, 0:32]) or pass a whole buffer");
    ir::Region src =
        el.regionOf(b[0], b.spans[0], "T.copy", "the source", dstOwn ? &*dstOwn : nullptr);
    ir::Region dst =
        el.regionOf(b[1], b.spans[1], "T.copy", "the destination", srcOwn ? &*srcOwn : nullptr);
    if (a.callee.rfind("T.tma_copy", 0) == 0) {
        // The tensor memory accelerator moves bytes between global and shared memory (PTX ISA
        // §9.7.9.25.5.1 cp.async.bulk.tensor: a load completes on an mbarrier, a store on a bulk
        // async-group); it has no conversion.
        const bool load = src.buffer->scope == ir::Scope::Global && dst.buffer->scope == ir::Scope::Shared;
        const bool store = src.buffer->scope == ir::Scope::Shared && dst.buffer->scope == ir::Scope::Global;
        if (!load && !store)
            throw CompileError(a.span, "T.tma_copy copies global -> shared (a TMA load) or shared -> global (a store); '" +
                                           src.buffer->name + "' -> '" + dst.buffer->name + "' is neither",
                               "use T.copy for other copies");
        if (src.buffer->dtype != dst.buffer->dtype)
            throw CompileError(a.span, "T.tma_copy cannot convert dtypes: the source '" + src.buffer->name + "' is " +
                                           std::string(ir::dtypeName(src.buffer->dtype)) + " but the destination '" +
                                           dst.buffer->name + "' is " + std::string(ir::dtypeName(dst.buffer->dtype)),
                               "allocate the tile with the source's dtype, or use T.copy (which converts)");
        if (load && a.callee != "T.tma_copy")
            throw CompileError(a.span, "T.tma_copy: a TMA load into '" + dst.buffer->name +
                                           "' needs barrier=, the mbarrier its bytes complete on",
                               "bar = T.alloc_barrier(arrive_count=128) ... T.tma_copy(src, dst, barrier=bar); "
                               "T.barrier_arrive(bar); readers T.barrier_wait(bar, parity); or use T.copy");
    }
    auto se = squeezed(extentsOf(src)), de = squeezed(extentsOf(dst));
    if (!sameExtents(se, de))
        throw CompileError(
            a.span,
            "T.copy: shapes do not match: the source " + regionString(src) + " is " +
                shapeString(extentsOf(src)) + " but the destination " + regionString(dst) + " is " +
                shapeString(extentsOf(dst)),
            "both regions must have the same shape (dimensions of extent 1 are ignored)");
    ir::Attrs attrs;
    if (b.has(2) && !b[2].isNone()) attrs["coalesced_width"] = intArg(b, 2, 0, "coalesced_width");
    // annotations={"disable_tma": ..., "prefer_instruction": ...} take precedence over the
    // keywords, as in TileLang's copy_op.py (helper-126: they were ignored).
    auto annotation = [&](const char* key) -> std::optional<Value> {
        if (!b.has(5) || !b[5].is(ValueKind::Dict)) return std::nullopt;
        for (const auto& [k, v] : b[5].dictObj().entries)
            if (k.is(ValueKind::Str) && k.asStr() == key) return v;
        return std::nullopt;
    };
    const std::optional<Value> annDisable = annotation("disable_tma");
    const bool disableTma = annDisable ? el.truthy(*annDisable, b.spans[5]) : boolArg(el, b, 3, false);
    if (disableTma) attrs["disable_tma"] = true;
    // TileLang's prefer_instruction (copy_op.py: "tma", "cp_async", "sync"): "tma" is what a
    // global -> shared copy lowers to where the target and shapes allow it anyway; the other two
    // ask for no TMA.
    const std::optional<Value> annPrefer = annotation("prefer_instruction");
    const Value prefer = annPrefer ? *annPrefer : b.has(6) ? b[6] : Value::none();
    const Span preferSpan = annPrefer ? b.spans[5] : b.has(6) ? b.spans[6] : a.span;
    if (!prefer.isNone()) {
        const std::string want = prefer.is(ValueKind::Str) ? prefer.asStr() : std::string();
        if (want == "sync" || want == "cp_async") {
            attrs["disable_tma"] = true;
            attrs["prefer_instruction"] = want;  // the lowering's note names it (tmaDisabledWhy)
        } else if (want != "tma") {
            throw CompileError(preferSpan, "T.copy: prefer_instruction must be \"tma\", \"cp_async\" or \"sync\", got " + repr(prefer));
        } else if (disableTma) {
            throw CompileError(preferSpan, "T.copy: prefer_instruction=\"tma\" conflicts with disable_tma=True",
                               "drop one of them");
        }
    }
    if (a.callee.rfind("T.tma_copy", 0) == 0) attrs["tma_copy"] = true;  // its notes name T.tma_copy (CopyTma.cpp)
    el.emit(std::make_shared<ir::TileOpNode>(ir::TileOpKind::Copy,
                                             std::vector<ir::TileArg>{src, dst}, attrs, a.span));
    el.noteWrite(dst.buffer);
    return Value::none();
}

std::string policyArg(const CallArgs::Bound& b, size_t i) {
    if (!b.has(i)) return "Square";
    static const char* kNames[] = {"Square", "FullRow", "FullCol"};
    if (b[i].isIntLike() && b[i].asInt() >= 0 && b[i].asInt() < 3) return kNames[b[i].asInt()];
    if (b[i].is(ValueKind::Str)) {
        // `--param policy=T.GemmWarpPolicy.FullRow` spells it as the source does (helper-119).
        std::string v = b[i].asStr();
        for (const char* prefix : {"T.GemmWarpPolicy.", "GemmWarpPolicy.", "tilelang.language.GemmWarpPolicy."})
            if (v.rfind(prefix, 0) == 0) v = v.substr(std::string(prefix).size());
        for (const char* n : kNames)
            if (v == n) return n;
    }
    throw CompileError(
        b.spans[i],
        "policy must be T.GemmWarpPolicy.Square, FullRow or FullCol, got " + repr(b[i]));
}

Value opGemm(Elaborator& el, CallArgs& a) {
    auto b = a.bind({"A", "B", "C", "transpose_A", "transpose_B", "policy", "clear_accum", "k_pack",
                     "wg_wait", "mbar"},
                    3);
    el.requireKernel(a.span, "T.gemm");
    ir::Region A = el.regionOf(b[0], b.spans[0], "T.gemm", "A"),
               B = el.regionOf(b[1], b.spans[1], "T.gemm", "B"),
               C = el.regionOf(b[2], b.spans[2], "T.gemm", "C");
    bool tA = boolArg(el, b, 3, false), tB = boolArg(el, b, 4, false);
    if (A.buffer->dtype != B.buffer->dtype)
        throw CompileError(
            a.span,
            "T.gemm: operand dtypes differ: A (" + regionString(A) + ") is " +
                std::string(ir::dtypeName(A.buffer->dtype)) + " but B (" + regionString(B) +
                ") is " + std::string(ir::dtypeName(B.buffer->dtype)),
            "A and B must have the same dtype; T.copy converts when it loads a tile");
    auto ae = squeezed(extentsOf(A)), be = squeezed(extentsOf(B)), ce = squeezed(extentsOf(C));
    auto c2 = [](const std::vector<ir::Expr>& e) {
        return e.size() == 2 && ir::constInt(e[0]) && ir::constInt(e[1]);
    };
    if (c2(ae) && c2(be) && c2(ce)) {
        int64_t M = *ir::constInt(ae[tA ? 1 : 0]), K = *ir::constInt(ae[tA ? 0 : 1]);
        int64_t K2 = *ir::constInt(be[tB ? 1 : 0]), N = *ir::constInt(be[tB ? 0 : 1]);
        int64_t Mc = *ir::constInt(ce[0]), Nc = *ir::constInt(ce[1]);
        auto dims = [](int64_t x, int64_t y) {
            return std::to_string(x) + "x" + std::to_string(y);
        };
        if (K != K2)
            throw CompileError(a.span,
                               "T.gemm: inner dimensions do not match: A (" + regionString(A) +
                                   ") gives K=" + std::to_string(K) + " but B (" + regionString(B) +
                                   ") gives K=" + std::to_string(K2),
                               std::string("A is read as MxK") +
                                   (tA ? " (transpose_A=True: stored KxM)" : "") + ", B as KxN" +
                                   (tB ? " (transpose_B=True: stored NxK)" : ""));
        if (M != Mc || N != Nc)
            throw CompileError(a.span,
                               "T.gemm: C (" + regionString(C) + ") is " + dims(Mc, Nc) +
                                   " but A·B is " + dims(M, N),
                               "C must be M x N");
    }
    ir::Attrs attrs;
    if (tA) attrs["transpose_A"] = true;
    if (tB) attrs["transpose_B"] = true;
    std::string policy = policyArg(b, 5);
    if (policy != "Square") attrs["policy"] = policy;
    if (boolArg(el, b, 6, false)) attrs["clear_accum"] = true;
    if (int64_t kp = intArg(b, 7, 1, "k_pack"); kp != 1) attrs["k_pack"] = kp;
    // wg_wait (TileLang: how many wgmma groups may stay in flight after this gemm; -1 leaves the
    // wait to a later T.wait_wgmma) has no counterpart here: the lowering places every wgmma
    // wait itself (after the gemm, or after a second independent wgmma paired with it). Accepted
    // so TileLang files compile, but not silently (LANGUAGE.md §5: unsupported constructs are
    // diagnostics; a fresh user expected it to change the schedule).
    if (b.has(8))
        el.diags().warning(b.spans[8],
                           a.callee + ": wg_wait=" + repr(b[8]) +
                               " has no effect: TileScope chooses where each wgmma is waited for",
                           "remove wg_wait=; the results and the generated code are the same without it",
                           "elaborate");
    // mbar (TileLang: the mbarrier that tcgen05's commit arrives on when the MMA completes, sm_100)
    // has no counterpart either, and is not harmless: a kernel that then waits on that barrier
    // would wait for an arrival nobody makes. None is what the sm_90 examples pass.
    if (b.has(9) && !b[9].isNone())
        throw CompileError(b.spans[9],
                           a.callee + ": mbar= (the mbarrier an sm_100 tcgen05 MMA arrives on when it completes) is not "
                                      "supported: TileScope's gemm has completed when the next statement runs, and nothing "
                                      "would arrive on the barrier",
                           "remove mbar=; if the kernel waits on that barrier, arrive on it after the gemm "
                           "(T.mbarrier_arrive) or drop the wait");
    el.emit(std::make_shared<ir::TileOpNode>(ir::TileOpKind::Gemm,
                                             std::vector<ir::TileArg>{A, B, C}, attrs, a.span));
    el.noteWrite(C.buffer);
    return Value::none();
}

Value opFill(Elaborator& el, CallArgs& a, bool clear) {
    auto b = clear ? a.bind({"buffer"}, 1) : a.bind({"buffer", "value"}, 2);
    el.requireKernel(a.span, a.callee);
    ir::Region r = el.regionOf(b[0], b.spans[0], a.callee, "the buffer");
    DType t = r.buffer->dtype;
    ir::Expr v =
        clear ? ir::cast(t, ir::intImm(0), a.span)
              : el.toStoredValue(b[1], t, b.spans[1], a.callee + " value");
    ir::Attrs attrs;
    if (clear) attrs["clear"] = true;
    el.emit(std::make_shared<ir::TileOpNode>(ir::TileOpKind::Fill, std::vector<ir::TileArg>{r, v},
                                             attrs, a.span));
    el.noteWrite(r.buffer);
    return Value::none();
}

Value opReduce(Elaborator& el, CallArgs& a, const std::string& op) {
    // nan_propagate: TileLang's per-call switch of max/min/absmax (a NaN wins); sum has none.
    const bool maxMin = op == "max" || op == "min" || op == "absmax";
    // annotations= (TileLang's codegen hints for packed f32x2 reductions) is accepted and unused.
    auto b = maxMin ? a.bind({"buffer", "out", "dim", "clear", "nan_propagate", "annotations"}, 2)
                    : a.bind({"buffer", "out", "dim", "clear", "annotations"}, 2);
    el.requireKernel(a.span, a.callee);
    ir::Region src = el.regionOf(b[0], b.spans[0], a.callee, "the source");
    ir::Region dst = el.regionOf(b[1], b.spans[1], a.callee, "the destination");
    int64_t dim = intArg(b, 2, -1, "dim");
    int64_t rank = static_cast<int64_t>(src.ranges.size());
    int64_t d = dim < 0 ? dim + rank : dim;
    if (d < 0 || d >= rank)
        throw CompileError(b.has(2) ? b.spans[2] : a.span,
                           a.callee + ": dim=" + std::to_string(dim) + " is out of range for " +
                               regionString(src) + " of rank " + std::to_string(rank));
    std::vector<ir::Expr> expect = extentsOf(src);
    expect.erase(expect.begin() + d);
    if (!sameExtents(squeezed(expect), squeezed(extentsOf(dst))))
        throw CompileError(a.span, a.callee + ": the destination " + regionString(dst) +
                                       " has shape " + shapeString(extentsOf(dst)) +
                                       " but reducing " + regionString(src) + " " +
                                       shapeString(extentsOf(src)) + " over dim " +
                                       std::to_string(d) + " gives " + shapeString(expect));
    ir::Attrs attrs{{"op", op}, {"dim", dim}, {"clear", boolArg(el, b, 3, true)}};
    if (maxMin && boolArg(el, b, 4, false)) attrs["nan_propagate"] = true;
    el.emit(std::make_shared<ir::TileOpNode>(ir::TileOpKind::Reduce,
                                             std::vector<ir::TileArg>{src, dst}, attrs, a.span));
    el.noteWrite(dst.buffer);
    return Value::none();
}

Value opCumsum(Elaborator& el, CallArgs& a) {
    auto b = a.bind({"src", "dst", "dim", "reverse"}, 1);
    el.requireKernel(a.span, "T.cumsum");
    ir::Region src = el.regionOf(b[0], b.spans[0], "T.cumsum", "the source");
    ir::Region dst = b.has(1) && !b[1].isNone()
                         ? el.regionOf(b[1], b.spans[1], "T.cumsum", "the destination")
                         : src;
    if (!sameExtents(squeezed(extentsOf(src)), squeezed(extentsOf(dst))))
        throw CompileError(a.span, "T.cumsum: shapes do not match: " + regionString(src) + " is " +
                                       shapeString(extentsOf(src)) + " but " + regionString(dst) +
                                       " is " + shapeString(extentsOf(dst)));
    int64_t dim = intArg(b, 2, 0, "dim");
    int64_t rank = static_cast<int64_t>(src.ranges.size());
    if ((dim < 0 ? dim + rank : dim) < 0 || (dim < 0 ? dim + rank : dim) >= rank)
        throw CompileError(b.spans[2], "T.cumsum: dim=" + std::to_string(dim) +
                                           " is out of range for rank " + std::to_string(rank));
    ir::Attrs attrs{{"dim", dim}, {"reverse", boolArg(el, b, 3, false)}};
    el.emit(std::make_shared<ir::TileOpNode>(ir::TileOpKind::Cumsum,
                                             std::vector<ir::TileArg>{src, dst}, attrs, a.span));
    el.noteWrite(dst.buffer);
    return Value::none();
}

// memory_order= of the atomics (TileLang's names, C++'s orders). "" for relaxed or absent: the
// atomic stays as it was, free to be vectorized. "consume" is "acquire", as C++ compilers treat it.
std::string memoryOrderArg(const CallArgs::Bound& b, size_t i, const std::string& callee) {
    if (!b.has(i) || b[i].isNone()) return "";
    static const char* kHint = "one of \"relaxed\", \"consume\", \"acquire\", \"release\", \"acq_rel\", \"seq_cst\"";
    if (!b[i].is(ValueKind::Str))
        throw CompileError(b.spans[i], callee + ": memory_order must be a string, got " + typeName(b[i]), kHint);
    const std::string m = b[i].asStr();
    if (m == "relaxed") return "";
    if (m == "consume" || m == "acquire") return "acquire";
    if (m == "release" || m == "acq_rel" || m == "seq_cst") return m;
    throw CompileError(b.spans[i], callee + ": memory_order '" + m + "' is not a memory order", kHint);
}

// An ordered atomic is one `atom` with .sem (PTX ISA 9.7.13.5), which has no 16-bit float max/min
// or CAS loop to order: TileScope orders the 32-bit integer atomics and float32 add.
void requireOrderable(const std::string& callee, const std::string& op, DType t, const std::string& name, Span span) {
    const bool ok = t == DType::Int32 || t == DType::UInt32 || (op == "add" && t == DType::Float32);
    if (!ok)
        throw CompileError(span,
                           callee + " with a memory_order on " + std::string(ir::dtypeName(t)) + " '" + name +
                               "': TileScope orders atomics of int32 and uint32" + (op == "add" ? " and float32 adds" : ""),
                           "drop memory_order (a relaxed atomic), or make the flag or counter an int32 tensor and "
                           "order through it");
}

// `old = T.atomic_add(dst[i], v, return_prev=True)`: one element, a scalar value. IR has no let,
// so the old value is stored into a per-thread variable (named after the assignment) and the
// call returns a load of it: every later use reads the value this atomic returned.
Value atomicReturningPrev(Elaborator& el, CallArgs& a, const CallArgs::Bound& b, const std::string& op) {
    auto* acc = b[0].extAs<BufferAccess>();
    if (!acc || !acc->isElement() ||
        (acc->buffer->scope != ir::Scope::Global && acc->buffer->scope != ir::Scope::Shared))
        throw CompileError(b.spans[0],
                           a.callee + "(return_prev=True) needs one element of a global tensor or "
                                      "a shared buffer, e.g. hist[i]");
    if (el.ownExtents(b[1]))
        throw CompileError(b.spans[1], a.callee + "(return_prev=True) adds a scalar value, not a region");
    const DType t = acc->buffer->dtype;
    const bool ok = t == DType::Int32 || t == DType::UInt32 || (op == "add" && t == DType::Float32);
    if (!ok)
        throw CompileError(b.spans[0],
                           a.callee + "(return_prev=True) on " + std::string(ir::dtypeName(t)) +
                               " '" + acc->buffer->name + "' is not supported yet",
                           op == "add" ? "use an int32, uint32 or float32 destination"
                                       : "use an int32 or uint32 destination");
    ir::Expr place = el.loadOf(*acc, b.spans[0]);
    ir::Expr v = ir::cast(t, el.toExprLike(b[1], t, b.spans[1], a.callee + " value"), b.spans[1]);
    ir::Buffer prev = el.allocate(ir::Scope::Local, {ir::intImm(1)}, t, a.span, a.callee);
    std::vector<ir::Expr> args{std::make_shared<ir::StrImmNode>(op, a.span), place, v};
    if (std::string order = memoryOrderArg(b, 2, a.callee); !order.empty())
        args.push_back(std::make_shared<ir::StrImmNode>(order, b.spans[2]));
    el.emit(ir::store(prev, {ir::intImm(0)}, ir::call(ir::intrin::kAtomicPrev, std::move(args), t, a.span), a.span));
    el.noteWrite(acc->buffer);
    el.noteWrite(prev);
    return el.wrap(ir::load(prev, {ir::intImm(0)}, a.span));
}

Value opAtomic(Elaborator& el, CallArgs& a, const std::string& op) {
    // use_tma (TileLang's TMA reduce-add on sm_90) changes how, not what: recorded for the
    // lowering (ops/CopyTma.cpp lowerAtomicTmaReduce), which takes it where TMA can.
    auto b = a.bind({"dst", "value", "memory_order", "return_prev", "use_tma"}, 2);
    el.requireKernel(a.span, a.callee);
    if (boolArg(el, b, 3, false)) {
        if (boolArg(el, b, 4, false))
            throw CompileError(b.spans[4], a.callee + ": use_tma=True with return_prev=True: a TMA reduce-add returns no previous value",
                               "drop use_tma (one atomic per element returns the value it replaced)");
        return atomicReturningPrev(el, a, b, op);
    }
    auto valueOwn = el.ownExtents(b[1]);
    ir::Region dst =
        el.regionOf(b[0], b.spans[0], a.callee, "the destination", valueOwn ? &*valueOwn : nullptr);
    ir::TileArg value;
    if (valueOwn) {
        ir::Region v = el.regionOf(b[1], b.spans[1], a.callee, "the value");
        if (!sameExtents(squeezed(extentsOf(v)), squeezed(extentsOf(dst))))
            throw CompileError(a.span, a.callee + ": shapes do not match: the destination " +
                                           regionString(dst) + " is " +
                                           shapeString(extentsOf(dst)) + " but the value " +
                                           regionString(v) + " is " + shapeString(extentsOf(v)));
        value = v;
    } else {
        value = el.toStoredValue(b[1], dst.buffer->dtype, b.spans[1], a.callee + " value");
    }
    ir::Attrs attrs{{"op", op}};
    if (boolArg(el, b, 4, false)) attrs["use_tma"] = true;
    if (std::string order = memoryOrderArg(b, 2, a.callee); !order.empty()) {
        requireOrderable(a.callee, op, dst.buffer->dtype, dst.buffer->name, b.spans[0]);
        if (attrs.count("use_tma"))
            throw CompileError(b.spans[2], a.callee + ": use_tma=True with a memory_order: a TMA reduce-add is not an ordered atomic",
                               "drop memory_order, or use_tma and order through a separate int32 flag");
        attrs["memory_order"] = order;
    }
    el.emit(std::make_shared<ir::TileOpNode>(ir::TileOpKind::Atomic,
                                             std::vector<ir::TileArg>{dst, value}, attrs, a.span));
    el.noteWrite(dst.buffer);
    return Value::none();
}

// T.atomic_addx2/x4(dst[..., k], src[..., k]): TileLang's vector atomics, which add `lanes`
// consecutive elements of the last dimension; lowered as that many element atomics.
Value opAtomicAddVec(Elaborator& el, CallArgs& a, int lanes) {
    // TileLang's signature: atomic_addx2(dst, value, return_prev=False) -- no memory_order.
    auto b = a.bind({"dst", "value", "return_prev"}, 2);
    el.requireKernel(a.span, a.callee);
    if (boolArg(el, b, 2, false))
        throw CompileError(b.spans[2], a.callee + "(return_prev=True) is not supported");
    auto* dst = b[0].extAs<BufferAccess>();
    auto* src = b[1].extAs<BufferAccess>();
    if (!dst || !src || !dst->isElement() || !src->isElement())
        throw CompileError(a.span,
                           a.callee + " takes the first of " + std::to_string(lanes) +
                               " consecutive elements of the destination and of the value",
                           "e.g. " + a.callee + "(dQ[i, j * " + std::to_string(lanes) + "], dq[i, j * " +
                               std::to_string(lanes) + "])");
    for (int q = 0; q < lanes; ++q) {
        BufferAccess d = *dst, s = *src;
        d.indices.back().point = ir::add(d.indices.back().point, ir::intImm(q));
        s.indices.back().point = ir::add(s.indices.back().point, ir::intImm(q));
        ir::Region r = el.regionOf(Value::ext(std::make_shared<BufferAccess>(d)), b.spans[0],
                                   a.callee, "the destination");
        ir::Expr v = ir::cast(dst->buffer->dtype, el.loadOf(s, b.spans[1]), b.spans[1]);
        el.emit(std::make_shared<ir::TileOpNode>(ir::TileOpKind::Atomic,
                                                 std::vector<ir::TileArg>{r, v},
                                                 ir::Attrs{{"op", std::string("add")}}, a.span));
    }
    el.noteWrite(dst->buffer);
    return Value::none();
}

Value opAlloc(Elaborator& el, CallArgs& a, ir::Scope scope) {
    auto b = a.bind({"shape", "dtype", "scope"}, 2);
    auto shape = el.shapeArg(b[0], b.spans[0], a.callee + " shape");
    DType t = el.dtypeArg(b[1], b.spans[1], a.callee + " dtype");
    return Value::ext(
        std::make_shared<BufferValue>(el.allocate(scope, shape, t, a.span, a.callee), false));
}

Value opAllocVar(Elaborator& el, CallArgs& a) {
    auto b = a.bind({"dtype", "init", "scope"}, 1);
    DType t = el.dtypeArg(b[0], b.spans[0], "T.alloc_var dtype");
    // Always initialised (0 by default) so that the printed IR re-parses as alloc_var.
    ir::Expr init =
        b.has(1) && !b[1].isNone()
            ? ir::cast(t, el.toExprLike(b[1], t, b.spans[1], "T.alloc_var init"), b.spans[1])
            : ir::cast(t, ir::intImm(0), a.span);
    ir::Buffer buf = el.allocate(ir::Scope::Local, {ir::intImm(1)}, t, a.span, "T.alloc_var", init);
    return Value::ext(std::make_shared<BufferValue>(buf, true));
}

}  // namespace

Value elaborateCopy(Elaborator& el, CallArgs& a) { return opCopy(el, a); }
Value elaborateGemm(Elaborator& el, CallArgs& a) { return opGemm(el, a); }

void Elaborator::defineT(const std::string& n, std::function<Value(Elaborator&, CallArgs&)> fn) {
    std::string q = "T." + n;
    module("tilelang.language")->set(n, Value::builtin(q, [fn, q](Interp& in, CallArgs& a) {
                                         a.callee = q;
                                         return fn(elaboratorOf(in), a);
                                     }));
}

void Elaborator::installVocabulary() {
    auto T = module("tilelang.language");
    auto def = [this](const std::string& n, std::function<Value(Elaborator&, CallArgs&)> fn) {
        defineT(n, std::move(fn));
    };

    // types
    T->set("Tensor", tensorCtorValue(false));
    T->set("Buffer", tensorCtorValue(false));
    T->set("StridedTensor", tensorCtorValue(true));

    // launch and loops
    def("Kernel", [](Elaborator& el, CallArgs& a) {
        onlyKeywords(a, {"threads", "is_cpu", "prelude"});
        if (a.pos.size() > 3)
            throw CompileError(
                a.span, "T.Kernel takes 0 to 3 grid extents, got " + std::to_string(a.pos.size()));
        auto k = std::make_shared<KernelSpec>();
        k->span = a.span;
        for (size_t i = 0; i < a.pos.size(); ++i)
            k->grid.push_back(el.extentArg(a.pos[i], a.argSpan(i), "T.Kernel grid extent"));
        // `T.Kernel(threads=128)` (TileLang's debug tests): no grid extent is one block.
        if (k->grid.empty()) {
            k->noGrid = true;
            k->grid.push_back(el.extentArg(Value::integer(1), a.span, "T.Kernel grid extent"));
        }
        const Value* th = a.keyword("threads");
        // threads=None is TileLang's default too (128): an autotuned kernel's `threads=None`
        // parameter compiled without a config.
        std::vector<Value> ts = !th || th->isNone() ? std::vector<Value>{Value::integer(128)}
                                : th->isSequence() ? th->items()
                                                   : std::vector<Value>{*th};
        if (ts.empty() || ts.size() > 3)
            throw CompileError(a.span, "T.Kernel threads= takes 1 to 3 block extents");
        for (const Value& t : ts) {
            // A bool is int-like in Python but never a thread count (threads=True was one thread).
            if (!t.isIntLike() || t.kind() == ValueKind::Bool || t.asInt() <= 0)
                throw CompileError(
                    a.span,
                    "T.Kernel threads= must be positive compile-time integers, got " + repr(*th),
                    "give a whole number of threads per block, e.g. threads=128 (or up to three extents, threads=(32, 4))");
            k->threads.push_back(t.asInt());
        }
        // Refused here, not only when the kernel's launch is described after the passes: every
        // pass would otherwise lay out fragments over the given thread count (threads=2**31-1
        // kept infer-layouts busy for 22 s before that error; a fuzz finding).
        // At most three extents, each below 2^63: their product in a long double is exact enough
        // to compare and print (clamped to 1e19 for the message).
        long double total = 1;
        for (int64_t t : k->threads) total *= static_cast<long double>(t);
        if (total > ts::Target::kMaxThreadsPerBlock)
            throw CompileError(a.span,
                               "T.Kernel: threads=" + repr(*th) +
                                   (k->threads.size() > 1 ? " (" + std::to_string(static_cast<unsigned long long>(std::min<long double>(total, 1e19L))) + " threads)" : std::string()) +
                                   " is outside 1.." + std::to_string(ts::Target::kMaxThreadsPerBlock) + " threads per block",
                               "use at most 1024 threads (e.g. threads=128 or 256)");
        return Value::ext(k);
    });
    def("Parallel", [](Elaborator& el, CallArgs& a) {
        // prefer_async / annotations (TileLang: issue the nest's global -> shared stores as
        // cp.async) are hints: TileScope stores synchronously, which completes no later than
        // the user's T.ptx_commit_group / T.ptx_wait_group expect.
        onlyKeywords(a, {"coalesced_width", "loop_layout", "prefer_async", "annotations"});
        if (a.pos.empty()) throw CompileError(a.span, "T.Parallel needs at least one extent");
        auto spec = std::make_shared<LoopSpec>();
        spec->kind = ir::ForKind::Parallel;
        spec->name = "T.Parallel";
        spec->span = a.span;
        for (size_t i = 0; i < a.pos.size(); ++i)
            spec->dims.push_back(
                {ir::intImm(0), el.extentArg(a.pos[i], a.argSpan(i), "T.Parallel extent")});
        return Value::ext(spec);
    });
    // TVM's lowercase T.parallel(n): a one-dimensional T.Parallel (both are parallel loops).
    def("parallel", [](Elaborator& el, CallArgs& a) {
        Value spec = el.loopSpec(a, "T.parallel", ir::ForKind::Parallel);
        auto* ls = spec.extAs<LoopSpec>();
        auto start = ir::constInt(ls->dims[0].first);
        if (start && *start == 0 && ls->step == 1) return spec;
        throw CompileError(a.span, "T.parallel(start, stop[, step]) is not supported",
                           "write T.Parallel(extent) and add the start inside the loop");
    });
    def("Pipelined", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"start", "stop", "num_stages", "order", "stage", "sync", "group"}, 1);
        auto spec = std::make_shared<LoopSpec>();
        spec->kind = ir::ForKind::Pipelined;
        spec->name = "T.Pipelined";
        spec->span = a.span;
        if (b.has(1) && !b[1].isNone()) {
            ir::Expr start = el.extentArg(b[0], b.spans[0], "T.Pipelined start");
            spec->dims.push_back(
                {start,
                 el.extentBetween(start, el.extentArg(b[1], b.spans[1], "T.Pipelined stop"))});
        } else {
            spec->dims.push_back(
                {ir::intImm(0), el.extentArg(b[0], b.spans[0], "T.Pipelined extent")});
        }
        if (b.has(2) && !b[2].isNone()) {
            // A negative count used to mean "not pipelined" silently (the passes treat < 2 so).
            const int64_t stages = intArg(b, 2, 0, "num_stages");
            if (stages < 0)
                throw CompileError(
                    b.spans[2],
                    "T.Pipelined num_stages must be >= 0, got " + std::to_string(stages),
                    "0 or 1: no pipelining; 2 or more: that many buffers in flight");
            spec->attrs["num_stages"] = stages;
        }
        for (size_t i : {3u, 4u}) {
            if (!b.has(i) || b[i].isNone()) continue;
            std::vector<int64_t> xs;
            if (!b[i].isSequence())
                throw CompileError(b.spans[i], "T.Pipelined order=/stage= must be a list of ints");
            for (const Value& v : b[i].items()) {
                if (!v.isIntLike())
                    throw CompileError(b.spans[i],
                                       "T.Pipelined order=/stage= must be a list of ints");
                xs.push_back(v.asInt());
            }
            spec->attrs[i == 3 ? "order" : "stage"] = xs;
        }
        return Value::ext(spec);
    });
    def("serial", [](Elaborator& el, CallArgs& a) {
        return el.loopSpec(a, "T.serial", ir::ForKind::Serial);
    });
    // T.grid(M, N, ...): TVM's nest of serial loops, one variable per extent (`for i, j in T.grid(4, 8)`).
    def("grid", [](Elaborator& el, CallArgs& a) {
        onlyKeywords(a, {});
        if (a.pos.empty()) throw CompileError(a.span, "T.grid needs at least one extent", "e.g. for i, j in T.grid(4, 8):");
        auto spec = std::make_shared<LoopSpec>();
        spec->kind = ir::ForKind::Serial;
        spec->name = "T.grid";
        spec->span = a.span;
        for (size_t i = 0; i < a.pos.size(); ++i)
            spec->dims.push_back({ir::intImm(0), el.extentArg(a.pos[i], a.argSpan(i), "T.grid() extent")});
        return Value::ext(spec);
    });
    def("unroll", [](Elaborator& el, CallArgs& a) {
        return el.loopSpec(a, "T.unroll", ir::ForKind::Unrolled);
    });
    def("vectorized", [](Elaborator& el, CallArgs& a) {
        return el.loopSpec(a, "T.vectorized", ir::ForKind::Vectorized);
    });

    // allocation
    def("alloc_shared",
        [](Elaborator& el, CallArgs& a) { return opAlloc(el, a, ir::Scope::Shared); });
    def("alloc_fragment",
        [](Elaborator& el, CallArgs& a) { return opAlloc(el, a, ir::Scope::Fragment); });
    def("alloc_local",
        [](Elaborator& el, CallArgs& a) { return opAlloc(el, a, ir::Scope::Local); });
    def("alloc_var", opAllocVar);

    // tile ops
    def("copy", opCopy);
    def("gemm", opGemm);
    def("fill", [](Elaborator& el, CallArgs& a) { return opFill(el, a, false); });
    def("clear", [](Elaborator& el, CallArgs& a) { return opFill(el, a, true); });
    for (const char* op : {"sum", "max", "min", "absmax", "abssum"}) {
        std::string o = op;
        def("reduce_" + o, [o](Elaborator& el, CallArgs& a) { return opReduce(el, a, o); });
    }
    def("cumsum", opCumsum);
    for (const char* op : {"add", "max", "min"}) {
        std::string o = op;
        def("atomic_" + o, [o](Elaborator& el, CallArgs& a) { return opAtomic(el, a, o); });
    }
    def("atomic_addx2", [](Elaborator& el, CallArgs& a) { return opAtomicAddVec(el, a, 2); });
    def("atomic_addx4", [](Elaborator& el, CallArgs& a) { return opAtomicAddVec(el, a, 4); });
    // T.GemmWarpPolicy is the meta interpreter's (MetaModules.cpp): module level sees it too.

    installMath();
}

}  // namespace ts::fe::elab
