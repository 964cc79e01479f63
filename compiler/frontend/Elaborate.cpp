// Elaboration driver: runs the factory, elaborates the prim_func (or eager) body into a
// PrimFunc, and the statement hooks that build IR (tile loops, T.Kernel, run-time `if`, stores
// through alloc_var names). The T.* vocabulary is in ElaborateOps.cpp; values in ElabValues.cpp;
// the entry points (runFrontend) in Frontend.cpp.
#include "compiler/ir/PointerTensors.h"
#include "compiler/frontend/Elaborate.h"

#include <algorithm>
#include <set>

#include "compiler/frontend/ElaborateParamSources.h"
#include "compiler/frontend/Elaborator.h"
#include "compiler/frontend/MetaAutoTuner.h"
#include "compiler/frontend/MetaDevice.h"
#include "compiler/frontend/MetaBuiltins.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ops/Registry.h"

namespace ts::fe {
namespace elab {

namespace {
/// "i, j", "i, j, k", ...: loop variable names for a hint.
std::string loopNames(size_t n) {
    std::string s;
    for (size_t d = 0; d < n; ++d) s += (d ? ", " : "") + (d < 6 ? std::string(1, "ijklmn"[d]) : "i" + std::to_string(d));
    return s;
}

// Restores a flag (or name) when a scope ends, also on exceptions.
template <class T>
struct Restore {
    T& ref;
    T saved;
    Restore(T& r, T v) : ref(r), saved(r) { ref = std::move(v); }
    ~Restore() { ref = std::move(saved); }
};
}  // namespace

Elaborator::Elaborator(DiagnosticEngine& diags, const Module& mod) : Interp(diags), m_mod(mod) {
    installVocabulary();
    copyDeviceTarget(mod.interp(), *this);  // driver.get_num_sms() answers for the compile's target
    setSiblingDir(siblingDirOf(*mod.source()));
}

void Elaborator::emit(ir::Stmt s) {
    if (!s) return;
    if (m_frames.empty()) throw CompileError(s->span, "statement outside of a kernel body");
    m_frames.back().push_back(std::move(s));
}

ir::Stmt Elaborator::collect(const std::function<void()>& fn) {
    m_frames.emplace_back();
    m_frameIds.push_back(++m_nextFrameId);
    try {
        fn();
    } catch (...) {
        m_frames.pop_back();
        m_frameIds.pop_back();
        throw;
    }
    std::vector<ir::Stmt> body = std::move(m_frames.back());
    m_frames.pop_back();
    m_frameIds.pop_back();
    if (body.empty()) return nullptr;
    return ir::seq(std::move(body));
}

void Elaborator::noteWrite(const ir::Buffer& b) { m_lastWrite[b.get()] = ++m_epoch; }

void Elaborator::requireKernel(Span s, const std::string& fn) const {
    if (!m_insideKernel)
        throw CompileError(
            s, fn + " must be inside 'with T.Kernel(...)'",
            "open the launch scope first: with T.Kernel(grid, threads=128) as (bx, by):");
}

std::string Elaborator::uniqueName(const std::string& base) {
    std::string n = base.empty() ? "buf" : base;
    if (m_names.insert(n).second) return n;
    for (int i = 1;; ++i)
        if (m_names.insert(n + "_" + std::to_string(i)).second) return n + "_" + std::to_string(i);
}

ir::Buffer Elaborator::addParam(const std::string& name, const TensorType& t, Span s, bool output) {
    auto b = std::make_shared<ir::BufferNode>(uniqueName(name), t.dtype, t.shape, ir::Scope::Global,
                                              s, t.strides);
    if (output) m_outputs.push_back(static_cast<int>(m_params.size()));
    if (t.pointerTable) m_funcAttrs[ir::ptrTableAttrKey(b->name)] = std::string("T.ptr");
    m_params.push_back(b);
    return b;
}

Flow Elaborator::runBody(const ast::Block& b, const EnvPtr& env, const char* construct,
                         size_t from) {
    for (size_t i = from; i < b.size(); ++i) {
        const uint64_t exits = m_loopExitCount;
        Flow f = exec(*b[i], env);
        if ((f == Flow::Break || f == Flow::Continue) && !m_loopExits.empty() &&
            m_loopExits.back().supported) {
            // A run-time exit (inside a run-time 'if', or this block is one): what follows it in
            // this block is dead; the enclosing blocks guard their rest on the flag.
            emitLoopExit(f == Flow::Break ? 2 : 1, b[i]->span);
            return Flow::Normal;
        }
        if (f == Flow::Break || f == Flow::Continue)
            throw CompileError(
                b[i]->span,
                std::string("'break'/'continue' inside ") +
                    (m_loopExits.empty() ? construct : m_loopExits.back().loop.c_str()) +
                    " is not supported",
                "only T.serial / T.unroll / range loops of kernel code can be left early; guard the "
                "body with an 'if' instead");
        if (f == Flow::Return)
            throw CompileError(b[i]->span,
                               std::string("'return' inside ") + construct + " is not supported");
        if (m_loopExitCount != exits && i + 1 < b.size()) {
            // A break/continue ran in this statement on some path: the rest of the block runs
            // only while the innermost loop's flag is clear.
            ir::Expr go = loopExitClear(b[i + 1]->span);
            ir::Stmt rest = collect([&] { runBody(b, env, construct, i + 1); });
            if (rest) emit(ir::ifThen(go, rest, nullptr, b[i + 1]->span));
            return Flow::Normal;
        }
    }
    return Flow::Normal;
}

void Elaborator::emitLoopExit(int code, Span at) {
    LoopExit& L = m_loopExits.back();
    if (!L.flag)
        L.flag = std::make_shared<ir::BufferNode>(uniqueName("loop_exit"), ir::DType::Int32,
                                                  std::vector<ir::Expr>{ir::intImm(1)},
                                                  ir::Scope::Local, at);
    emit(ir::store(L.flag, {ir::intImm(0, at)}, ir::intImm(code, at), at));
    ++m_loopExitCount;
}

ir::Expr Elaborator::loopExitClear(Span at) {
    return ir::binary(ir::BinOp::Eq, ir::load(m_loopExits.back().flag, {ir::intImm(0, at)}, at),
                      ir::intImm(0, at), at);
}

// ---- statement hooks ----------------------------------------------------------------------------

namespace {
/// Reads a thread index (the IR verifier's criterion for thread-dependent control flow).
bool readsThreadIndex(const ir::Expr& e) {
    bool found = false;
    if (e)
        ir::walkExpr(e, [&](const ir::Expr& x) {
            if (auto* v = ir::as<ir::VarNode>(x); v && v->tag == ir::VarTag::ThreadIdx) found = true;
        });
    return found;
}
struct DivergenceScope {
    int& depth;
    bool on;
    DivergenceScope(int& d, bool divergent) : depth(d), on(divergent) { depth += on; }
    ~DivergenceScope() { depth -= on; }
};
}  // namespace

Flow Elaborator::execIf(const ast::If& s, const EnvPtr& env) {
    Value c = eval(*s.test, env);
    if (truthOrDynamic(c, s.test->span)) return Interp::execIf(s, env);  // static: keep one branch
    ir::Expr cond = condition(c, s.test->span);
    DivergenceScope divergence(m_threadDivergent, readsThreadIndex(cond));
    ir::Stmt then = collect([&] { runBody(s.body, env, "a run-time 'if'"); });
    ir::Stmt otherwise = collect([&] { runBody(s.orelse, env, "a run-time 'if'"); });
    if (!then && !otherwise) return Flow::Normal;
    if (!then) {
        cond = ir::unary(ir::UnOp::Not, cond, s.test->span);
        std::swap(then, otherwise);
    }
    emit(ir::ifThen(cond, then, otherwise, s.span));
    return Flow::Normal;
}

// A loop unrolled during elaboration: its break/continue are compile-time, and a run-time one
// inside it is refused (m_loopExits names the loop); the entry is popped however `body` ends.
template <class F>
Flow Elaborator::unrolledLoop(F&& body) {
    m_loopExits.push_back({false, nullptr, "a loop unrolled at compile time"});
    struct Pop {
        std::vector<LoopExit>& v;
        ~Pop() { v.pop_back(); }
    } pop{m_loopExits};
    return body();
}

Flow Elaborator::execWhile(const ast::While& s, const EnvPtr& env) {
    Value c = eval(*s.test, env);
    if (!truthOrDynamic(c, s.test->span))
        throw CompileError(s.test->span,
                           "'while' with a run-time condition is not supported in a kernel",
                           "use a T.serial loop with an 'if' guard");
    return unrolledLoop([&] { return Interp::execWhile(s, env); });
}

bool Elaborator::isKernelRange(const ast::Expr& iter, const EnvPtr& env) {
    // Inside prim_func and macro bodies `range(...)` is T.serial(...), as in TileLang.
    auto call = ast::as<ast::Call>(&iter);
    if (!call || !call->keywords.empty()) return false;
    auto name = ast::as<ast::Name>(call->func);
    if (!name || name->id != "range") return false;
    Value* bound = env->lookup("range");
    Value* builtin = builtins()->findLocal("range");
    return bound && builtin && bound->identity() == builtin->identity();
}

Flow Elaborator::execFor(const ast::For& s, const EnvPtr& env) {
    Value it;
    if (m_kernelMode && isKernelRange(*s.iter, env)) {
        auto call = ast::as<ast::Call>(s.iter);
        CallArgs a;
        a.span = s.iter->span;
        a.callee = "range";
        for (const ast::Expr* x : call->args) {
            a.pos.push_back(eval(*x, env));
            a.posSpans.push_back(x->span);
        }
        it = loopSpec(a, "range", ir::ForKind::Serial);
    } else {
        it = eval(*s.iter, env);
    }
    // `for tx in T.thread_binding(0, threads, "threadIdx.x")`: a loop bound to the whole block
    // dimension runs its body once per thread, with the thread index (ElaborateThreads.cpp).
    auto* iterCall = ast::as<ast::Call>(s.iter);
    auto* callee = iterCall ? ast::as<ast::Attribute>(iterCall->func) : nullptr;
    if (m_kernelMode && callee && callee->attr == "thread_binding" && isRuntime(it)) {
        auto n = ast::as<ast::Name>(s.target);
        if (!n) throw CompileError(s.target->span, "a T.thread_binding loop variable must be a plain name");
        if (!s.orelse.empty())
            throw CompileError(s.orelse.front()->span, "'for ... else' is not supported for kernel loops");
        bindName(env, n->id, it);
        runBody(s.body, env, "a T.thread_binding loop");
        return Flow::Normal;
    }
    if (auto* spec = it.extAs<LoopSpec>()) {
        if (!s.orelse.empty())
            throw CompileError(s.orelse.front()->span,
                               "'for ... else' is not supported for kernel loops");
        buildLoop(*spec, s, env);
        return Flow::Normal;
    }
    // A Python loop over compile-time values: unrolled during elaboration (its own break and
    // continue are compile-time; a run-time one cannot leave an unrolled loop).
    return unrolledLoop([&] { return Interp::execFor(s, env); });
}

void Elaborator::buildLoop(const LoopSpec& spec, const ast::For& s, const EnvPtr& env) {
    std::vector<const ast::Name*> names;
    if (auto n = ast::as<ast::Name>(s.target)) {
        names.push_back(n);
    } else if (auto t = ast::as<ast::Tuple>(s.target)) {
        for (const ast::Expr* e : t->elts) {
            auto n = ast::as<ast::Name>(e);
            if (!n) throw CompileError(e->span, "a kernel loop variable must be a plain name");
            names.push_back(n);
        }
    } else {
        throw CompileError(s.target->span, "a kernel loop variable must be a plain name");
    }
    if (names.size() != spec.dims.size())
        throw CompileError(s.target->span,
                           spec.name + " yields " + std::to_string(spec.dims.size()) +
                               " loop variable" + (spec.dims.size() == 1 ? "" : "s") +
                               ", but the loop binds " + std::to_string(names.size()),
                           spec.dims.size() > 1 ? "bind one name per extent, e.g. for " + loopNames(spec.dims.size()) + " in " +
                                                      spec.name + "(...):"
                                                : std::string());
    std::vector<ir::Var> vars;
    std::vector<std::optional<Value>> saved;
    for (size_t d = 0; d < names.size(); ++d) {
        // int64 when a bound is 64-bit or its values pass int32 (T.serial(2**40, 2**40 + 4), a
        // `n: T.int64` extent): an int32 variable made k // -7 int32 arithmetic (helper-113).
        const auto& [lo, extent] = spec.dims[d];
        auto c0 = ir::constInt(lo), cn = ir::constInt(extent);
        const bool wide = ir::dtypeBits(lo->dtype) == 64 || ir::dtypeBits(extent->dtype) == 64 ||
                          (c0 && !ir::holdsInt(ir::DType::Int32, *c0)) ||
                          (c0 && cn && (static_cast<__int128>(*c0) + static_cast<__int128>(*cn - 1) * spec.step > INT32_MAX ||
                                        static_cast<__int128>(*c0) + static_cast<__int128>(*cn - 1) * spec.step < INT32_MIN));
        vars.push_back(ir::makeVar(names[d]->id, wide ? ir::DType::Int64 : ir::DType::Int32, names[d]->span));
        Value* old = env->findLocal(names[d]->id);
        saved.push_back(old ? std::optional<Value>(*old) : std::nullopt);
        ir::Expr bound = vars.back();
        if (spec.step != 1)
            bound = ir::add(spec.dims[d].first, ir::mul(vars.back(), ir::intImm(spec.step, {}, vars.back()->dtype)));
        bindName(env, names[d]->id, wrap(bound));
    }
    m_loopExits.push_back({spec.kind == ir::ForKind::Serial || spec.kind == ir::ForKind::Unrolled, nullptr,
                           spec.name.empty() ? "a kernel loop" : "a " + spec.name + " loop"});
    const uint64_t exitsBefore = m_loopExitCount;
    ir::Stmt body;
    try {
        bool divergent = false;
        for (auto& [lo, extent] : spec.dims) divergent |= readsThreadIndex(lo) || readsThreadIndex(extent);
        DivergenceScope divergence(m_threadDivergent, divergent);
        body = collect([&] { runBody(s.body, env, "a kernel loop"); });
    } catch (...) {
        m_loopExits.pop_back();
        throw;
    }
    const ir::Buffer exitFlag = m_loopExits.back().flag;
    m_loopExits.pop_back();
    m_loopExitCount = exitsBefore;  // this loop's exits end here: nothing after it is guarded
    if (exitFlag) {
        // Each iteration clears a continue (1) and keeps a break (2), which skips every later
        // iteration's body: the loop still counts to its end (barriers inside stay reachable in
        // the same order for threads that did not leave).
        const ir::Expr flag = ir::load(exitFlag, {ir::intImm(0, s.span)}, s.span);
        ir::Stmt clearContinue = ir::store(
            exitFlag, {ir::intImm(0, s.span)},
            ir::select(ir::binary(ir::BinOp::Eq, flag, ir::intImm(2, s.span), s.span),
                       ir::intImm(2, s.span), ir::intImm(0, s.span), s.span),
            s.span);
        ir::Expr go = ir::binary(ir::BinOp::Eq, flag, ir::intImm(0, s.span), s.span);
        body = ir::seq({clearContinue, ir::ifThen(go, body ? body : ir::seq({}, s.span), nullptr, s.span)},
                       s.span);
        emit(std::make_shared<ir::AllocNode>(exitFlag, ir::intImm(0, s.span), s.span));
    }
    // The loop variable is not visible after the loop (it would be used outside its scope).
    for (size_t d = 0; d < names.size(); ++d) {
        if (saved[d])
            env->vars[names[d]->id] = *saved[d];
        else
            env->vars.erase(names[d]->id);
    }
    // Nor is a Python name the body bound to an expression of them (`pos = i` then `F[tx] = pos`
    // after the loop): such a name is poisoned with a diagnostic for its next use.
    {
        std::set<const ir::VarNode*> loopVars;
        for (auto& v : vars) loopVars.insert(v.get());
        for (auto& [name, val] : env->vars) {
            // An expression, or an element/region reference whose indices are expressions
            // (`first = S[i]` keeps the access S[i] until it is used: fuzz_meta, 2026-12-04).
            std::vector<ir::Expr> exprs;
            if (auto* ev = val.extAs<ExprValue>(); ev && ev->expr) exprs.push_back(ev->expr);
            if (auto* ba = val.extAs<BufferAccess>())
                for (auto& ix : ba->indices)
                    for (auto& e : {ix.point, ix.lower, ix.upper})
                        if (e) exprs.push_back(e);
            if (exprs.empty()) continue;
            std::string which;
            for (auto& e : exprs)
                ir::walkExpr(e, [&](const ir::Expr& x) {
                    if (auto* v = ir::as<ir::VarNode>(x); v && loopVars.count(v)) which = v->name;
                });
            if (which.empty()) continue;
            val = Value::poison(Diagnostic{
                Severity::Error, s.span,
                "it holds an expression of loop variable '" + which + "' of this loop, which does not exist after the loop",
                "keep a value that outlives the loop in a local variable: " + name + " = T.alloc_var(dtype) before the loop, then assign it inside",
                "elaborate"});
        }
    }
    if (!body) body = ir::seq({}, s.span);
    // A grid barrier inside T.Parallel (every iteration's part before it happens before any
    // iteration's part after it, as on the GPU where the iterations are threads) splits the loop
    // there: one loop nest per part, T.sync_grid between them (ParallelGridSplit.cpp).
    std::vector<ir::Stmt> parts{body};
    std::vector<Span> barriers;
    if (spec.kind == ir::ForKind::Parallel) parts = splitAtGridBarriers(body, barriers);
    for (size_t p = 0; p < parts.size(); ++p) {
        ir::Stmt nest = parts[p];
        std::vector<ir::Var> pv = vars;
        if (p > 0) {  // each nest binds loop variables of its own
            std::unordered_map<const ir::VarNode*, ir::Expr> fresh;
            for (size_t d = 0; d < vars.size(); ++d) {
                pv[d] = ir::makeVar(vars[d]->name, vars[d]->dtype, vars[d]->span);
                fresh[vars[d].get()] = pv[d];
            }
            nest = ir::substitute(nest, fresh);
            emit(ir::evaluate(ir::call(ir::intrin::kSyncGrid, {}, ir::DType::Int32, barriers[p - 1]),
                              barriers[p - 1]));
        }
        for (size_t d = names.size(); d-- > 0;) {
            ir::Expr mn = spec.step != 1 ? ir::intImm(0) : spec.dims[d].first;
            nest = ir::forLoop(pv[d], mn, spec.dims[d].second, spec.kind, nest,
                               d == 0 ? spec.attrs : ir::Attrs{}, s.span);
        }
        emit(nest);
    }
}

Flow Elaborator::execWith(const ast::With& s, const EnvPtr& env) {
    // `with T.ws(i):` inside a kernel: the body runs on warp group(s) i only.
    if (m_insideKernel && s.items.size() == 1) {
        Value c = eval(*s.items[0].context, env);
        if (auto* ws = c.extAs<WarpRoleScope>()) {
            if (s.items[0].target)
                throw CompileError(s.items[0].target->span, "'with T.ws(...)' binds no name");
            // A branch on the thread index like any `if tx < 128:` (fuzz_meta: a T.alloc_barrier
            // inside T.ws put its block barrier where only the role's threads arrive).
            ir::Stmt body;
            {
                DivergenceScope divergence(m_threadDivergent, true);
                body = collect([&] { runBody(s.body, env, "a T.ws scope"); });
            }
            if (body) emit(ir::ifThen(ws->cond, body, nullptr, s.span));
            return Flow::Normal;
        }
        if (auto* rs = c.extAs<ReduceScope>()) {
            if (s.items[0].target)
                throw CompileError(s.items[0].target->span, "'with T.attr(...)' binds no name");
            reduceScopes.push_back(rs->reducer);
            Flow f;
            try {
                f = runBody(s.body, env, "a T.attr scope");
            } catch (...) {
                reduceScopes.pop_back();
                throw;
            }
            reduceScopes.pop_back();
            return f;
        }
    }
    // One T.Kernel, beside which only instrumentation scopes (iket.range) may stand: those mark
    // a region for a tracing tool and compile to nothing (MetaBuiltins.h).
    const ast::WithItem* kernelItem = nullptr;
    Value kernel;
    for (const ast::WithItem& item : s.items) {
        Value c = eval(*item.context, env);
        if (c.extAs<InstrumentationScope>()) {
            if (item.target) assign(*item.target, Value::none(), env);
            continue;
        }
        if (kernelItem || !c.extAs<KernelSpec>())
            throw CompileError(item.context->span,
                               kernelItem ? "a kernel 'with' takes one T.Kernel (besides "
                                            "instrumentation scopes such as iket.range)"
                                          : "'with' needs T.Kernel(...) here, got " + typeName(c),
                               "write: with T.Kernel(...) as (bx, by):");
        kernelItem = &item;
        kernel = c;
    }
    if (!kernelItem)
        throw CompileError(s.span, "'with' needs T.Kernel(...) here",
                           "write: with T.Kernel(...) as (bx, by):");
    buildKernel(*kernel.extAs<KernelSpec>(), *kernelItem, s, env);
    return Flow::Normal;
}

void Elaborator::buildKernel(const KernelSpec& k, const ast::WithItem& item, const ast::With& s,
                             const EnvPtr& env) {
    if (m_insideKernel) throw CompileError(item.context->span, "T.Kernel cannot be nested");
    // Several T.Kernel blocks in one function are launched in order on the same tensors (as in
    // TileLang); compile() splits them into one launch each (compiler/KernelLaunches.h).
    m_sawKernel = true;
    m_kernelThreads = 1;
    for (auto t : k.threads) m_kernelThreads *= t;
    std::vector<const ast::Name*> names;
    bool tupleTarget = false;
    if (item.target && k.noGrid)
        throw CompileError(item.target->span, "T.Kernel without grid extents has no block index to bind",
                           "give the grid: `with T.Kernel(1, threads=...) as bx:`, or drop `as ...`");
    if (item.target) {
        if (auto n = ast::as<ast::Name>(item.target)) {
            names.push_back(n);
        } else if (auto t = item.target->kind == ast::ExprKind::Tuple ||
                                    item.target->kind == ast::ExprKind::List
                                ? static_cast<const ast::Sequence*>(item.target)
                                : nullptr) {
            tupleTarget = true;
            for (const ast::Expr* e : t->elts) {
                auto n = ast::as<ast::Name>(e);
                if (!n) throw CompileError(e->span, "T.Kernel block indices must be plain names");
                names.push_back(n);
            }
        } else {
            throw CompileError(item.target->span, "T.Kernel block indices must be plain names");
        }
    }
    if (tupleTarget && names.size() != k.grid.size())
        throw CompileError(item.target->span, "T.Kernel has " + std::to_string(k.grid.size()) +
                                                  " grid dimension" +
                                                  (k.grid.size() == 1 ? "" : "s") + " but binds " +
                                                  std::to_string(names.size()) + " block index" +
                                                  (names.size() == 1 ? "" : "es"));
    static const char* kBlock[] = {"bx", "by", "bz"};
    static const char* kThread[] = {"tx", "ty", "tz"};
    std::vector<ir::Var> blockVars, threadVars;
    for (size_t d = 0; d < k.grid.size(); ++d) {
        std::string n =
            d < names.size() && tupleTarget
                ? names[d]->id
                : (!tupleTarget && !names.empty() && k.grid.size() == 1 ? names[0]->id : kBlock[d]);
        blockVars.push_back(ir::makeVar(n, ir::DType::Int32,
                                        d < names.size() ? names[d]->span : item.context->span,
                                        ir::VarTag::BlockIdx, static_cast<int>(d)));
    }
    for (size_t d = 0; d < k.threads.size(); ++d)
        threadVars.push_back(ir::makeVar(kThread[d], ir::DType::Int32, k.span,
                                         ir::VarTag::ThreadIdx, static_cast<int>(d)));
    if (tupleTarget) {
        for (size_t d = 0; d < names.size(); ++d) bindName(env, names[d]->id, wrap(blockVars[d]));
    } else if (!names.empty()) {
        if (k.grid.size() == 1) {
            bindName(env, names[0]->id, wrap(blockVars[0]));
        } else {
            std::vector<Value> vs;
            for (auto& v : blockVars) vs.push_back(wrap(v));
            bindName(env, names[0]->id, Value::tuple(std::move(vs)));
        }
    }
    ir::Stmt body;
    {
        Restore<bool> inside(m_insideKernel, true);
        Restore<std::vector<ir::Var>> tvars(m_kernelThreadVars, threadVars);
        Restore<std::vector<ir::Var>> bvars(m_kernelBlockVars, blockVars);
        Restore<std::vector<int64_t>> extents(m_kernelBlockExtents, k.threads);
        body = collect([&] {
            m_kernelFrame = m_frameIds.back();
            runBody(s.body, env, "T.Kernel");
        });
    }
    if (!body) body = ir::seq({}, s.span);
    emit(std::make_shared<ir::KernelNode>(k.grid, k.threads, blockVars, threadVars, body, s.span));
}

Flow Elaborator::execAssign(const ast::Assign& s, const EnvPtr& env) {
    auto name = s.targets.size() == 1 ? ast::as<ast::Name>(s.targets[0]) : nullptr;
    ir::Buffer var;  // `x = ...` where x is a T.alloc_var: a store, as in TileLang
    if (name && m_kernelMode)
        if (Value* cur = env->lookup(name->id))
            if (auto* b = cur->extAs<BufferValue>(); b && b->isVar) var = b->buffer;
    Value v;
    {
        Restore<std::string> pending(m_pendingName, name ? name->id : std::string());
        v = eval(*s.value, env);
    }
    if (var && !v.extAs<BufferValue>()) {  // a new buffer (x = T.alloc_var(...) again) rebinds
        storeTo(var, {ir::intImm(0)}, v, s.span);
        return Flow::Normal;
    }
    if (name) {
        v = keepInRegister(name->id, v, s.span);
    } else if (auto* tuple = s.targets.size() == 1 ? ast::as<ast::Tuple>(s.targets[0]) : nullptr;
               tuple && v.is(ValueKind::Tuple) && v.items().size() == tuple->elts.size()) {
        // `b_i, s_i = TokenIndices[b, 0], TokenIndices[b, 1]`
        std::vector<Value> items = v.items();
        for (size_t i = 0; i < items.size(); ++i)
            if (auto* n = ast::as<ast::Name>(tuple->elts[i]))
                items[i] = keepInRegister(n->id, items[i], s.span);
        // `a[0], a[1] = a[1], a[0]`: Python evaluates the whole right side before the first
        // store, so run-time values are kept in registers before any target is written.
        bool storesElements = std::any_of(tuple->elts.begin(), tuple->elts.end(), [](const ast::Expr* t) {
            return !ast::as<ast::Name>(t);
        });
        if (storesElements && m_kernelMode && m_insideKernel && !m_frames.empty())
            for (auto& item : items)
                if (isRuntime(item) && !item.extAs<BufferValue>()) {
                    ir::Expr e = toExpr(item, s.span, "a value of the tuple assignment");
                    auto buf = std::make_shared<ir::BufferNode>(uniqueName("swap"), e->dtype,
                                                                std::vector<ir::Expr>{ir::intImm(1)},
                                                                ir::Scope::Local, s.span);
                    emit(std::make_shared<ir::AllocNode>(buf, nullptr, s.span));
                    emit(ir::store(buf, {ir::intImm(0)}, e, s.span));
                    item = wrap(ir::load(buf, {ir::intImm(0)}, s.span));
                }
        v = Value::tuple(std::move(items));
    }
    for (const ast::Expr* t : s.targets) assign(*t, v, env);
    // `x = A[i]` / `x = A[i] * 2` in kernel code: remember where, in case A changes before a use.
    if (name && m_kernelMode && !m_frames.empty() && v.is(ValueKind::Ext))
        if (v.extAs<ExprValue>() || (v.extAs<BufferAccess>() && v.extAs<BufferAccess>()->isElement()))
            m_letSites[v.extAs<ExtValue>()] = {m_frameIds.back(), m_frames.back().size(), name->id, nullptr, v};
    return Flow::Normal;
}

Value Elaborator::keepInRegister(const std::string& name, const Value& v, Span s) {
    if (!m_kernelMode || !m_insideKernel || m_frameIds.empty() || m_frameIds.back() != m_kernelFrame)
        return v;
    auto* access = v.extAs<BufferAccess>();
    if (!v.extAs<ExprValue>() && !(access && access->isElement())) return v;
    ir::Expr e = toExpr(v, s, "'" + name + "'");
    bool global = false;
    ir::walkExpr(e, [&](const ir::Expr& x) {
        if (auto* l = ir::as<ir::LoadNode>(x)) global |= l->buffer->scope == ir::Scope::Global;
    });
    if (!global) return v;
    auto buf = std::make_shared<ir::BufferNode>(uniqueName(name), e->dtype,
                                                std::vector<ir::Expr>{ir::intImm(1)},
                                                ir::Scope::Local, s);
    emit(std::make_shared<ir::AllocNode>(buf, nullptr, s));
    emit(ir::store(buf, {ir::intImm(0)}, e, s));
    return wrap(ir::load(buf, {ir::intImm(0)}, s));
}

Flow Elaborator::execAugAssign(const ast::AugAssign& s, const EnvPtr& env) {
    if (auto name = ast::as<ast::Name>(s.target)) {
        Value* cur = env->lookup(name->id);
        if (auto* b = cur ? cur->extAs<BufferValue>() : nullptr; b && b->isVar) {
            Value rhs = eval(*s.value, env);
            storeTo(b->buffer, {ir::intImm(0)}, binaryOp(s.op, *cur, rhs, s.span), s.span);
            return Flow::Normal;
        }
    }
    return Interp::execAugAssign(s, env);
}

Flow Elaborator::execAnnAssign(const ast::AnnAssign& s, const EnvPtr& env) {
    auto name = ast::as<ast::Name>(s.target);
    if (m_eager && name && !s.value) {
        const KernelParam* p = m_entry->param(name->id);
        if (p && p->role == KernelParam::Role::Tensor) {
            // `A: T.Tensor((M, K), dtype)` declares the eager kernel's tensor parameter A.
            Value t = eval(*s.annotation, env);
            auto* tt = t.extAs<TensorType>();
            if (!tt)
                throw CompileError(s.annotation->span, "the annotation of tensor '" + name->id +
                                                           "' must be T.Tensor(shape, dtype)");
            for (const auto& b : m_params)
                if (b->name == name->id)
                    throw CompileError(s.span, "tensor '" + name->id + "' is declared twice");
            ir::Buffer b = addParam(name->id, *tt, p->span, false);
            bindName(env, name->id, Value::ext(std::make_shared<BufferValue>(b, false)));
            return Flow::Normal;
        }
    }
    return Interp::execAnnAssign(s, env);
}

Value Elaborator::dynamicBoolOp(ast::BoolOpKind op, const Value& a, const Value& b, Span s) {
    ir::Expr x = condition(a, s), y = condition(b, s);
    return wrap(op == ast::BoolOpKind::And ? ir::logicalAnd(x, y, s)
                                           : ir::binary(ir::BinOp::Or, x, y, s));
}

Value Elaborator::dynamicIfExp(const Value& cond, const Value& a, const Value& b, Span s) {
    ir::Expr c = condition(cond, s);
    auto [x, y] = operands(a, b, s);
    return wrap(ir::select(c, x, y, s));
}

Value Elaborator::callDType(ir::DType t, CallArgs& args) {
    args.callee = std::string(ir::dtypeName(t));
    args.expectPositional(1, 1);
    return wrap(ir::cast(
        t, toExprLike(args.pos[0], t, args.argSpan(0), args.callee + "() argument"), args.span));
}

Value Elaborator::callUserFunction(const FunctionObj& f, CallArgs& args) {
    const bool fromKernelCode = m_kernelMode && m_insideKernel;
    Restore<bool> mode(m_kernelMode, false);
    Value r = callFunction(f, args);
    // A kernel factory called from kernel code makes another kernel and none of its statements
    // land here (helper-122 #8: `reduce_fn=my_jit_factory` dropped the reduction silently).
    if (fromKernelCode && r.is(ValueKind::Function) && r.functionObj().tag == FunctionTag::PrimFunc)
        throw CompileError(args.span,
                           "'" + f.name + "' returns a kernel (the @T.prim_func '" + r.functionObj().name +
                               "'): calling it inside a kernel does not run its statements here",
                           "write the code to inline as a @T.macro (or a function that emits tile ops), or pass a "
                           "T.* op such as T.reduce_max");
    return r;
}

// ---- functions ----------------------------------------------------------------------------------

ir::PrimFunc Elaborator::run(const KernelEntry& entry, const ParamBindings& params) {
    m_entry = &entry;
    m_bindings = &params;
    m_globals = newModuleEnv();
    execTopLevel(*this, *m_mod.ast(), m_globals);
    // `--param reduce_fn=T.reduce_max` (or the file's own call passing it) arrives as text: the
    // op or module-level function it names, unless the parameter's default is a string.
    m_resolvedBindings = params;
    for (auto& [name, v] : m_resolvedBindings) {
        const KernelParam* p = entry.param(name);
        const bool strDefault = p && p->defaultValue && p->defaultValue->is(ValueKind::Str);
        if (v.is(ValueKind::Str) && !strDefault)
            if (auto f = callableNamed(*this, m_globals, v.asStr())) v = *f;
        // A default or call value evaluated by the module's interpreter (its T ops are names only,
        // Interp::installTileOpNames; its functions close over its globals): this run's own.
        if (v.is(ValueKind::Builtin) || v.is(ValueKind::Function))
            if (auto f = callableNamed(*this, m_globals, paramText(v))) v = *f;
    }
    m_bindings = &m_resolvedBindings;
    // A kernel defined inside a test function: its def run in that function's scope.
    EnvPtr nestedScope = entry.enclosing ? nestedKernelScope(*this, m_globals, entry) : nullptr;
    Value* fv = nestedScope ? nestedScope->findLocal(entry.func->name) : m_globals->findLocal(entry.name());
    if (!fv || !fv->is(ValueKind::Function))
        throw CompileError(entry.func->nameSpan, "'" + entry.name() + "' could not be defined");
    switch (entry.pattern) {
        case EntryPattern::PrimFunc:
            return elaboratePrimFunc(fv->functionObj(), entry.func->name);
        case EntryPattern::Eager:
            return elaborateEager(entry);
        case EntryPattern::Factory:
            break;
    }
    CallArgs a;
    a.span = entry.func->nameSpan;
    a.callee = entry.name();
    for (const auto& [k, v] : m_resolvedBindings) {
        a.kw.emplace_back(k, v);
        const KernelParam* p = entry.param(k);
        a.kwSpans.push_back(p ? p->span : a.span);
    }
    forgetPrimFunc();
    Value result;
    try {
        result = callFunction(fv->functionObj(), a);
    } catch (const CompileError& e) {
        // A pytest-style test function (TileLang's own tests: define `main`, then
        // `tl.compile(main)`, torch inputs, asserts) stops at its host code here; the kernel it
        // defined before that is the kernel: take it, and say what was not run.
        const Value& k = lastPrimFunc();
        const Span at = k.is(ValueKind::Function) ? k.functionObj().span() : Span{};
        // Only a plain function (a @tilelang.jit factory's body is the user's kernel-building
        // code: an error in it stays an error).
        if (entry.isJit || entry.isAutotune || !at.valid() || !e.diag.span.valid() || e.diag.span.line <= at.line) throw;
        diags().warning(e.diag.span,
                        "'" + entry.name() + "' goes on after its @T.prim_func '" + k.functionObj().name + "' (line " +
                            std::to_string(at.line) + ") with code TileScope does not run (" + e.diag.message +
                            "): the kernel is '" + k.functionObj().name + "' as defined there",
                        "a test function's host code (tl.compile, torch inputs, asserts) is TileLang's harness; "
                        "tilec run checks the kernel against a reference instead (--ref)");
        result = k;
    }
    // A pytest test function returns nothing: the @T.prim_func it defined is its kernel
    // (helper-119: "'test_issue_1198' must return its @T.prim_func" hid what the kernel lacked).
    if (result.isNone() && !entry.isJit && !entry.isAutotune && entry.name().rfind("test", 0) == 0 &&
        lastPrimFunc().is(ValueKind::Function))
        result = lastPrimFunc();
    // An autotuner (or the tunable function) stands for its kernel at the first config.
    result = resolveTunedKernel(*this, result, entry.name(), *m_mod.ast(), m_globals,
                                entry.func->nameSpan);
    if (!result.is(ValueKind::Function))
        throw CompileError(entry.func->nameSpan,
                           "'" + entry.name() + "' must return its @T.prim_func, but it returned " +
                               typeName(result),
                           "end the factory with 'return main' (the inner @T.prim_func)");
    if (result.functionObj().tag != FunctionTag::PrimFunc)
        throw CompileError(result.functionObj().span(),
                           "'" + result.functionObj().name + "' is returned by '" + entry.name() +
                               "' but is not decorated with @T.prim_func");
    return elaboratePrimFunc(result.functionObj(), entry.func->name);
}

ir::PrimFunc Elaborator::elaboratePrimFunc(const FunctionObj& f, const std::string& name) {
    if (!f.def) throw CompileError(f.span(), "a lambda cannot be a @T.prim_func");
    const ast::FunctionDef& def = *f.def;
    auto env = std::make_shared<Env>();
    env->parent = f.closure;
    for (const auto& p : def.params) {
        if (p.kind != ast::ParamKind::Normal && p.kind != ast::ParamKind::PosOnly)
            throw CompileError(p.span,
                               "kernel parameters cannot be *args, **kwargs or keyword-only");
        if (!p.annotation)
            throw CompileError(p.span, "kernel parameter '" + p.name + "' needs a type",
                               "annotate it: " + p.name + ": T.Tensor((M, N), dtype)");
        Value t = eval(*p.annotation, f.closure);
        if (auto dt = asDType(t); dt && !t.is(ValueKind::Str)) {
            // `n: T.int32` / `scale: T.float32`: a scalar argument passed at launch.
            using ir::DType;
            if (*dt != DType::Int32 && *dt != DType::Int64 && *dt != DType::UInt32 &&
                *dt != DType::Float32 && *dt != DType::Float64 && *dt != DType::Bool)
                throw CompileError(p.annotation->span,
                                   "scalar kernel parameter '" + p.name + "' cannot be " +
                                       std::string(ir::dtypeName(*dt)) + " yet",
                                   "use T.int32, T.int64, T.uint32, T.float32, T.float64 or T.bool");
            ir::Var v = ir::makeVar(uniqueName(p.name), *dt, p.span);
            m_scalarParams.push_back(v);
            m_signature.push_back(-1);
            env->vars[p.name] = wrap(v);
            continue;
        }
        auto* tt = t.extAs<TensorType>();
        if (!tt && t.is(ValueKind::Builtin) && t.builtinObj().name == "T.ptr")
            throw CompileError(p.annotation->span,
                               "scalar kernel parameter '" + p.name + "': a single raw device pointer (T.ptr) is not "
                               "supported by TileScope yet",
                               "pass the tensor itself (" + p.name + ": T.Tensor(shape, dtype)), or a pointer table "
                               "`" + p.name + "s: T.Tensor([1], T.ptr)` and T.make_tensor(" + p.name + "s[0], shape, dtype) "
                               "inside T.Kernel");
        if (!tt)
            throw CompileError(p.annotation->span,
                               "kernel parameter '" + p.name + "' must be a tensor or a scalar, got " +
                                   typeName(t),
                               "annotate it T.Tensor((M, N), dtype) or T.int32 / T.float32");
        m_signature.push_back(static_cast<int>(m_params.size()));
        ir::Buffer b = addParam(p.name, *tt, p.span, false);
        env->vars[p.name] = Value::ext(std::make_shared<BufferValue>(b, false));
    }
    ir::Stmt body;
    {
        Restore<bool> mode(m_kernelMode, true);
        body = collect([&] {
            Flow fl = execBlock(def.body, env);
            if (fl == Flow::Break || fl == Flow::Continue)
                throw CompileError(def.nameSpan, "'break'/'continue' outside a loop");
        });
    }
    if (!m_sawKernel)
        throw CompileError(def.nameSpan,
                           "kernel '" + def.name + "' has no 'with T.Kernel(...)' block",
                           "wrap the body in: with T.Kernel(grid, threads=128) as (bx, by):");
    return finish(name, body, def.span);
}

ir::PrimFunc Elaborator::elaborateEager(const KernelEntry& entry) {
    m_eager = true;
    const ast::FunctionDef& def = *entry.func;
    auto env = std::make_shared<Env>();
    env->parent = entry.enclosing ? nestedKernelScope(*this, m_globals, entry) : m_globals;
    for (const auto& p : entry.params) {
        if (p.role == KernelParam::Role::Meta && !p.variadic)
            if (const Value* v = findParam(*m_bindings, p.name)) env->vars[p.name] = *v;
        if (p.role == KernelParam::Role::Tensor)
            env->vars[p.name] = Value::poison(Diagnostic{
                Severity::Error, p.span, "tensor '" + p.name + "' is used before its declaration",
                "declare it first: " + p.name + ": T.Tensor(shape, dtype)", "elaborate"});
    }
    // `def k(A: T.Tensor((64,), T.float16), ...)`: a tensor declared in the signature, as TileLang's
    // eager mode allows (helper-119: issue_1744, language/let), is declared before the body runs;
    // its shape may use the meta parameters bound above (a T.const size in it is declared in the
    // body, so such a signature keeps the body declaration's form).
    for (const auto& p : entry.params) {
        if (p.role != KernelParam::Role::Tensor || !p.annotation || ast::as<ast::Name>(p.annotation)) continue;
        Value t;
        try {
            t = eval(*p.annotation, env);
        } catch (const CompileError&) {
            continue;  // sizes the body declares first: the body's `A: T.Tensor(...)` declares it
        }
        auto* tt = t.extAs<TensorType>();
        if (!tt) continue;
        ir::Buffer b = addParam(p.name, *tt, p.span, false);
        env->vars[p.name] = Value::ext(std::make_shared<BufferValue>(b, false));
    }
    ir::Stmt body;
    Value returned;
    {
        Restore<bool> mode(m_kernelMode, true);
        body = collect([&] {
            if (execBlock(def.body, env) == Flow::Return) returned = m_returnValue;
        });
    }
    for (const auto& p : entry.params)
        if (p.role == KernelParam::Role::Tensor &&
            std::none_of(m_params.begin(), m_params.end(),
                         [&](const ir::Buffer& b) { return b->name == p.name; }))
            throw CompileError(
                p.span, "tensor parameter '" + p.name + "' is never declared",
                "add '" + p.name + ": T.Tensor((M, N), dtype)' at the top of the kernel");
    if (!m_sawKernel)
        throw CompileError(def.nameSpan,
                           "kernel '" + def.name + "' has no 'with T.Kernel(...)' block");
    // Call order: tensor parameters in signature order, then T.empty outputs.
    std::vector<ir::Buffer> inputs, outputs;
    for (const auto& p : entry.params)
        for (const auto& b : m_params)
            if (p.role == KernelParam::Role::Tensor && b->name == p.name) inputs.push_back(b);
    for (int i : m_outputs) outputs.push_back(m_params[static_cast<size_t>(i)]);
    m_params = inputs;
    m_params.insert(m_params.end(), outputs.begin(), outputs.end());
    m_outputs.clear();
    std::vector<Value> ret =
        returned.is(ValueKind::Tuple) ? returned.items() : std::vector<Value>{};
    if (!returned.isNone() && !returned.is(ValueKind::Tuple)) ret.push_back(returned);
    for (const Value& r : ret) {
        auto* b = r.extAs<BufferValue>();
        if (!b)
            throw CompileError(
                def.nameSpan, "an eager kernel must return its output tensors, got " + typeName(r));
        for (size_t i = 0; i < m_params.size(); ++i)
            if (m_params[i] == b->buffer) m_outputs.push_back(static_cast<int>(i));
    }
    m_outputsFixed = !ret.empty();
    return finish(entry.func->name,  // the C name: a nested kernel's qualified name has a dot
                  body, def.span);
}

ir::Var Elaborator::symbol(const std::string& name, ir::DType t, Span s) {
    ir::Var v = ir::makeVar(name, t, s);
    m_symbols.push_back(v);
    return v;
}

bool Elaborator::isLaunchInvariant(const ir::Expr& e) const {
    bool ok = true;
    ir::walkExpr(e, [&](const ir::Expr& x) {
        if (x->kind == ir::ExprKind::Load) ok = false;
        if (auto* v = ir::as<ir::VarNode>(x)) {
            auto same = [&](const ir::Var& s) { return s.get() == v; };
            ok &= std::any_of(m_symbols.begin(), m_symbols.end(), same) ||
                  std::any_of(m_scalarParams.begin(), m_scalarParams.end(), same);
        }
    });
    return ok;
}

std::string Elaborator::sourceText(Span s) const {
    if (!s.valid() || s.endLine != s.line || s.endCol <= s.col || !m_mod.source()) return {};
    std::string_view line = m_mod.source()->lineText(s.line);
    if (s.col - 1 >= line.size()) return {};
    return std::string(line.substr(s.col - 1, s.endCol - s.col));
}

namespace {
/// The symbolic sizes the kernel uses (in tensor shapes or the body), in creation order.
std::vector<ir::Var> usedSymbols(const std::vector<ir::Var>& symbols,
                                 const std::vector<ir::Buffer>& params, const ir::Stmt& body) {
    std::set<const ir::VarNode*> used;
    auto note = [&](const ir::Expr& e) {
        ir::walkExpr(e, [&](const ir::Expr& x) {
            if (auto* v = ir::as<ir::VarNode>(x)) used.insert(v);
        });
    };
    for (const auto& b : params) {
        for (const auto& e : b->shape) note(e);
        for (const auto& e : b->strides) note(e);
    }
    if (body) ir::walk(body, [](const ir::Stmt&) {}, note);
    std::vector<ir::Var> out;
    std::set<std::string> names;
    for (const auto& v : symbols)
        if (used.count(v.get())) {
            if (!names.insert(v->name).second)
                throw CompileError(v->span, "two symbolic sizes are both named '" + v->name + "'",
                                   "give each T.dynamic / T.symbolic its own name");
            out.push_back(v);
        }
    return out;
}
}  // namespace

ir::PrimFunc Elaborator::finish(const std::string& name, ir::Stmt body, Span span) {
    auto f = std::make_shared<ir::PrimFuncNode>();
    f->name = name;
    f->params = m_params;
    f->scalars = usedSymbols(m_symbols, m_params, body);
    for (const auto& v : m_scalarParams) {
        for (const auto& s : f->scalars)
            if (s->name == v->name)
                throw CompileError(v->span, "scalar parameter '" + v->name +
                                                "' has the name of a symbolic size");
        f->scalars.push_back(v);
    }
    f->body = body ? body : ir::seq({}, span);
    f->layouts = m_layouts;
    f->attrs = m_funcAttrs;
    f->span = span;
    int n = static_cast<int>(m_signature.empty() ? m_params.size() : m_signature.size());
    Value oi;  // out_idx=None means "not given"
    if (!m_outputsFixed && m_entry && m_entry->outIdx && m_entry->pattern != EntryPattern::Eager) {
        auto scope = std::make_shared<Env>();
        scope->parent = m_globals;
        for (const auto& [k, v] : *m_bindings) scope->vars[k] = v;
        oi = eval(*m_entry->outIdx, scope);
    }
    if (m_outputsFixed) {
        f->outputs = m_outputs;
    } else if (!oi.isNone()) {
        std::vector<Value> items = oi.isSequence() ? oi.items() : std::vector<Value>{oi};
        for (const Value& v : items) {
            if (!v.isIntLike())
                throw CompileError(m_entry->outIdx->span,
                                   "out_idx must be an int or a list of ints, got " + fe::repr(oi));
            int64_t i = v.asInt() < 0 ? v.asInt() + n : v.asInt();
            if (i < 0 || i >= n)
                throw CompileError(m_entry->outIdx->span,
                                   "out_idx " + std::to_string(v.asInt()) +
                                       " is out of range for " + std::to_string(n) +
                                       (m_scalarParams.empty() ? " tensor" : " kernel") +
                                       " parameter" + (n == 1 ? "" : "s"));
            if (!m_signature.empty()) {  // out_idx counts scalar parameters too (TileLang)
                i = m_signature[static_cast<size_t>(i)];
                if (i < 0)
                    throw CompileError(m_entry->outIdx->span,
                                       "out_idx " + std::to_string(v.asInt()) +
                                           " names a scalar parameter; outputs must be tensors");
            }
            f->outputs.push_back(static_cast<int>(i));
        }
    } else {
        // Every tensor parameter the kernel writes (LANGUAGE.md §1). Indices into the tensor
        // parameters: n counts scalar parameters too when the signature mixes them (fuzz
        // finding, corpus autotune_test_tilelang_autotune_scalar_inputs).
        f->outputs = writtenTensorParams(*f);
    }
    return f;
}

}  // namespace elab

}  // namespace ts::fe
