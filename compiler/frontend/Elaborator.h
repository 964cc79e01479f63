// Internal to the front end: the Elaborator, a meta-evaluator (Interp) that also builds Tile
// IR. It overrides the statement hooks whose meaning depends on run-time values (tile loops,
// `with T.Kernel`, dynamic `if`, stores through alloc_var names), installs the T.* kernel
// vocabulary (ElaborateOps.cpp), and offers the conversions the ExtValues and builtins share:
// meta value -> IR constant, access -> load/region, statement emission into nested frames.
// Use elaborate()/runFrontend() (Elaborate.h) from outside.
#pragma once
#include <functional>
#include <set>
#include <unordered_map>
#include <utility>

#include "compiler/frontend/ElabValues.h"
#include "compiler/frontend/Elaborate.h"
#include "compiler/frontend/MetaEval.h"

namespace ts::fe::elab {

/// `T.ws(i, ...)`: a warp-role scope; `with` it runs its body under `cond` (a condition on the
/// thread index; ElaborateBarriers.cpp).
class WarpRoleScope final : public ExtValue {
public:
    explicit WarpRoleScope(ir::Expr c) : cond(std::move(c)) {}
    std::string typeName() const override { return "T.ws"; }
    ir::Expr cond;
};

/// `T.attr(T.comm_reducer(fn, [identity]), "reduce_scope", handle)`: TVM's reduction scope
/// around T.tvm_thread_allreduce; `with` it makes `reducer` the combiner of the allreduces in
/// its body (ElaborateAllreduce.cpp).
class ReduceScope final : public ExtValue {
public:
    explicit ReduceScope(Value fn) : reducer(std::move(fn)) {}
    std::string typeName() const override { return "T.attr"; }
    Value reducer;
};

class Elaborator : public Interp {
public:
    /// Every @T.macro expansion so far (MacroCallSite.cpp).
    const std::vector<MacroCall>& macroCalls() const { return m_macroCalls; }
    /// Combiners of the enclosing `with T.attr(T.comm_reducer(...), "reduce_scope", ...)`
    /// scopes, innermost last.
    std::vector<Value> reduceScopes;
    Elaborator(DiagnosticEngine& diags, const Module& mod);
    /// Elaborates `entry`; throws CompileError on the first error.
    ir::PrimFunc run(const KernelEntry& entry, const ParamBindings& params);

    // ---- conversions shared by values and builtins (ElabValues.cpp) ----
    /// Wraps an IR expression as a value stamped with the current store epoch.
    Value wrap(ir::Expr e);
    /// A run-time value or a constant as an IR expression. Meta numbers become constants (ints
    /// Int32 unless they need 64 bits, floats `floatType`); `what` names the operand in errors.
    ir::Expr toExpr(const Value& v, Span s, const std::string& what,
                    ir::DType floatType = ir::DType::Float32);
    /// Like toExpr, but a meta number takes the dtype `like` (TVM's rule for Python constants).
    ir::Expr toExprLike(const Value& v, ir::DType like, Span s, const std::string& what);
    /// `v` converted to `dtype` for a store into a buffer of that dtype (a store, an atomic's
    /// value). An integer literal `dtype` cannot hold wraps as C converts it (3000000000 into int32
    /// is -1294967296), with a warning at `s` saying so: TVM refuses such a literal, CUDA wraps it.
    ir::Expr toStoredValue(const Value& v, ir::DType dtype, Span s, const std::string& what);
    /// Both operands of a binary construct as IR of one dtype: a meta constant takes the other
    /// operand's dtype, then both are cast to the promoted dtype (float wins, wider wins).
    std::pair<ir::Expr, ir::Expr> operands(const Value& a, const Value& b, Span s);
    /// A condition as a Bool expression (`x != 0` for numbers).
    ir::Expr condition(const Value& v, Span s);
    /// True if `v` is a run-time value (or an element access / alloc_var used as one).
    bool isRuntime(const Value& v) const;
    /// True when `e` reads only launch values (T.dynamic sizes, scalar parameters) and constants:
    /// one value for the whole launch (T.assume's check, as TileLang's host-side one).
    bool isLaunchInvariant(const ir::Expr& e) const;
    /// The source text of a one-line span (empty for a span over several lines).
    std::string sourceText(Span s) const;
    /// `a op b` with at least one run-time operand.
    Value arith(ast::BinOpKind op, const Value& a, const Value& b, Span s);
    Value compare(ast::CmpOpKind op, const Value& a, const Value& b, Span s);
    Value unary(ast::UnaryOpKind op, const Value& a, Span s);
    /// `e` if it reads no buffer written after `epoch`. Otherwise, when `owner` (the value bound
    /// by `name = ...`) was let-bound in a statement frame that is still open, TileLang's let
    /// semantics: its value is kept in a per-thread variable stored at the binding, and a load
    /// of that variable is returned (also for every later use). Else an error: IR has no let,
    /// so reusing the expression would read the new contents.
    ir::Expr checkFresh(const ir::Expr& e, uint64_t epoch, Span s, const ExtValue* owner = nullptr);
    ir::Expr loadOf(const BufferAccess& a, Span s);
    /// Emits `buffer[indices] = v` (cast to the buffer's dtype).
    void storeTo(const ir::Buffer& b, std::vector<ir::Expr> indices, const Value& v, Span s);
    /// The region a tile-op operand denotes. `partner` (the other operand's extents) turns a
    /// start-index access `A[i, j]` into a region of that shape (leading dimensions extent 1).
    ir::Region regionOf(const Value& v, Span s, const std::string& op, const std::string& role,
                        const std::vector<ir::Expr>* partner = nullptr);
    /// Extents of a buffer or a sliced access, if it has a shape of its own (else nullopt).
    std::optional<std::vector<ir::Expr>> ownExtents(const Value& v);
    /// hi - lo, simplified when the difference of two linear forms is a constant.
    ir::Expr extentBetween(const ir::Expr& lo, const ir::Expr& hi);

