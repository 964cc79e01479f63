// Constructors for IR nodes with constant folding of integer arithmetic, so index expressions
// built by elaboration and lowering stay small and readable in the pass viewer.
#pragma once
#include <optional>

#include "compiler/ir/Layout.h"
#include "compiler/ir/Stmt.h"

namespace ts::ir {

Expr intImm(int64_t v, Span s = {}, DType t = DType::Int32);
Expr floatImm(double v, DType t = DType::Float32, Span s = {});
Expr boolImm(bool v, Span s = {});
Var makeVar(std::string name, DType t = DType::Int32, Span s = {}, VarTag tag = VarTag::Plain,
            int axis = 0);

/// Integer value of `e` if it is a constant.
std::optional<int64_t> constInt(const Expr& e);

/// Whether a tl.mbarrier_arrive call arrives once per warp (its per_warp argument, Intrinsics.h).
bool perWarpArrive(const CallNode* c);

/// Binary op with folding (0+x, 1*x, const op const, x//1, x%1, min/max of consts). The result
/// dtype follows C-like promotion (float wins, wider wins); comparisons and And/Or give Bool.
Expr binary(BinOp op, Expr a, Expr b, Span s = {});
/// Integer value of `x op y` with Python semantics for // and % (floor), the comparisons and
/// bit ops as 0/1 or bit patterns; nullopt for division by zero and non-integer ops.
std::optional<int64_t> foldInt(BinOp op, int64_t x, int64_t y);
inline Expr add(Expr a, Expr b, Span s = {}) {
    return binary(BinOp::Add, std::move(a), std::move(b), s);
}
inline Expr sub(Expr a, Expr b, Span s = {}) {
    return binary(BinOp::Sub, std::move(a), std::move(b), s);
}
inline Expr mul(Expr a, Expr b, Span s = {}) {
    return binary(BinOp::Mul, std::move(a), std::move(b), s);
}
inline Expr floordiv(Expr a, Expr b, Span s = {}) {
    return binary(BinOp::FloorDiv, std::move(a), std::move(b), s);
}
inline Expr floormod(Expr a, Expr b, Span s = {}) {
    return binary(BinOp::FloorMod, std::move(a), std::move(b), s);
}
inline Expr lt(Expr a, Expr b, Span s = {}) {
    return binary(BinOp::Lt, std::move(a), std::move(b), s);
}
Expr logicalAnd(Expr a, Expr b, Span s = {});  ///< null operands are "true"
Expr unary(UnOp op, Expr a, Span s = {});
Expr select(Expr c, Expr t, Expr f, Span s = {});
Expr call(std::string op, std::vector<Expr> args, DType t, Span s = {});
Expr load(Buffer b, std::vector<Expr> idx, Span s = {});
Expr cast(DType t, Expr v, Span s = {});  ///< no-op when v already has dtype t
DType promote(DType a, DType b);

Stmt seq(std::vector<Stmt> stmts, Span s = {});  ///< flattens nested Seqs; one stmt -> itself
/// Appends the statements of `s` to `out` through any depth of nested Seqs (null ones skipped).
void flattenSeq(const Stmt& s, std::vector<Stmt>& out);
Stmt forLoop(Var v, Expr min, Expr extent, ForKind k, Stmt body, Attrs a = {}, Span s = {});
Stmt ifThen(Expr c, Stmt t, Stmt e = nullptr, Span s = {});
/// `n` rebuilt with a new condition and branches, keeping its span and StoreCheck (passes that
/// rewrite branches must not drop the check: the thread-level interpreter reports with it).
Stmt ifLike(const IfNode& n, Expr c, Stmt t, Stmt e, StoreCheck chk);
Stmt ifLike(const IfNode& n, Stmt t, Stmt e);
Stmt store(Buffer b, std::vector<Expr> idx, Expr v, Span s = {});
Stmt evaluate(Expr c, Span s = {});

/// Product of the buffer's extents if all are constants.
std::optional<int64_t> constNumel(const BufferNode& b);
/// Constant extents of a buffer or region; nullopt if any is symbolic.
std::optional<std::vector<int64_t>> constShape(const BufferNode& b);
std::optional<std::vector<int64_t>> constExtents(const Region& r);
/// The region is the whole of its buffer: every range [0, shape[d]) with constant bounds.
bool wholeBuffer(const Region& r);

}  // namespace ts::ir
