// Statement execution of the tile-level interpreter: argument binding (symbolic extents from the
// tensors' shapes), the T.Kernel grid (one block after another, x fastest), per-block buffer
// allocation, loops of every kind run sequentially, stores rounded to the buffer dtype, and the
// conversion of internal errors into the single Diagnostic of InterpResult.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <new>
#include <string_view>

#include "compiler/interp/Machine.h"
#include "compiler/interp/Pointers.h"
#include "compiler/interp/SharedViews.h"

#include <cstdio>
#include "compiler/interp/ThreadMachine.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/IntrinsicsAssert.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/FragmentViews.h"

namespace ts::interp::detail {
using namespace ts::ir;

namespace {

/// Calls with no effect when one logical executor runs the whole block.
bool isNoOpCall(std::string_view op) {
    if (op.substr(0, 2) == "T.") op.remove_prefix(2);
    if (op.substr(0, 3) == "tl.") op.remove_prefix(3);
    static constexpr std::string_view kNoOps[] = {
        "sync_threads", "syncthreads",     "sync_warp",          "fence_proxy_async",
        "set_max_nreg", "use_swizzle",     "annotate_layout",    "barrier_arrive",
        "barrier_wait", "mbarrier_arrive", "mbarrier_expect_tx", "mbarrier_wait_parity",
        "no_op",        "evaluate",        "pdl_trigger",        "pdl_sync",
        // IR after inject-pipeline, before lowering: its async copies (T.copy with attr
        // "async") complete when issued here, so commit / wait_group order nothing more.
        "cp_async_commit", "cp_async_wait",
    };
    return std::find(std::begin(kNoOps), std::end(kNoOps), op) != std::end(kNoOps);
}

/// Product of extents with an overflow guard (nullopt above kMaxElements).
std::optional<int64_t> checkedNumel(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t e : shape) {
        if (e < 0) return std::nullopt;
        if (e && n > kMaxElements / e) return std::nullopt;
        n *= e;
    }
    return n;
}

}  // namespace

void Machine::fail(const Span& at, std::string msg, std::string hint) const {
    throw InterpError{at.valid() ? at : m_stmtSpan, std::move(msg), std::move(hint)};
}

void Machine::failTooDeep(const Span& at) const {
    fail(at, "expression or statement nesting deeper than " + std::to_string(kMaxDepth));
}

void Machine::checkCancel(const Span& at) const {
    if (m_opts.cancel && m_opts.cancel->load(std::memory_order_relaxed))
        fail(at, "interpretation cancelled");
}

namespace {
std::string limitText(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", s);
    return buf;
}
}  // namespace

void Machine::checkBlockLimits(const Span& kernel, int64_t blocksDone, int64_t blocks) {
    checkCancel(kernel);
    m_block = blocksDone;
    m_blocks = blocks;
    if (m_opts.timeLimitS <= 0 || blocksDone == 0) return;
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
    if (s > m_opts.timeLimitS)
        fail(kernel,
             "time limit of " + limitText(m_opts.timeLimitS) + " s reached after " +
                 std::to_string(blocksDone) + " of " + std::to_string(blocks) + " blocks",
             "smaller sizes (--param) run faster" +
                 (m_opts.timeLimitHint.empty() ? std::string() : "; " + m_opts.timeLimitHint));
}

void Machine::pollLoops(const Span& at) {
    checkCancel(at);
    if (m_opts.timeLimitS <= 0 && !m_opts.onLoop) return;
    // The loop to name: the running one with the most iterations (the outermost of equals): an
    // endless T.serial around a T.Parallel is the serial loop, not the inner one ticking now.
    const ActiveLoop* main = nullptr;
    for (const ActiveLoop& l : m_loops)
        if (!main || l.extent > main->extent) main = &l;
    if (m_opts.timeLimitS > 0) {
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
        if (s > m_opts.timeLimitS) {
            std::string where = main ? ", at iteration " + std::to_string(*main->iteration + 1) +
                                           " of " + std::to_string(main->extent)
                                     : std::string();
            fail(main ? main->span : at,
                 "time limit of " + limitText(m_opts.timeLimitS) +
                     " s reached: the interpreter was still in this loop" + where + " (block " +
                     std::to_string(m_block + 1) + " of " + std::to_string(m_blocks) + ")",
                 "an endless or enormous loop? check its extent; smaller sizes (--param) run "
                 "faster" +
                     (m_opts.timeLimitHint.empty() ? std::string() : "; " + m_opts.timeLimitHint));
        }
    }
    if (m_opts.onLoop && main)
        m_opts.onLoop({main->span, *main->iteration, main->extent, m_block, m_blocks});
}