    // ---- emission ----
    void emit(ir::Stmt s);
    /// Runs `fn` in a fresh statement frame and returns what it emitted (null if nothing).
    ir::Stmt collect(const std::function<void()>& fn);
    void noteWrite(const ir::Buffer& b);
    uint64_t epoch() const { return m_epoch; }
    /// Inside an `if` or a loop whose condition/bounds read the thread index: not every thread
    /// of the block runs what is emitted here (a block barrier would not be reached by all).
    bool threadDivergent() const { return m_threadDivergent > 0; }

    // ---- helpers for builtins (ElaborateOps.cpp) ----
    ir::DType dtypeArg(const Value& v, Span s, const std::string& what);
    std::vector<ir::Expr> shapeArg(const Value& v, Span s, const std::string& what);
    ir::Expr extentArg(const Value& v, Span s, const std::string& what);
    ir::Buffer allocate(ir::Scope scope, std::vector<ir::Expr> shape, ir::DType t, Span s,
                        const std::string& fn, ir::Expr init = nullptr);
    std::string uniqueName(const std::string& base);
    void requireKernel(Span s, const std::string& fn) const;
    bool insideKernel() const { return m_insideKernel; }
    bool eagerMode() const { return m_eager; }
    const ParamBindings& bindings() const { return *m_bindings; }
    /// A view of the kernel tensor `base`'s memory with `shape` (row-major) and dtype `t` (must
    /// be base's): T.Tensor(shape, dtype, A.data), T.reshape, T.view. `fn` names the construct
    /// in diagnostics. Returns the view as a buffer value (recorded in the attrs, ir/Views.h).
    Value tensorView(const ir::Buffer& base, const Value& shape, Span shapeSpan, ir::DType t, Span s,
                     const std::string& fn);
    /// Adds a Global tensor (prim_func parameter, eager annotation or T.empty output).
    ir::Buffer addParam(const std::string& name, const TensorType& t, Span s, bool output);
    /// Records a T.annotate_layout; a second annotation of the same buffer is an error naming
    /// the first (silently keeping the last one hid the user's mistake).
    void setLayout(const std::string& buffer, ir::Layout l, Span at) {
        if (auto it = m_layoutSpans.find(buffer); it != m_layoutSpans.end())
            throw CompileError(at,
                               "T.annotate_layout: '" + buffer +
                                   "' already has a layout (annotated at line " +
                                   std::to_string(it->second.line) + ")",
                               "annotate each buffer once");
        m_layoutSpans[buffer] = at;
        m_layouts[buffer] = std::move(l);
    }
    /// Threads of the enclosing T.Kernel (0 outside one): user fragments are checked against it.
    int64_t kernelThreads() const { return m_insideKernel ? m_kernelThreads : 0; }
    /// The enclosing T.Kernel's thread index variables (threadIdx.x, .y, .z as far as its
    /// `threads` go), block index variables and block extents; empty outside a kernel.
    const std::vector<ir::Var>& kernelThreadVars() const { return m_kernelThreadVars; }
    const std::vector<ir::Var>& kernelBlockVars() const { return m_kernelBlockVars; }
    const std::vector<int64_t>& kernelBlockExtents() const { return m_kernelBlockExtents; }
    ir::Attrs& funcAttrs() { return m_funcAttrs; }
    /// The name the statement being executed assigns to (`A_s = T.alloc_shared(...)`), if any;
    /// taking it clears it so that nested calls do not reuse it.
    std::string takePendingName() { return std::exchange(m_pendingName, std::string()); }
    /// A symbolic size (T.dynamic / T.symbolic): a variable that becomes a scalar kernel
    /// argument if the kernel uses it (bound from a tensor dimension at launch).
    ir::Var symbol(const std::string& name, ir::DType t, Span s);
    /// T.serial/T.unroll/T.vectorized/range arguments (start[, stop[, step]]) as a LoopSpec.
    Value loopSpec(CallArgs& a, const std::string& name, ir::ForKind kind);

protected:
    Flow execIf(const ast::If& s, const EnvPtr& env) override;
    Flow execFor(const ast::For& s, const EnvPtr& env) override;
    Flow execWhile(const ast::While& s, const EnvPtr& env) override;
    Flow execWith(const ast::With& s, const EnvPtr& env) override;
    Flow execAssign(const ast::Assign& s, const EnvPtr& env) override;
    Flow execAugAssign(const ast::AugAssign& s, const EnvPtr& env) override;
    Flow execAnnAssign(const ast::AnnAssign& s, const EnvPtr& env) override;
    Value dynamicBoolOp(ast::BoolOpKind op, const Value& a, const Value& b, Span s) override;
    Value dynamicIfExp(const Value& cond, const Value& a, const Value& b, Span s) override;
    Value callDType(ir::DType t, CallArgs& args) override;
    Value callMacro(const FunctionObj& f, CallArgs& args) override;
    Value callUserFunction(const FunctionObj& f, CallArgs& args) override;

private:
    void installVocabulary();  // ElaborateOps.cpp
    void installMath();        // ElaborateMath.cpp
    void installLayouts();     // ElaborateLayouts.cpp
    void installThreads();     // ElaborateThreads.cpp
    void installViews();       // ElaborateViews.cpp
    void installBarriers();    // ElaborateBarriers.cpp
    void installPtx();         // ElaboratePtx.cpp (T.access_ptr, T.ptx_cp_async, ...)
    void installRandom();      // ElaborateRandom.cpp
    /// Registers `T.<name>` in tilelang.language as a builtin calling `fn` with this elaborator
    /// (the callee name in diagnostics is "T.<name>"). ElaborateOps.cpp.
    void defineT(const std::string& name, std::function<Value(Elaborator&, CallArgs&)> fn);
    ir::PrimFunc elaboratePrimFunc(const FunctionObj& f, const std::string& name);
    ir::PrimFunc elaborateEager(const KernelEntry& entry);
    ir::PrimFunc finish(const std::string& name, ir::Stmt body, Span span);
    void buildLoop(const LoopSpec& spec, const ast::For& s, const EnvPtr& env);
    /// The body of a T.Parallel loop cut at its top-level T.sync_grid calls (ParallelGridSplit.cpp):
    /// the parts in order, and in `barriers` the span of each cut. One part when there is none.
    /// A grid barrier nested deeper in the body, or a T.alloc_var before a cut that a later part
    /// uses, is an error at the barrier.
    static std::vector<ir::Stmt> splitAtGridBarriers(const ir::Stmt& body, std::vector<Span>& barriers);
    void buildKernel(const KernelSpec& k, const ast::WithItem& item, const ast::With& s,
                     const EnvPtr& env);
    bool isKernelRange(const ast::Expr& iter, const EnvPtr& env);
    Flow runBody(const ast::Block& b, const EnvPtr& env, const char* construct, size_t from = 0);
    /// `break` / `continue` at run time in a T.serial / T.unroll / range loop of kernel code: a
    /// per-thread skip flag (one-element int32 local, 0 run, 1 continue, 2 break) that the exit
    /// sets, that guards every statement after it up to the loop body's end, and that the loop
    /// clears of a continue at each iteration (Elaborate.cpp, runBody and buildLoop).
    struct LoopExit {
        bool supported = false;  ///< a serial/unrolled kernel loop (not Parallel/Pipelined/meta)
        ir::Buffer flag;         ///< made on the first exit
        std::string loop;        ///< "T.Pipelined", ... for the message of an unsupported exit
    };
    std::vector<LoopExit> m_loopExits;
    template <class F>
    Flow unrolledLoop(F&& body);
    int m_threadDivergent = 0;  ///< see threadDivergent()
    uint64_t m_loopExitCount = 0;  ///< exits elaborated so far (a change: guard what follows)
    /// Elaborates a `break` (2) or `continue` (1) of the innermost kernel loop at `at`.
    void emitLoopExit(int code, Span at);
    ir::Expr loopExitClear(Span at);  ///< flag == 0

