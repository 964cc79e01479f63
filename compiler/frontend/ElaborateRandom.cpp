// T.rng_init / T.rng_rand / T.rng_rand_float: TileLang's device random numbers
// (tilelang/cuda/language/random.py), which its CUDA codegen prints as cuRAND calls on one
// per-thread curandStatePhilox4_32_10_t. TileScope runs the same Philox4x32-10 state machine
// from its own device header (resources/ts_device/philox.cuh) on the GPU and in the interpreters.
//
// A draw has a side effect, and IR expressions are re-evaluated at each use (no let): each draw
// is emitted as a store of the call into a fresh one-element local at the call's position, and
// the value is that local's load. `r = T.rng_rand()` used twice is one draw, as in TileLang.
#include "compiler/frontend/ElaborateOpsImpl.h"
#include "compiler/ir/Intrinsics.h"

namespace ts::fe::elab {

namespace {
/// "a T.Parallel loop" is the LoopExit name buildLoop gives T.Parallel (Elaborate.cpp).
constexpr const char* kParallelLoop = "a T.Parallel loop";
}  // namespace

void Elaborator::installRandom() {
    defineT("rng_init", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"seed", "seq", "off", "generator"}, 1);
        el.requireKernel(a.span, "T.rng_init");
        if (b.has(3)) {
            std::string g = b[3].is(ValueKind::Str) ? b[3].asStr() : repr(b[3]);
            if (g != "curandStatePhilox4_32_10_t")
                throw CompileError(b.spans[3], "T.rng_init: generator '" + g + "' is not supported",
                                   "TileScope implements TileLang's default generator, "
                                   "curandStatePhilox4_32_10_t (leave generator out)");
        }
        ir::Expr seed = el.toExpr(b[0], b.spans[0], "T.rng_init seed");
        ir::Expr seq;
        if (b.has(1) && !b[1].isNone()) {
            seq = el.toExpr(b[1], b.spans[1], "T.rng_init seq");
        } else {  // TileLang's default: tx + bx * (threads along x)
            const auto& tv = el.kernelThreadVars();
            const auto& bv = el.kernelBlockVars();
            if (tv.size() > 1)
                throw CompileError(a.span,
                                   "T.rng_init without seq in a kernel with a multi-dimensional "
                                   "thread block",
                                   "pass seq explicitly, e.g. T.rng_init(seed, seq=linear_thread_id)");
            ir::Expr tx = tv.empty() ? ir::intImm(0, a.span) : ir::Expr(tv[0]);
            ir::Expr bx = bv.empty() ? ir::intImm(0, a.span) : ir::Expr(bv[0]);
            seq = ir::add(tx, ir::mul(bx, ir::intImm(el.kernelThreads(), a.span)));
        }
        ir::Expr off = b.has(2) ? el.toExpr(b[2], b.spans[2], "T.rng_init off") : ir::intImm(0, a.span);
        for (ir::Expr* e : {&seed, &seq, &off})
            if (ir::isFloat((*e)->dtype))
                throw CompileError(a.span, "T.rng_init: seed, seq and off must be integers");
        auto u64 = [](const ir::Expr& e) { return ir::cast(ir::DType::UInt64, e); };
        el.emit(ir::evaluate(ir::call(ir::intrin::kRngInit, {u64(seed), u64(seq), u64(off)},
                                      ir::DType::Int32, a.span),
                             a.span));
        return Value::none();
    });
    // Both draws: one store of the call into a fresh local, the value is its load.
    auto draw = [](Elaborator& el, CallArgs& a, ir::Expr call) {
        for (const auto& l : el.m_loopExits)
            if (l.loop == kParallelLoop && el.kernelThreads() > 1)
                throw CompileError(
                    a.span,
                    a.callee + " inside T.Parallel in a block of " +
                        std::to_string(el.kernelThreads()) +
                        " threads: which thread draws which number depends on how the loop is "
                        "split over the threads",
                    "draw in thread-level code (a T.serial loop under T.get_thread_binding()), "
                    "or use threads=1 as TileLang's rand example does");
        auto buf = std::make_shared<ir::BufferNode>(el.uniqueName("rng_value"), call->dtype,
                                                    std::vector<ir::Expr>{ir::intImm(1)},
                                                    ir::Scope::Local, a.span);
        el.emit(std::make_shared<ir::AllocNode>(buf, nullptr, a.span));
        el.emit(ir::store(buf, {ir::intImm(0)}, call, a.span));
        el.noteWrite(buf);
        return el.wrap(ir::load(buf, {ir::intImm(0)}, a.span));
    };
    defineT("rng_rand", [draw](Elaborator& el, CallArgs& a) {
        a.expectPositional(0, 0);
        el.requireKernel(a.span, "T.rng_rand");
        return draw(el, a, ir::call(ir::intrin::kRngRand, {}, ir::DType::UInt32, a.span));
    });
    defineT("rng_rand_float", [draw](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"bit", "dist"}, 0);
        el.requireKernel(a.span, "T.rng_rand_float");
        int64_t bits = intArg(b, 0, 32, "T.rng_rand_float bit");
        if (bits != 32 && bits != 64)
            throw CompileError(b.spans[0], "T.rng_rand_float: bit must be 32 or 64, got " +
                                               std::to_string(bits));
        std::string dist = b.has(1) ? (b[1].is(ValueKind::Str) ? b[1].asStr() : repr(b[1])) : "uniform";
        if (dist != "uniform" && dist != "normal")
            throw CompileError(b.spans[1], "T.rng_rand_float: dist must be \"uniform\" or \"normal\", got '" +
                                               dist + "'");
        return draw(el, a,
                    ir::call(ir::intrin::kRngRandFloat, {std::make_shared<ir::StrImmNode>(dist, a.span)},
                             bits == 64 ? ir::DType::Float64 : ir::DType::Float32, a.span));
    });
}

}  // namespace ts::fe::elab