void Machine::log(std::string line) {
    constexpr size_t kMax = 10000;
    if (m_log.size() < kMax) m_log.push_back(std::move(line));
    else if (m_log.size() == kMax) m_log.push_back("... T.print: more lines not kept (the interpreter keeps the first 10000)");
}

size_t Machine::bind(const VarNode* v, int64_t value) {
    m_bindings.push_back({v, value, static_cast<double>(value)});
    return m_bindings.size() - 1;
}

BufferState& Machine::lookup(const BufferNode* b, const Span& at) {
    if (!b) fail(at, "malformed IR: access to a missing buffer");
    for (auto& s : m_buffers)
        if (s->node == b) {
            if (!s->live) break;
            return *s;
        }
    if (const BufferNode* v = m_tileFunc ? viewBase(*m_tileFunc, *b) : nullptr) {
        // A view (T.Tensor(shape, dtype, A.data), T.reshape of a tensor): the parameter's
        // storage, addressed row-major through the view's own shape (ir/Views.h).
        BufferState& base = lookup(v, at);
        BufferState& st = stateFor(b);
        int64_t numel = 1;
        st.shape.clear();
        for (auto& e : b->shape) {
            int64_t v = evalI(e.get());
            if (v < 0) fail(at, "view '" + b->name + "' has a negative extent " + std::to_string(v));
            st.shape.push_back(v);
            numel = v && numel > kMaxElements / v ? kMaxElements + 1 : numel * v;
        }
        if (b->dtype == base.dtype && numel > base.size)
            fail(at, "view '" + b->name + "' of shape " + formatShape(st.shape) + " has " +
                         std::to_string(numel) + " elements, more than '" + base.node->name + "' (" +
                         std::to_string(base.size) + ")");
        st.strides.assign(st.shape.size(), 1);
        for (size_t d = st.shape.size(); d-- > 1;) st.strides[d - 1] = st.strides[d] * st.shape[d];
        st.dtype = b->dtype;
        st.global = st.live = true;
        if (b->dtype == base.dtype) {
            st.data = base.data;
            st.size = numel;
            return st;
        }
        // Another dtype (T.view(A, shape, dtype)): the same bytes. One double per element, so the
        // view keeps elements of its own, derived from the tensor's bits now and re-derived on
        // every write through either name (the shared views' pairs, SharedViews.h). Per machine:
        // a block that runs on another machine of the grid sees this block's writes through the
        // tensor's storage, not through its own copy of the view (blocks do not read each
        // other's writes within a launch but by atomics, which do not go through views).
        // TileLang asserts that the view covers the tensor's bytes exactly; with symbolic extents
        // only the run can check it.
        if (numel * ir::dtypeBits(b->dtype) != base.size * ir::dtypeBits(base.dtype))
            fail(at,
                 "view '" + b->name + "' of shape " + formatShape(st.shape) + " covers " + std::to_string(numel * ir::dtypeBits(b->dtype) / 8) +
                     " bytes but '" + base.node->name + "' has " + std::to_string(base.size * ir::dtypeBits(base.dtype) / 8),
                 "a view of another dtype covers the tensor's bytes: scale the last extent by the ratio of the element sizes");
        st.viewOwnsData = true;
        if (auto c = m_viewCache.find(b); c != m_viewCache.end() && c->second.first.size() == size_t(numel) &&
                                          c->second.second.size() == size_t(base.size)) {
            // An earlier block on this machine derived it: re-derive what the tensor changed since.
            st.own = std::move(c->second.first);
            st.data = st.own.data();
            st.size = numel;
            const std::vector<double>& was = c->second.second;
            if (std::memcmp(base.data, was.data(), was.size() * sizeof(double)) != 0)
                for (int64_t i = 0; i < base.size; ++i)
                    if (std::memcmp(&base.data[i], &was[size_t(i)], sizeof(double)) != 0) detail::copyViewBits(base, 0, i, i, st, 0);
            m_viewCache.erase(c);
        } else {
            st.own.assign(static_cast<size_t>(numel), 0.0);
            st.data = st.own.data();
            st.size = numel;
            detail::copyViewBits(base, 0, 0, base.size - 1, st, 0);
        }
        SharedViewPair p{&st, &base, {}, {}};
        p.viewSnap.assign(st.data, st.data + st.size);
        p.baseSnap.assign(base.data, base.data + base.size);
        m_sharedViews.push_back(std::move(p));
        return st;
    }
    fail(at, "buffer '" + b->name + "' is used before its allocation in this block",
         "an alloc_shared/alloc_fragment/alloc_local must come before the buffer's first use "
         "inside T.Kernel");
}

