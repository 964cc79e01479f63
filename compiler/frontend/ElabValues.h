// Internal to the elaborator: the tile-level values that live in the meta-evaluator's
// environments while a @T.prim_func body is elaborated (MetaValue.h's ExtValue hook). A
// run-time scalar is an ExprValue (an IR expression); a tensor or allocation is a
// BufferValue; `buf[...]` is a BufferAccess, which becomes a load/store when used as an element
// and a Region when passed to a tile op; T.Parallel(...) and friends are LoopSpecs consumed by
// `for`, T.Kernel(...) is a KernelSpec consumed by `with`, and T.Tensor(...) annotations are
// TensorTypes. All hooks report errors as CompileError at the user's span.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "compiler/frontend/MetaValue.h"
#include "compiler/ir/IR.h"

namespace ts::analysis {
struct UserLayoutSpec;
}

namespace ts::fe::elab {

class Elaborator;

/// The Elaborator behind an Interp& handed to a hook (all elaboration values live in one).
Elaborator& elaboratorOf(Interp& in);

/// A scalar known only at run time: an IR expression (loop variable, block index, load, ...).
class ExprValue : public ExtValue {
public:
    ExprValue(ir::Expr e, uint64_t epoch) : expr(std::move(e)), epoch(epoch) {}
    ir::Expr expr;
    uint64_t epoch;  ///< store counter when it was built (see Elaborator::checkFresh)

    std::string typeName() const override { return "PrimExpr"; }
    std::string repr() const override;
    std::optional<Value> getAttr(Interp&, const std::string& name, Span) override;
    std::optional<Value> binaryOp(Interp&, ast::BinOpKind op, const Value& other, bool selfOnLeft,
                                  Span) override;
    std::optional<Value> unaryOp(Interp&, ast::UnaryOpKind op, Span) override;
    std::optional<Value> compare(Interp&, ast::CmpOpKind op, const Value& other, bool selfOnLeft,
                                 Span) override;
    std::optional<bool> truth(Interp&, Span) override;
};

/// A tensor parameter or an allocation. An alloc_var scalar (`isVar`) also acts as its value.
class BufferValue : public ExtValue {
public:
    BufferValue(ir::Buffer b, bool var) : buffer(std::move(b)), isVar(var) {}
    ir::Buffer buffer;
    bool isVar;

    std::string typeName() const override { return isVar ? "Var" : "Buffer"; }
    std::string repr() const override { return buffer->name; }
    std::optional<Value> getAttr(Interp&, const std::string& name, Span) override;
    std::optional<Value> getItem(Interp&, const Value& index, Span) override;
    bool setItem(Interp&, const Value& index, const Value& v, Span) override;
    std::optional<int64_t> length(Interp&, Span) override;
    // As a value (alloc_var only): behaves like a load of its single element.
    std::optional<Value> binaryOp(Interp&, ast::BinOpKind op, const Value& other, bool selfOnLeft,
                                  Span) override;
    std::optional<Value> unaryOp(Interp&, ast::UnaryOpKind op, Span) override;
    std::optional<Value> compare(Interp&, ast::CmpOpKind op, const Value& other, bool selfOnLeft,
                                 Span) override;
};

/// One subscript component of a BufferAccess.
struct AccessIndex {
    bool isSlice = false;
    ir::Expr point;         ///< !isSlice
    ir::Expr lower, upper;  ///< isSlice; null = buffer start / end
    Span span;
};

/// `buf[i, j]` / `buf[a:b, :, c]`: an element (load/store) or a region (tile-op argument).
class BufferAccess : public ExtValue {
public:
    BufferAccess(ir::Buffer b, std::vector<AccessIndex> idx, Span s, uint64_t epoch)
        : buffer(std::move(b)), indices(std::move(idx)), span(s), epoch(epoch) {}
    ir::Buffer buffer;
    std::vector<AccessIndex> indices;
    Span span;
    uint64_t epoch;
    /// True if every component is a point and there is one per dimension.
    bool isElement() const;

    std::string typeName() const override { return isElement() ? "PrimExpr" : "BufferRegion"; }
    std::string repr() const override;
    std::optional<Value> getAttr(Interp&, const std::string& name, Span) override;
    std::optional<Value> binaryOp(Interp&, ast::BinOpKind op, const Value& other, bool selfOnLeft,
                                  Span) override;
    std::optional<Value> unaryOp(Interp&, ast::UnaryOpKind op, Span) override;
    std::optional<Value> compare(Interp&, ast::CmpOpKind op, const Value& other, bool selfOnLeft,
                                 Span) override;
};

/// T.Parallel / T.Pipelined / T.serial / T.unroll / T.vectorized / range(...) in a kernel.
class LoopSpec : public ExtValue {
public:
    ir::ForKind kind = ir::ForKind::Serial;
    std::string name;                                 ///< "T.Parallel", ... for messages
    std::vector<std::pair<ir::Expr, ir::Expr>> dims;  ///< (min, extent) per loop variable
    int64_t step = 1;                                 ///< serial loops with a step
    ir::Attrs attrs;
    Span span;
    std::string typeName() const override { return "LoopSpec"; }
};

/// T.Kernel(grid..., threads=...).
class KernelSpec : public ExtValue {
public:
    std::vector<ir::Expr> grid;
    std::vector<int64_t> threads;
    Span span;
    bool noGrid = false;  ///< `T.Kernel(threads=N)`: one block, and no block index to bind
    std::string typeName() const override { return "Kernel"; }
};

/// `T.Tensor(shape, dtype)` as a parameter type.
class TensorType : public ExtValue {
public:
    std::vector<ir::Expr> shape, strides;
    ir::DType dtype = ir::DType::Float32;
    /// T.Tensor(shape, T.ptr): a pointer table (dtype uint64; ir/PointerTensors.h).
    bool pointerTable = false;
    Span span;
    std::string typeName() const override { return "TensorType"; }
};

/// `A.data` of a kernel tensor: its memory, for T.Tensor(shape, dtype, A.data) (a view).
class TensorDataRef : public ExtValue {
public:
    explicit TensorDataRef(ir::Buffer b) : buffer(std::move(b)) {}
    ir::Buffer buffer;
    std::string typeName() const override { return "Var"; }
    std::string repr() const override { return buffer->name + ".data"; }
};

/// T.Tensor / T.Buffer / T.StridedTensor themselves: callable (`T.Tensor((M, K), dtype)`) and
/// subscriptable (`T.Tensor[(M, K), dtype]`).
class TensorTypeCtor : public ExtValue {
public:
    explicit TensorTypeCtor(bool strided) : strided(strided) {}
    bool strided;
    std::string typeName() const override { return "type"; }
    std::optional<Value> call(Interp&, CallArgs&) override;
    std::optional<Value> getItem(Interp&, const Value& index, Span) override;
};

/// A layout for T.annotate_layout: a finished one (make_swizzled_layout), or a user T.Layout /
/// T.Fragment (`spec`), checked and finished against the annotated buffer.
class LayoutValue : public ExtValue {
public:
    explicit LayoutValue(ir::Layout l) : layout(std::move(l)) {}
    explicit LayoutValue(std::shared_ptr<analysis::UserLayoutSpec> s) : spec(std::move(s)) {}
    ir::Layout layout;
    std::shared_ptr<analysis::UserLayoutSpec> spec;
    std::string typeName() const override { return "Layout"; }
};

}  // namespace ts::fe::elab