    const Module& m_mod;
    const KernelEntry* m_entry = nullptr;
    const ParamBindings* m_bindings = nullptr;
    ParamBindings m_resolvedBindings;  ///< run()'s bindings, names of ops/functions resolved
    EnvPtr m_globals;
    std::vector<std::vector<ir::Stmt>> m_frames;
    std::vector<uint64_t> m_frameIds;  ///< identity of each open frame (parallel to m_frames)
    uint64_t m_nextFrameId = 0;
    /// `name = <run-time value>` bindings in kernel code: the frame and position of the binding,
    /// and, once a later use found the value stale, the load that keeps the old value.
    struct LetSite {
        uint64_t frame;
        size_t pos;
        std::string name;
        ir::Expr kept;
        Value owner;  ///< holds the value alive: the map is keyed by its address
    };
    std::unordered_map<const ExtValue*, LetSite> m_letSites;
    ir::Expr keepOldValue(LetSite& site, const ir::Expr& value);
    /// Frame id of the T.Kernel body being elaborated (its top-level statements).
    uint64_t m_kernelFrame = 0;
    /// `name = <reads global memory>` at a kernel body's top level (`b_i = TokenIndices[bx, 0]`,
    /// `bos = Offsets[b_i]`): TileLang computes such a value once, into a register. Stored
    /// into a one-element local buffer here and bound to its load, instead of standing for its
    /// expression everywhere it is used (inlined into every element of a 128-way unrolled
    /// gather, each use repeating the loads and their bounds guards, NVRTC ran for minutes on
    /// the corpus' sparse_mla_fwd). Other values are returned unchanged.
    Value keepInRegister(const std::string& name, const Value& v, Span s);
    uint64_t m_epoch = 1;
    std::unordered_map<const ir::BufferNode*, uint64_t> m_lastWrite;
    bool m_kernelMode = false;    ///< executing prim_func / macro statements (range -> T.serial)
    std::vector<std::pair<std::string, Span>> m_macroStack;  ///< the macros being expanded: name, call
    std::vector<MacroCall> m_macroCalls;
    bool m_insideKernel = false;  ///< inside `with T.Kernel`
    bool m_sawKernel = false;
    int64_t m_kernelThreads = 0;
    std::vector<ir::Var> m_kernelThreadVars, m_kernelBlockVars;  ///< see kernelThreadVars()
    std::vector<int64_t> m_kernelBlockExtents;
    bool m_eager = false;
    std::string m_pendingName;
    std::set<std::string> m_names;
    std::vector<ir::Buffer> m_params;
    std::vector<ir::Var> m_symbols;       ///< T.dynamic / T.symbolic variables, in creation order
    std::vector<ir::Var> m_scalarParams;  ///< `n: T.int32` prim_func parameters, in order
    /// The prim_func signature as out_idx counts it (tensors and scalars interleaved): index
    /// into m_params, or -1 for a scalar parameter. Empty: the signature is m_params.
    std::vector<int> m_signature;
    std::vector<int> m_outputs;
    bool m_outputsFixed = false;
    std::map<std::string, ir::Layout> m_layouts;
    std::map<std::string, Span> m_layoutSpans;
    ir::Attrs m_funcAttrs;
};

/// `tl.address_of(bar[i])` for a barrier argument of `fn`: a T.alloc_barrier buffer (its first
/// barrier) or one element of it; a diagnostic at `s` otherwise (ElaborateBarriers.cpp).
ir::Expr barrierAddress(Elaborator& el, const Value& v, Span s, const std::string& fn);
/// `buf.access_ptr(...)` of buffer value `self` (TVM's Buffer.access_ptr; ElaboratePtx.cpp).
Value accessPtrMethod(const Value& self);

}  // namespace ts::fe::elab