BufferState& Machine::stateFor(const BufferNode* b) {
    for (auto& s : m_buffers)
        if (s->node == b) return *s;
    m_buffers.push_back(std::make_unique<BufferState>());
    m_buffers.back()->node = b;
    return *m_buffers.back();
}

/// Geometry shared by arguments and allocations: evaluated shape, strides, storage need.
static int64_t setGeometry(Machine& m, BufferState& st, const BufferNode& b, const Span& at) {
    st.dtype = b.dtype;
    st.shape.clear();
    for (auto& e : b.shape) {
        int64_t v = m.evalI(e.get());
        if (v < 0) m.fail(at, "buffer '" + b.name + "' has a negative extent " + std::to_string(v));
        st.shape.push_back(v);
    }
    auto numel = checkedNumel(st.shape);
    if (!numel)
        m.fail(at, "buffer '" + b.name + "' of shape " + formatShape(st.shape) +
                       " is too large for the interpreter");
    st.strides.assign(st.shape.size(), 1);
    if (b.strides.empty()) {
        for (size_t d = st.shape.size(); d-- > 1;) st.strides[d - 1] = st.strides[d] * st.shape[d];
        return *numel;
    }
    if (b.strides.size() != st.shape.size())
        m.fail(at, "buffer '" + b.name + "' has " + std::to_string(b.strides.size()) +
                       " strides for rank " + std::to_string(st.shape.size()));
    int64_t last = 0;
    for (size_t d = 0; d < st.shape.size(); ++d) {
        st.strides[d] = m.evalI(b.strides[d].get());
        if (st.strides[d] < 0 || st.strides[d] > kMaxElements)
            m.fail(at, "buffer '" + b.name + "' has an unsupported stride " +
                           std::to_string(st.strides[d]));
        if (st.shape[d] > 0) last += (st.shape[d] - 1) * st.strides[d];
    }
    if (*numel == 0) return 0;
    if (last + 1 > kMaxElements)
        m.fail(at, "strided buffer '" + b.name + "' is too large for the interpreter");
    return last + 1;
}

