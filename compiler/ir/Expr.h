// Tile IR expressions: immutable, reference-counted nodes with source spans (DESIGN.md §2).
// A pass that changes nothing returns the same pointers, so "changed" is a pointer compare.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/DType.h"
#include "compiler/support/Source.h"

namespace ts::ir {

struct BufferNode;
using Buffer = std::shared_ptr<const BufferNode>;

enum class ExprKind : uint8_t { IntImm, FloatImm, StrImm, Var, Binary, Unary, Select, Call, Load, Cast };

/// Base of all expressions. `dtype` is the value type (indices are Int32 unless stated).
struct ExprNode {
    ExprKind kind;
    DType dtype;
    Span span;
    ExprNode(ExprKind k, DType t, Span s) : kind(k), dtype(t), span(s) {}
    virtual ~ExprNode() = default;
};
using Expr = std::shared_ptr<const ExprNode>;

struct IntImmNode final : ExprNode {
    int64_t value;
    IntImmNode(int64_t v, DType t, Span s) : ExprNode(ExprKind::IntImm, t, s), value(v) {}
};
struct FloatImmNode final : ExprNode {
    double value;
    FloatImmNode(double v, DType t, Span s) : ExprNode(ExprKind::FloatImm, t, s), value(v) {}
};
/// String literal; only as an intrinsic argument (e.g. the message of T.print).
struct StrImmNode final : ExprNode {
    std::string value;
    StrImmNode(std::string v, Span s) : ExprNode(ExprKind::StrImm, DType::Int8, s), value(std::move(v)) {}
};

/// What a variable stands for; codegen maps the hardware ones to CUDA builtins.
enum class VarTag : uint8_t {
    Plain,      ///< loop variable or scalar bound by a statement
    BlockIdx,   ///< blockIdx.{x,y,z} (axis = `axis`)
    ThreadIdx,  ///< threadIdx.{x,y,z}
};

/// A variable; identity is the node pointer (names are for printing and need not be unique).
struct VarNode final : ExprNode {
    std::string name;
    VarTag tag;
    int axis;  ///< 0..2 for BlockIdx/ThreadIdx
    VarNode(std::string n, DType t, Span s, VarTag tg = VarTag::Plain, int ax = 0)
        : ExprNode(ExprKind::Var, t, s), name(std::move(n)), tag(tg), axis(ax) {}
};
using Var = std::shared_ptr<const VarNode>;

/// Binary operators. Div is true division for floats; for integers FloorDiv/FloorMod follow
/// Python (floor) semantics, which is what `//` and `%` mean in the tile language.
enum class BinOp : uint8_t {
    Add, Sub, Mul, Div, FloorDiv, FloorMod, Min, Max, Pow,
    Eq, Ne, Lt, Le, Gt, Ge, And, Or, BitAnd, BitOr, BitXor, Shl, Shr,
};
const char* binOpSymbol(BinOp op);  ///< "+", "//", "min", ...
bool isComparison(BinOp op);

struct BinaryNode final : ExprNode {
    BinOp op;
    Expr a, b;
    BinaryNode(BinOp o, Expr x, Expr y, DType t, Span s)
        : ExprNode(ExprKind::Binary, t, s), op(o), a(std::move(x)), b(std::move(y)) {}
};

enum class UnOp : uint8_t { Neg, Not, BitNot };
struct UnaryNode final : ExprNode {
    UnOp op;
    Expr a;
    UnaryNode(UnOp o, Expr x, DType t, Span s) : ExprNode(ExprKind::Unary, t, s), op(o), a(std::move(x)) {}
};

/// cond ? t : f (T.if_then_else). Both arms may be evaluated (no side effects in expressions).
struct SelectNode final : ExprNode {
    Expr cond, t, f;
    SelectNode(Expr c, Expr x, Expr y, DType ty, Span s)
        : ExprNode(ExprKind::Select, ty, s), cond(std::move(c)), t(std::move(x)), f(std::move(y)) {}
};

/// Call of a math function ("exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sigmoid", "tanh",
/// "abs", "infinity", "ninfinity") or of a lowered intrinsic ("tl.*", see compiler/ir/Intrinsics.h).
struct CallNode final : ExprNode {
    std::string op;
    std::vector<Expr> args;
    CallNode(std::string o, std::vector<Expr> a, DType t, Span s)
        : ExprNode(ExprKind::Call, t, s), op(std::move(o)), args(std::move(a)) {}
};

/// Element read buffer[indices...] (logical indices; layouts are applied by lower-to-threads).
struct LoadNode final : ExprNode {
    Buffer buffer;
    std::vector<Expr> indices;
    LoadNode(Buffer b, std::vector<Expr> idx, DType t, Span s)
        : ExprNode(ExprKind::Load, t, s), buffer(std::move(b)), indices(std::move(idx)) {}
};

/// Conversion to `dtype` (round to nearest even for floats, C semantics for ints).
struct CastNode final : ExprNode {
    Expr value;
    CastNode(DType t, Expr v, Span s) : ExprNode(ExprKind::Cast, t, s), value(std::move(v)) {}
};

/// Checked downcast: `as<IntImmNode>(e)` is null when e is of another kind.
template <class T>
const T* as(const Expr& e) {
    return e ? dynamic_cast<const T*>(e.get()) : nullptr;
}

}  // namespace ts::ir
