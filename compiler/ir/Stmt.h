// Tile IR statements and the PrimFunc. Tile-level programs (after elaboration) use TileOp
// statements (copy, gemm, fill, reduce, ...) and Parallel/Pipelined loops; lowering replaces them
// with thread-level loops, element stores and intrinsic calls (compiler/ir/Intrinsics.h).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir/Buffer.h"

namespace ts::ir {

struct LayoutNode;  // compiler/ir/Layout.h
using Layout = std::shared_ptr<const LayoutNode>;

enum class StmtKind : uint8_t { Seq, For, If, Store, Alloc, Kernel, TileOp, Eval };

struct StmtNode {
    StmtKind kind;
    Span span;
    StmtNode(StmtKind k, Span s) : kind(k), span(s) {}
    virtual ~StmtNode() = default;
};
using Stmt = std::shared_ptr<const StmtNode>;

struct SeqNode final : StmtNode {
    std::vector<Stmt> stmts;
    SeqNode(std::vector<Stmt> s, Span sp) : StmtNode(StmtKind::Seq, sp), stmts(std::move(s)) {}
};

enum class ForKind : uint8_t {
    Serial,      ///< T.serial / range
    Unrolled,    ///< T.unroll (codegen: #pragma unroll)
    Vectorized,  ///< T.vectorized
    Parallel,    ///< T.Parallel: iterations distributed over threads by a layout
    Pipelined,   ///< T.Pipelined: software-pipelined (attrs num_stages, order, stage)
};
const char* forKindName(ForKind k);

/// for var in [min, min+extent). Pipelined loops carry "num_stages" (and optional "order",
/// "stage") in attrs; Parallel loops may carry "layout" (name of the buffer whose layout drives it).
struct ForNode final : StmtNode {
    Var var;
    Expr min, extent;
    ForKind forKind;
    Attrs attrs;
    Stmt body;
    ForNode(Var v, Expr mn, Expr ext, ForKind k, Attrs a, Stmt b, Span sp)
        : StmtNode(StmtKind::For, sp), var(std::move(v)), min(std::move(mn)), extent(std::move(ext)),
          forKind(k), attrs(std::move(a)), body(std::move(b)) {}
};

/// The element a bounds guard protects: set by lowering on the If it wraps around a global
/// element store the user wrote inside T.Parallel (LowerParallel.cpp GuardGlobal), null buffer on
/// every other If. On the GPU the guard skips the store when the condition is false, but the
/// program writes outside the tensor, which the tile-level interpreter reports; the thread-level
/// interpreter reports it too when the condition is false (T.copy / T.fill tail guards, which clip
/// a tile at the tensor's edge on purpose, carry none). The logical indices are kept here because
/// lower-to-threads flattens the store's own (a row overflow of a 2-D tensor is a valid flat
/// offset); mutators rewrite them with the condition. Codegen ignores it.
struct StoreCheck {
    Buffer buffer;
    std::vector<Expr> indices;
    explicit operator bool() const { return buffer != nullptr; }
};

struct IfNode final : StmtNode {
    Expr cond;
    Stmt then, otherwise;  ///< otherwise may be null
    StoreCheck check;      ///< see StoreCheck; empty unless lowering guarded a T.Parallel store
    IfNode(Expr c, Stmt t, Stmt e, Span sp, StoreCheck chk = {})
        : StmtNode(StmtKind::If, sp), cond(std::move(c)), then(std::move(t)), otherwise(std::move(e)),
          check(std::move(chk)) {}
};

/// buffer[indices...] = value (value already of buffer dtype after elaboration inserts casts).
struct StoreNode final : StmtNode {
    Buffer buffer;
    std::vector<Expr> indices;
    Expr value;
    StoreNode(Buffer b, std::vector<Expr> idx, Expr v, Span sp)
        : StmtNode(StmtKind::Store, sp), buffer(std::move(b)), indices(std::move(idx)), value(std::move(v)) {}
};

/// Declares a buffer for the rest of the enclosing Seq (alloc_shared/fragment/local/var).
/// `init` (optional) is the initial value of an alloc_var scalar.
struct AllocNode final : StmtNode {
    Buffer buffer;
    Expr init;
    AllocNode(Buffer b, Expr i, Span sp) : StmtNode(StmtKind::Alloc, sp), buffer(std::move(b)), init(std::move(i)) {}
};

/// `with T.Kernel(grid..., threads=...) as (bx, by, bz)`. blockVars has one BlockIdx var per grid
/// dim; threadVars one ThreadIdx var per block dim (made by elaboration, used after lowering).
struct KernelNode final : StmtNode {
    std::vector<Expr> grid;
    std::vector<int64_t> threads;  ///< block extents (x, y, z), product = threads per block
    std::vector<Var> blockVars, threadVars;
    Stmt body;
    KernelNode(std::vector<Expr> g, std::vector<int64_t> t, std::vector<Var> bv, std::vector<Var> tv, Stmt b, Span sp)
        : StmtNode(StmtKind::Kernel, sp), grid(std::move(g)), threads(std::move(t)), blockVars(std::move(bv)),
          threadVars(std::move(tv)), body(std::move(b)) {}
    int64_t threadCount() const;
};

enum class TileOpKind : uint8_t {
    Copy,       ///< args: src Region, dst Region
    Gemm,       ///< args: A Region, B Region, C Region; attrs transpose_A/B, policy, clear_accum, k_pack
    Fill,       ///< args: dst Region, value Expr   (T.clear = Fill with 0, attr "clear")
    Reduce,     ///< args: src Region, dst Region; attrs "op" (sum|max|min|absmax|abssum), dim, clear
    Cumsum,     ///< args: src Region, dst Region; attrs dim, reverse
    Atomic,     ///< args: dst Region, value (Region or Expr); attrs "op" (add|max|min)
    // Kinds from kFirstExtensionTileOp on are handed out by ops::registerOp (compiler/ops/).
};
/// First kind number ops::registerOp gives an op registered at run time.
inline constexpr uint8_t kFirstExtensionTileOp = 6;
/// The op's IR name ("copy", "gemm", ...; an extension op's registered name; "?" if unknown).
/// What each kind means (signature, lowering, interpretation) is its ops::TileOp.
const char* tileOpName(TileOpKind k);
/// Names kind `k` (ops::registerOp does this; `name` must outlive every compile).
void setTileOpName(TileOpKind k, const char* name);

using TileArg = std::variant<Region, Expr>;

struct TileOpNode final : StmtNode {
    TileOpKind op;
    std::vector<TileArg> args;
    Attrs attrs;
    TileOpNode(TileOpKind o, std::vector<TileArg> a, Attrs at, Span sp)
        : StmtNode(StmtKind::TileOp, sp), op(o), args(std::move(a)), attrs(std::move(at)) {}
    const Region& region(size_t i) const { return std::get<Region>(args.at(i)); }
    bool isRegion(size_t i) const { return i < args.size() && std::holds_alternative<Region>(args[i]); }
};

/// An expression evaluated for its effect: T.sync_threads(), T.print(...), lowered intrinsics.
struct EvalNode final : StmtNode {
    Expr call;
    EvalNode(Expr c, Span sp) : StmtNode(StmtKind::Eval, sp), call(std::move(c)) {}
};

template <class T>
const T* as(const Stmt& s) {
    return s ? dynamic_cast<const T*>(s.get()) : nullptr;
}

/// A kernel function: tensor parameters + body (a Seq holding one Kernel statement), plus facts
/// that passes attach (layouts by buffer name, shared-memory plan, target).
struct PrimFuncNode {
    std::string name;
    std::vector<Buffer> params;   ///< Global-scope tensors in call order
    std::vector<int> outputs;     ///< indices into params that the kernel produces (out_idx)
    /// Scalar kernel arguments, passed after the tensors in this order: symbolic sizes
    /// (T.dynamic / T.symbolic; bound at launch from a tensor dimension that is exactly the var,
    /// see scalarSources) and scalar parameters (`n: T.int32`, `scale: T.float32`). They are in
    /// scope in the whole body. Names are unique among the kernel's parameters.
    std::vector<Var> scalars;
    Stmt body;
    std::map<std::string, Layout> layouts;  ///< inferred/annotated layouts (fragments, shared swizzles)
    Attrs attrs;                  ///< e.g. "target", "smem_bytes", "kernel_name"
    Span span;
};
using PrimFunc = std::shared_ptr<const PrimFuncNode>;

}  // namespace ts::ir