void Machine::bindArguments(const PrimFunc& f, std::vector<HostTensor>& args) {
    if (args.size() != f->params.size())
        fail(f->span, "kernel '" + f->name + "' takes " + std::to_string(f->params.size()) +
                          " tensor arguments, got " + std::to_string(args.size()));
    for (size_t i = 0; i < args.size(); ++i) {
        const BufferNode* b = f->params[i].get();
        if (!b) fail(f->span, "malformed IR: parameter " + std::to_string(i) + " has no buffer");
        if (args[i].shape.size() != b->rank())
            fail(b->span, "argument " + std::to_string(i) + " ('" + b->name + "') must have rank " +
                              std::to_string(b->rank()) + ", got shape " +
                              formatShape(args[i].shape));
        for (size_t d = 0; d < b->rank(); ++d) {  // a dimension that is a bare variable binds it
            auto* v = dynamic_cast<const VarNode*>(b->shape[d].get());
            bool bound = false;
            for (auto& bd : m_bindings) bound |= bd.var == v;
            if (v && !bound) bind(v, args[i].shape[d]);
        }
    }
    for (size_t i = 0; i < f->scalars.size(); ++i) {  // scalar arguments passed by value
        const VarNode* v = f->scalars[i].get();
        const Binding* bound = nullptr;
        for (auto& bd : m_bindings)
            if (bd.var == v) bound = &bd;
        if (i >= m_opts.scalars.size()) {
            if (!bound)
                fail(v->span, "scalar argument '" + v->name + "' of kernel '" + f->name +
                                  "' has no value", "pass --param " + v->name + "=VALUE");
            continue;
        }
        const double x = m_opts.scalars[i];
        if (bound) {
            if (bound->f != x)
                fail(v->span, "symbolic size '" + v->name + "' is " + std::to_string(bound->i) +
                                  " from the tensor arguments' shapes but " +
                                  std::to_string(static_cast<int64_t>(x)) + " was passed");
            continue;
        }
        size_t pos = bind(v, static_cast<int64_t>(x));
        m_bindings[pos].f = isFloat(v->dtype) ? x : std::trunc(x);
    }
    for (size_t i = 0; i < args.size(); ++i) {
        const BufferNode& b = *f->params[i];
        HostTensor& t = args[i];
        std::string what = "argument " + std::to_string(i) + " ('" + b.name + "')";
        if (t.dtype != b.dtype)
            fail(b.span, what + " has dtype " + std::string(dtypeName(t.dtype)) +
                             ", the kernel expects " + std::string(dtypeName(b.dtype)));
        BufferState& st = stateFor(&b);
        int64_t need = setGeometry(*this, st, b, b.span);
        if (st.shape != t.shape)
            fail(b.span, what + " has shape " + formatShape(t.shape) + ", the kernel expects " +
                             formatShape(st.shape));
        if (t.data.empty()) t.data.assign(static_cast<size_t>(t.numel()), 0.0);
        if (static_cast<int64_t>(t.data.size()) < need ||
            static_cast<int64_t>(t.data.size()) != t.numel())
            fail(b.span, what + " holds " + std::to_string(t.data.size()) + " values, needs " +
                             std::to_string(need));
        st.data = t.data.data();
        st.size = static_cast<int64_t>(t.data.size());
        st.global = st.live = true;
    }
}

InterpResult Machine::run(const PrimFunc& f, std::vector<HostTensor>& args) {
    InterpResult r;
    auto error = [&](Span s, std::string msg, std::string hint) {
        r.ok = false;
        r.error = Diagnostic{Severity::Error, s, std::move(msg), std::move(hint), "interp"};
    };
    try {
        if (!f) fail({}, "no function to interpret");
        m_tileFunc = f.get();
        bindArguments(f, args);
        runBody(f);
        r.ok = true;
    } catch (const InterpError& e) {
        error(e.span, e.message, e.hint);
    } catch (const std::bad_alloc&) {
        error(m_stmtSpan, "the interpreter ran out of memory", "try smaller sizes");
    } catch (const std::exception& e) {
        error(m_stmtSpan, std::string("internal interpreter error: ") + e.what(), {});
    } catch (...) {
        error(m_stmtSpan, "internal interpreter error", {});
    }
    r.blocksRun = m_blocksRun;
    r.log = std::move(m_log);
    r.warnings = std::move(m_warnings);
    return r;
}

void Machine::runBody(const PrimFunc& f) { exec(f->body.get()); }

void Machine::warnOnce(const std::string& key, Diagnostic d) {
    for (auto& k : m_warnKeys)
        if (k == key) return;
    if (m_warnings.size() >= 100) return;
    m_warnKeys.push_back(key);
    m_warnings.push_back(std::move(d));
}

