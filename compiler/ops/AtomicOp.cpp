// T.atomic_{add,max,min}(dst, value) and T.atomic_addx2/x4: atomic read-modify-write of a
// global or shared region by a region (converted to dst's dtype) or of one element by a scalar
// (attr "op"). dst is read and written atomically (order-independent: tilec starts outputs only
// atomics write at zero, compiler/LaunchArgs.cpp); a value region is read. The one-element form
// is lowered where it stands inside T.Parallel (every thread issues it, as in TileLang).
#include "compiler/interp/Machine.h"
#include "compiler/ops/Builtins.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::ops {
using namespace ts::ir;
using namespace ts::xform::lower;

namespace {

// One element's atomic: (op, address, value[, memory order]). An ordered one keeps its fourth
// argument to the code generators (one `atom` with .sem each, never vectorized).
Stmt atomicCall(const TileOpNode& op, const std::string& aop, Expr address, Expr value) {
    std::vector<Expr> args{std::make_shared<StrImmNode>(aop, op.span), std::move(address), std::move(value)};
    if (std::string order = attrStr(op.attrs, "memory_order", ""); !order.empty())
        args.push_back(std::make_shared<StrImmNode>(order, op.span));
    return intrinsicStmt(intrin::kAtomic, std::move(args), op.span);
}

Stmt lowerAtomic(Ctx& c, const TileOpNode& op, const Target& target) {
    const Region& dst = op.region(0);
    if (attrBool(op.attrs, "use_tma", false))
        if (Stmt s = lowerAtomicTmaReduce(c, op, target)) return s;
    std::string aop = attrStr(op.attrs, "op", "add");
    // Registers belong to one thread: no other thread can update them, atomically or not. Reached
    // NVRTC as "identifier undefined" (a compiler bug) for a fragment, and an atomic on per-thread
    // local memory for T.alloc_local / T.alloc_var (helper-130 #3).
    if (dst.buffer->scope == Scope::Fragment || dst.buffer->scope == Scope::Local) {
        c.error(op.span,
                "T.atomic_" + aop + " into '" + dst.buffer->name + "', a " + std::string(scopeName(dst.buffer->scope)) +
                    " buffer: an atomic updates global or shared memory, and registers belong to one thread",
                "to combine values across threads, reduce a fragment with T.reduce_sum / T.reduce_max, or accumulate into a "
                "T.alloc_shared buffer (or the output tensor) with the atomic");
        return nullptr;
    }
    if (dtypeBits(dst.buffer->dtype) < 8) {  // packed two per byte: no atomic instruction addresses a nibble
        c.error(op.span, "T.atomic_" + aop + " into '" + dst.buffer->name + "' (" + std::string(dtypeName(dst.buffer->dtype)) +
                             "): 4-bit values are stored two per byte, and no atomic operation updates half a byte",
                "accumulate in a float16/float32 buffer with the atomic and convert to the 4-bit type afterwards");
        return nullptr;
    }
    // The element types the device headers' ts::atomic_* implement (resources/ts_device.cuh,
    // ts_device/atomics.cuh, ts_hip.h). Others reached NVRTC as "a compiler bug", and 8-bit floats
    // went through the 16-bit CAS helper of atomic_max/min, which wrote the neighbouring byte
    // (helper-115): the interpreters ran them, the GPU could not or computed garbage.
    {
        const DType t = dst.buffer->dtype;
        const bool add = aop == "add";
        const bool ok = add ? (t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 || t == DType::Float64 || t == DType::Int32 ||
                               t == DType::UInt32)
                            : (t == DType::Int32 || t == DType::UInt32 || t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32);
        if (!ok) {
            c.error(op.span,
                    "T.atomic_" + aop + " into '" + dst.buffer->name + "' (" + std::string(dtypeName(t)) + "): no atomic " + aop +
                        " of " + std::string(dtypeName(t)) + " values on the GPU (TileScope's atomics: add of float16, bfloat16, "
                        "float32, float64, int32, uint32; max/min of int32, uint32, float16, bfloat16, float32)",
                    std::string("accumulate in ") + (isFloat(t) ? "a float32" : "an int32") +
                        " buffer with the atomic and convert to " + std::string(dtypeName(t)) + " afterwards");
            return nullptr;
        }
    }
    // A scalar value into a region of several elements (T.atomic_add(B[0:4], 1)) is TileLang's
    // tile-region form: the value broadcast, each element updated once (by the distributed loop
    // below), not once per thread (helper-135 #5: the lowering updated only B[0]).
    auto regionExt = squeezedExtents(dst);
    int64_t regionElems = 1;
    if (regionExt)
        for (auto e : *regionExt) regionElems *= e;
    const bool broadcast = !op.isRegion(1) && regionExt && regionElems > 1;
    if (!op.isRegion(1) && !broadcast) {
        // Scalar atomic on one element: one thread per block would change the meaning (every
        // thread executes T.atomic_add(x[0], v) in TileLang), so every thread issues it.
        // Out-of-bounds destinations are skipped, as T.copy skips them (and as the interpreter does).
        std::vector<Expr> idx;
        for (auto& rg : dst.ranges) idx.push_back(rg.min);
        Stmt s = atomicCall(op, aop, addressOf(dst.buffer, idx), cast(dst.buffer->dtype, std::get<Expr>(op.args[1])));
        Expr in = inBounds(dst.buffer, idx);
        return in ? ifThen(in, s, nullptr, op.span) : s;
    }
    auto ext = regionExt;
    if (!ext || c.frags.count(dst.buffer.get())) {
        c.error(op.span, "T.atomic_" + aop + ": the destination must be a global or shared region with constant shape");
        return nullptr;
    }
    if (auto it = broadcast ? c.frags.end() : c.frags.find(op.region(1).buffer.get()); it != c.frags.end()) {
        const LayoutNode& L = *it->second.layout;
        Var r = makeVar(c.fresh("r"), DType::Int32, op.span);
        std::unordered_map<const VarNode*, Expr> inv{{L.invThread.get(), c.tx}, {L.invLocal.get(), r}};
        std::vector<Expr> sq;
        Expr guard;
        auto shape = constShape(*op.region(1).buffer);
        for (size_t d = 0; d < L.inverse.size(); ++d) {
            Expr e = substitute(L.inverse[d], inv);
            if ((*shape)[d] != 1) sq.push_back(e);
            guard = logicalAnd(guard, lt(e, intImm((*shape)[d])));
        }
        auto dIdx = regionIndex(dst, sq);
        guard = logicalAnd(guard, inBounds(dst.buffer, dIdx));
        Stmt body = atomicCall(op, aop, addressOf(dst.buffer, dIdx), cast(dst.buffer->dtype, load(it->second.regs, {r})));
        // Replicated values would be added once per copy: only the first holder adds.
        if (L.replicate > 1) guard = logicalAnd(guard, isFirstHolder(c, L, r));
        if (guard) body = ifThen(guard, body, nullptr, op.span);
        return forLoop(r, intImm(0), intImm(L.localSize), ForKind::Unrolled, body, {{"thread_loop", true}}, op.span);
    }
    int64_t total = 1;
    for (auto e : *ext) total *= e;
    int64_t iters = (total + c.threads - 1) / c.threads;
    Var it = makeVar(c.fresh("v"), DType::Int32, op.span);
    Expr lin = add(mul(it, intImm(c.threads)), c.tx);
    auto sq = delinearize(lin, *ext);
    auto dIdx = regionIndex(dst, sq);
    Expr value, guard = inBounds(dst.buffer, dIdx);
    if (broadcast) {
        value = cast(dst.buffer->dtype, std::get<Expr>(op.args[1]));
    } else {
        const Region& src = op.region(1);
        auto sIdx = regionIndex(src, sq);
        value = cast(dst.buffer->dtype, load(src.buffer, sIdx));
        guard = logicalAnd(guard, inBounds(src.buffer, sIdx));
    }
    Stmt body = atomicCall(op, aop, addressOf(dst.buffer, dIdx), value);
    if (total % c.threads != 0) guard = logicalAnd(lt(lin, intImm(total)), guard);
    if (guard) body = ifThen(guard, body, nullptr, op.span);
    return forLoop(it, intImm(0), intImm(iters), iters <= 16 ? ForKind::Unrolled : ForKind::Serial, body, {{"thread_loop", true}}, op.span);
}

class AtomicOp final : public TileOp {
public:
    std::string_view name() const override { return "atomic"; }
    Signature signature() const override {
        return {{"atomic_add", "atomic_max", "atomic_min", "atomic_addx2", "atomic_addx4"},
                {},
                "dst Region, value Region or Expr; attr op (add|max|min)"};
    }
    std::string spelling(const TileOpNode& n) const override { return "atomic_" + attrStr(n.attrs, "op", "add"); }
    uint8_t access(const TileOpNode& n, size_t arg) const override {
        if (!n.isRegion(arg)) return kNoAccess;
        return arg == 0 ? uint8_t(kRead | kWrite | kAtomic) : arg == 1 ? uint8_t(kRead) : uint8_t(kNoAccess);
    }
    bool elementwise(const TileOpNode& n) const override { return !n.isRegion(1); }
    Stmt lower(Ctx& c, const TileOpNode& n, const Target& target) const override { return lowerAtomic(c, n, target); }
    void interpret(interp::detail::Machine& m, const TileOpNode& n) const override { m.tileAtomic(&n); }
};

}  // namespace

std::unique_ptr<TileOp> makeAtomicOp() { return std::make_unique<AtomicOp>(); }

}  // namespace ts::ops