void Machine::exec(const StmtNode* s) {
    if (!s) return;
    DepthGuard g(*this, s->span);
    Span saved = m_stmtSpan;
    if (s->span.valid()) m_stmtSpan = s->span;
    switch (s->kind) {
        case StmtKind::Seq:
            for (auto& c : static_cast<const SeqNode*>(s)->stmts) exec(c.get());
            break;
        case StmtKind::For: {
            auto* n = static_cast<const ForNode*>(s);
            if (!n->var) fail(s->span, "malformed IR: loop without a variable");
            int64_t mn = evalI(n->min.get()), ext = evalI(n->extent.get());
            size_t pos = bind(n->var.get(), mn);
            const bool parallel = n->forKind == ForKind::Parallel;
            m_parallelDepth += parallel;
            int64_t it = 0;
            LoopScope loop(*this, s->span, ext, &it);
            for (; it < ext; ++it) {
                int64_t value = static_cast<int64_t>(uint64_t(mn) + uint64_t(it));  // no UB
                m_bindings[pos].i = value;
                m_bindings[pos].f = static_cast<double>(value);
                loop.tick(s->span);
                exec(n->body.get());
            }
            m_parallelDepth -= parallel;
            unbind(pos);
            break;
        }
        case StmtKind::If: {
            auto* n = static_cast<const IfNode*>(s);
            if (evalCond(n->cond.get()))
                exec(n->then.get());
            else
                exec(n->otherwise.get());
            break;
        }
        case StmtKind::Store:
            execStore(static_cast<const StoreNode*>(s));
            break;
        case StmtKind::Alloc:
            execAlloc(static_cast<const AllocNode*>(s));
            break;
        case StmtKind::Kernel:
            execKernel(static_cast<const KernelNode*>(s));
            break;
        case StmtKind::TileOp:
            execTileOp(static_cast<const TileOpNode*>(s));
            if (!m_sharedViews.empty()) syncSharedViewsAfter(s);
            break;
        case StmtKind::Eval:
            execEval(static_cast<const EvalNode*>(s));
            if (!m_sharedViews.empty()) syncSharedViewsAfter(s);
            break;
    }
    m_stmtSpan = saved;
}

void Machine::execStore(const StoreNode* s) {
    BufferState& b = lookup(s->buffer.get(), s->span);
    int64_t off = elementOffset(b, s->indices, s->span, "store");
    double v = evalValue(s->value.get());
    b.data[off] = roundValue(b.dtype, v);
    if (!m_sharedViews.empty()) sharedViewStored(b, off);
}

void Machine::execAlloc(const AllocNode* a) {
    const BufferNode* b = a->buffer.get();
    if (!b) fail(a->span, "malformed IR: allocation without a buffer");
    if (const std::string* baseName = m_tileFunc ? fragmentViewBase(*m_tileFunc, *b) : nullptr) {
        // T.reshape / T.view of a fragment: the base fragment's elements, row-major through the
        // view's own shape (ir/FragmentViews.h).
        BufferState* base = nullptr;
        for (auto& s : m_buffers)
            if (s->live && s->node && s->node->name == *baseName) base = s.get();
        if (!base) fail(a->span, "view '" + b->name + "' of fragment '" + *baseName + "' made before the fragment is allocated");
        BufferState& st = stateFor(b);
        int64_t need = setGeometry(*this, st, *b, a->span);
        if (need > base->size) fail(a->span, "view '" + b->name + "' is larger than fragment '" + *baseName + "'");
        st.own.clear();
        st.data = base->data;
        st.size = need;
        st.live = true;
        return;
    }
    if (std::string baseName = m_tileFunc ? sharedViewBase(m_tileFunc->attrs, b->name) : std::string(); !baseName.empty()) {
        allocSharedView(a, baseName);
        return;
    }
    BufferState& st = stateFor(b);
    if (b->scope == ir::Scope::Global && !(st.global && !st.pointer)) {  // T.make_tensor(P[g], ...)
        if (!a->init) fail(a->span, "malformed IR: tensor '" + b->name + "' declared without a pointer");
        bindPointerTensor(a, st, evalF(a->init.get()));
        return;
    }
    if (st.global)
        fail(a->span, "'" + b->name + "' is a kernel parameter and cannot be allocated again");
    int64_t need = setGeometry(*this, st, *b, a->span);
    // Float memory starts as NaN, as on the thread interpreter: a kernel that forgets T.clear
    // (or reads a tile before writing it) gives NaN here too, not a plausible zero-based result.
    double init = a->init               ? roundValue(b->dtype, evalValue(a->init.get()))
                  : isFloat(b->dtype)   ? std::nan("")
                                        : 0.0;
    st.own.assign(static_cast<size_t>(need), init);
    st.data = st.own.data();
    st.size = need;
    st.live = true;
}

void Machine::allocSharedView(const AllocNode* a, const std::string& baseName) {
    const BufferNode* b = a->buffer.get();
    BufferState* base = nullptr;
    for (auto& s : m_buffers)
        if (s->live && s->node && s->node->name == baseName) base = s.get();
    if (!base) fail(a->span, "view '" + b->name + "' of shared tile '" + baseName + "' made before the tile is allocated");
    BufferState& st = stateFor(b);
    int64_t need = setGeometry(*this, st, *b, a->span);
    const int64_t viewBits = need * ir::dtypeBits(b->dtype), baseBits = base->size * ir::dtypeBits(base->dtype);
    if (viewBits > baseBits)
        fail(a->span,
             "view '" + b->name + "' (" + std::to_string((viewBits + 7) / 8) + " bytes) is larger than shared tile '" +
                 baseName + "' (" + std::to_string((baseBits + 7) / 8) + " bytes)",
             "a T.view / T.reshape of a shared tile must fit in the tile's bytes");
    std::erase_if(m_sharedViews, [&](const SharedViewPair& p) { return p.view == &st; });
    if (b->dtype == base->dtype) {  // the same elements: one storage
        st.own.clear();
        st.data = base->data;
        st.size = need;
        st.live = true;
        return;
    }
    st.own.assign(static_cast<size_t>(need), isFloat(b->dtype) ? std::nan("") : 0.0);
    st.data = st.own.data();
    st.size = need;
    st.live = true;
    copyViewBits(*base, 0, 0, base->size - 1, st, 0);  // what the tile's bytes hold now
    // And back, so both names hold exactly those bits: a float4_e2m1fn tile has no NaN, so its
    // NaN poison is not the value of its bytes; left so, a later write of the very value the
    // view already shows would go unnoticed by syncSharedViews and the tile would stay NaN.
    copyViewBits(st, 0, 0, st.size - 1, *base, 0);
    SharedViewPair p{&st, base, {}, {}};
    p.viewSnap.assign(st.data, st.data + st.size);
    p.baseSnap.assign(base->data, base->data + base->size);
    m_sharedViews.push_back(std::move(p));
}

void Machine::bindPointerTensor(const AllocNode* a, BufferState& st, double ptr) {
    const BufferNode& b = *a->buffer;
    std::string table;
    if (auto* l = as<LoadNode>(a->init)) table = " read from '" + l->buffer->name + "'";
    const std::string what = "T.make_tensor '" + b.name + "': the pointer" + table;
    if (ptr == 0)
        fail(a->span, what + " is null", "every entry of the pointer table must point to a tensor");
    auto target = decodePointer(ptr);
    const int64_t n = m_memory ? static_cast<int64_t>(m_memory->size()) : 0;
    if (!target || target->index < 0 || target->index >= n)
        fail(a->span, what + " (" + std::to_string(static_cast<int64_t>(ptr)) + ") does not point into any buffer of this run" +
                          (n ? " (" + std::to_string(n) + " pointee buffers)" : " (the run has no pointee buffers)"),
             "pointer tables are filled by the runner (tilec run) with pointers to per-entry buffers; a table "
             "the kernel computes or an uninitialised one cannot be interpreted");
    HostTensor& mem = (*m_memory)[static_cast<size_t>(target->index)];
    if (mem.dtype != b.dtype)
        fail(a->span, what + " points to buffer #" + std::to_string(target->index) + " of dtype " +
                          std::string(dtypeName(mem.dtype)) + ", but the tensor is made with dtype " +
                          std::string(dtypeName(b.dtype)),
             "the interpreter holds values, not bytes: make the tensor with the pointee's dtype");
    if (!mem.hasData()) mem.data.assign(static_cast<size_t>(mem.numel()), 0.0);
    st.node = &b;
    int64_t need = setGeometry(*this, st, b, a->span);
    const int64_t avail = mem.numel() - target->offset;
    if (target->offset > mem.numel() || need > avail)
        fail(a->span, what + " points to buffer #" + std::to_string(target->index) + " of shape " + formatShape(mem.shape) +
                          " (" + std::to_string(mem.numel()) + " elements" +
                          (target->offset ? ", from element " + std::to_string(target->offset) : std::string()) +
                          "), but the tensor of shape " + formatShape(st.shape) + " spans " + std::to_string(need) + " elements",
             "the tensor T.make_tensor declares must lie inside the memory the pointer points to");
    st.own.clear();
    st.data = mem.data.data() + target->offset;
    st.size = need;
    st.global = st.pointer = st.live = true;
}

std::vector<int64_t> Machine::kernelGrid(const KernelNode* k, int64_t& total) {
    if (m_inKernel) fail(k->span, "T.Kernel nested inside another T.Kernel");
    std::vector<int64_t> grid;
    for (auto& g : k->grid) {
        int64_t v = evalI(g.get());
        if (v < 0) fail(g ? g->span : k->span, "negative grid extent " + std::to_string(v));
        grid.push_back(v);
    }
    if (k->blockVars.size() > grid.size())
        fail(k->span, "T.Kernel binds " + std::to_string(k->blockVars.size()) +
                          " block indices for a " + std::to_string(grid.size()) + "-D grid");
    total = 1;
    for (int64_t g : grid)
        total = (g && total > (int64_t(1) << 62) / g) ? (int64_t(1) << 62) : total * g;
    return grid;
}

void Machine::execKernel(const KernelNode* k) {
    int64_t total = 0;
    std::vector<int64_t> grid = kernelGrid(k, total);
    size_t mark = m_bindings.size();
    for (auto& v : k->blockVars) {
        if (!v) fail(k->span, "malformed IR: missing block variable");
        bind(v.get(), 0);
    }
    m_inKernel = true;
    m_blockThreads = std::max<int64_t>(1, k->threadCount());
    m_blockIdx.assign(grid.size(), 0);
    if (needsGridRun(k, total)) {
        runGrid(k, mark, grid, total);
    } else {
        for (int64_t lin = 0; lin < total; ++lin) {
            if (m_opts.maxBlocks >= 0 && m_blocksRun >= m_opts.maxBlocks) break;
            checkBlockLimits(k->span, lin, total);
            execBlock(k, mark, lin, grid);
            ++m_blocksRun;
            if (m_opts.onBlock) m_opts.onBlock(lin + 1, total);
        }
    }
    m_inKernel = false;
    unbind(mark);
}

bool Machine::execBlock(const KernelNode* k, size_t mark, int64_t lin, const std::vector<int64_t>& grid) {
    int64_t rest = lin;
    m_blockIdx.assign(grid.size(), 0);
    for (size_t d = 0; d < grid.size(); ++d) {
        m_blockIdx[d] = rest % grid[d];
        rest /= grid[d];
        if (d < k->blockVars.size())
            m_bindings[mark + d].i = m_blockIdx[d], m_bindings[mark + d].f = double(m_blockIdx[d]);
    }
    for (auto& b : m_buffers)  // per-block storage: every non-parameter buffer is re-allocated
        if (!b->global || b->pointer || b->viewOwnsData) b->live = false;  // (a view of another dtype: at its first access)
    retireSharedViews();
    exec(k->body.get());
    return true;
}

void Machine::execEval(const EvalNode* e) {
    auto* c = dynamic_cast<const CallNode*>(e->call.get());
    if (!c) {
        if (e->call) evalValue(e->call.get());
        return;
    }
    std::string_view op = c->op;
    if (op.substr(0, 2) == "T.") op.remove_prefix(2);
    if (op == "print") {  // print(value, msg, index...): ElaborateMath.cpp
        log("block " + formatIndex(m_blockIdx) + ":" +
            printText(*c, [&](const ExprNode* i) { return evalI(i); }, [&](const ExprNode* x) { return evalF(x); }));
        return;
    }
    if (c->op == intrin::kSyncGrid) return gridBarrier(c->span);
    if (op == intrin::kDeviceAssert) {
        if (!evalI(c->args.at(0).get())) {
            auto* m = c->args.size() > 1 ? dynamic_cast<const StrImmNode*>(c->args[1].get()) : nullptr;
            fail(c->span, "T.device_assert failed" + (m && !m->value.empty() ? ": " + m->value : std::string()));
        }
        return;
    }
    if (isNoOpCall(op)) return;
    evalValue(c);
}

}  // namespace ts::interp::detail

namespace ts::interp {

namespace {
/// True when `f` reads a thread index (T.get_thread_binding, T.thread_binding): thread-level
/// code, whose values differ between the threads of a block.
bool readsThreadIndex(const ir::PrimFunc& f) {
    // Hand-written mbarriers (T.alloc_barrier, ElaborateBarriers.cpp): each executing thread
    // arrives. (The compiler's own TMA pipelines put mbarriers into tile-level IR too; there one
    // executor runs the block and they order nothing: Eval.cpp.)
    if (ir::attrInt(f->attrs, "explicit_mbarriers", 0)) return true;
    bool found = false;
    ir::walk(
        f->body, [](const ir::Stmt&) {},
        [&](const ir::Expr& e) {
            if (auto* v = ir::as<ir::VarNode>(e); v && v->tag == ir::VarTag::ThreadIdx) found = true;

        });
    return found;
}
}  // namespace

InterpResult run(const ir::PrimFunc& f, std::vector<HostTensor>& args, const InterpOptions& opts) {
    try {
        // One logical executor per block cannot give each thread its own index: such a kernel
        // runs thread by thread, every thread executing the whole body in lockstep (TileLang's
        // SIMT semantics of code outside tile ops; T.Parallel loops run whole in each thread,
        // which stores the same values), on the thread-level machine with its barrier, race
        // and divergence checks. Tile ops are reported there (ThreadMachine::m_tileLevel).
        if (f && readsThreadIndex(f)) {
            detail::ThreadMachine tm(opts);
            tm.m_tileLevel = true;
            return tm.run(f, args);
        }
        detail::Machine m(opts);
        return m.run(f, args);
    } catch (...) {  // Machine::run catches everything; this guards its own allocations
        InterpResult r;
        r.error = Diagnostic{Severity::Error, {}, "internal interpreter error", {}, "interp"};
        return r;
    }
}

InterpResult runWithMemory(const ir::PrimFunc& f, std::vector<HostTensor>& args, std::vector<HostTensor>& memory,
                           const InterpOptions& opts, bool lowered) {
    try {  // as run() / runLowered(), with the pointees as the machine's memory
        if (lowered || (f && readsThreadIndex(f))) {
            detail::ThreadMachine tm(opts);
            tm.m_tileLevel = !lowered;
            tm.m_memory = &memory;
            return tm.run(f, args);
        }
        detail::Machine m(opts);
        m.m_memory = &memory;
        return m.run(f, args);
    } catch (...) {
        InterpResult r;
        r.error = Diagnostic{Severity::Error, {}, "internal interpreter error", {}, "interp"};
        return r;
    }
}

}  // namespace ts::interp
