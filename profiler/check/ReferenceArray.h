// The numeric core of the reference evaluator (LANGUAGE.md §4): dense row-major float64 arrays
// with a *nominal* dtype, and the torch-like operations a `ref_program` uses (broadcasting
// elementwise math, reductions, softmax, shape manipulation, indexing, matmul, einsum, scaled
// dot-product attention). Nothing here knows about the meta-evaluator: ReferenceValue.h wraps
// these arrays as meta-level values and maps Python calls onto these functions.
//
// Precision: values are always float64. A dtype conversion to a float type only changes the
// nominal dtype (the reference is exact, the comparison tolerances absorb the kernel's
// rounding); a conversion to an integer type or bool rounds like the device would (roundTo:
// truncation toward zero, wrap-around). The nominal dtype follows torch's promotion rules closely
// enough to report what the program asked for.
//
// Storage is shared between arrays that have the same elements (reshape, view, a float
// conversion, contiguous), so such calls cost O(1). Every array is contiguous; permutes and
// broadcasts materialise. Errors throw RefError with a message in the user's terms; the caller
// adds the source location.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/DType.h"

namespace ts::rt {

/// An error in a reference operation ("matmul: shapes (3, 4) and (5, 6) do not match").
struct RefError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

using Shape = std::vector<int64_t>;

/// A dense row-major float64 array with a nominal dtype.
struct RefArray {
    ir::DType dtype = ir::DType::Float32;
    Shape shape;                                ///< rank 0 = a scalar (one element)
    std::shared_ptr<std::vector<double>> data;  ///< numel() values, never null after make()
    /// A Python scalar lifted to a 0-d array: it does not decide the result dtype of a mixed
    /// operation within its category (torch's "weak" scalars: f16 tensor * 2.0 stays f16).
    bool weak = false;

    int64_t numel() const;
    int64_t rank() const { return static_cast<int64_t>(shape.size()); }
    const double* ptr() const { return data->data(); }
    /// Value of a one-element array. Throws RefError otherwise.
    double item() const;
};

// ---- construction -------------------------------------------------------------------------

/// An array of `shape` with `values` (numel(shape) of them). Throws RefError on a size mismatch.
RefArray makeArray(ir::DType t, Shape shape, std::vector<double> values);
/// An array of `shape` filled with `v`.
RefArray fullArray(ir::DType t, Shape shape, double v);
/// A 0-d array; `weak` marks a Python scalar.
RefArray scalarArray(ir::DType t, double v, bool weak = false);
/// torch.arange(start, end, step): ceil((end - start) / step) values. Throws on step == 0.
RefArray arangeArray(double start, double end, double step, ir::DType t);
/// torch.eye(n, m).
RefArray eyeArray(int64_t n, int64_t m, ir::DType t);

// ---- shapes and layout --------------------------------------------------------------------

/// Product of the extents (1 for rank 0).
int64_t numelOf(const Shape& s);
/// "(4096, 4096)".
std::string shapeText(const Shape& s);
/// Python-style dimension index (-1 = last) normalised into [0, rank); throws when out of range.
int64_t normDim(int64_t dim, int64_t rank);
/// Row-major strides of `shape`, in elements.
Shape stridesOf(const Shape& shape);
/// The broadcast of two shapes (numpy/torch rules); throws naming both shapes.
Shape broadcastShapes(const Shape& a, const Shape& b);
/// Strides that read `a` (of shape aShape) as if broadcast to `out` (0 on broadcast dims).
Shape broadcastStrides(const Shape& aShape, const Shape& out);
/// Copies the elements of `src` visited by (base, strides) over `outShape`, row-major.
std::vector<double> gather(const double* src, int64_t base, const Shape& outShape,
                           const Shape& strides);

/// The same elements with a new shape; one extent may be -1. Shares storage.
RefArray reshape(const RefArray& a, Shape shape);
/// Dimensions reordered (`perm` is a permutation, negative entries allowed).
RefArray permute(const RefArray& a, std::vector<int64_t> perm);
/// Swaps two dimensions.
RefArray transpose(const RefArray& a, int64_t d0, int64_t d1);
/// Reverses all dimensions (`.T`).
RefArray reverseDims(const RefArray& a);
/// Inserts an extent-1 dimension at `dim` (in [-rank-1, rank]).
RefArray unsqueeze(const RefArray& a, int64_t dim);
/// Removes extent-1 dimensions: all of them, or only `dim` (no-op if its extent is not 1).
RefArray squeeze(const RefArray& a, std::optional<int64_t> dim);
/// Broadcasts to `shape` (-1 keeps an extent; new leading dims allowed). Materialises.
RefArray expand(const RefArray& a, const Shape& shape);
/// Merges dims start..end into one.
RefArray flatten(const RefArray& a, int64_t start, int64_t end);
/// torch.Tensor.repeat: tiles the array `reps[i]` times along each dim.
RefArray repeatTiles(const RefArray& a, const Shape& reps);
/// torch.repeat_interleave(a, repeats, dim): each slice along `dim` repeated `repeats` times.
RefArray repeatInterleave(const RefArray& a, int64_t repeats, int64_t dim);
/// torch.cat along `dim`; all other extents must agree. Dtype promotes over the inputs.
RefArray concat(const std::vector<RefArray>& parts, int64_t dim);
/// torch.stack along a new `dim`.
RefArray stack(const std::vector<RefArray>& parts, int64_t dim);
/// `a.narrow(dim, start, length)`.
RefArray narrow(const RefArray& a, int64_t dim, int64_t start, int64_t length);
/// torch.flip over `dims`.
RefArray flip(const RefArray& a, const std::vector<int64_t>& dims);
/// torch.tril / triu over the last two dims, keeping the diagonal offset `k` band.
RefArray triangle(const RefArray& a, int64_t k, bool lower);
/// Converts to `t`: integer and bool targets round (roundTo), float targets only relabel.
RefArray cast(const RefArray& a, ir::DType t);
/// A conversion the reference asks for (`.half()`, `.to(torch.bfloat16)`, `.type(...)`,
/// `.type_as(...)`): as cast(), and a float16, bfloat16 or float8 target rounds each value to it,
/// as torch does (a fake-quantisation reference must quantise). float32 stays a label: the
/// reference works in float64, and promotions inside the evaluator use cast().
RefArray convert(const RefArray& a, ir::DType t);

/// One entry of a subscript: an integer, a slice (Python semantics, missing parts as nullopt),
/// `None` (new axis) or `...`.
struct IndexItem {
    enum class Kind { Int, Slice, NewAxis, Ellipsis } kind = Kind::Int;
    int64_t index = 0;
    std::optional<int64_t> start, stop, step;
};
/// `a[items]` (basic indexing). Throws on out-of-range integers or too many indices.
RefArray indexArray(const RefArray& a, const std::vector<IndexItem>& items);
/// `a[items] = value` in place (value broadcast to the selected region). `a.data` is copied first
/// when it is shared with another array (copy-on-write: a write through a view does not reach
/// the array it was made from, unlike torch).
void assignIndex(RefArray& a, const std::vector<IndexItem>& items, const RefArray& value);

// ---- elementwise --------------------------------------------------------------------------

enum class BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    Maximum,
    Minimum,
    FMax,  ///< torch.fmax / fmin: a NaN operand loses (C's fmax), unlike maximum / minimum
    FMin,
    Atan2,
    Fmod,      ///< torch.fmod: C's fmod (the sign of the dividend), unlike remainder (Mod)
    Hypot,
    Copysign,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Xor,
    Shl,  ///< integer << (bits shifted out of the dtype are lost)
    Shr,  ///< integer >> (arithmetic for signed dtypes, as torch)
};
enum class UnOp {
    Neg,
    Abs,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sqrt,
    Rsqrt,
    Sigmoid,
    Tanh,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Asinh,
    Acosh,
    Atanh,
    Erf,
    Relu,
    Silu,
    GeluErf,
    GeluTanh,
    Softplus,
    Floor,
    Ceil,
    Round,
    Trunc,
    Sign,
    Reciprocal,
    Square,
    LogicalNot,
    BitNot,
    IsNan,
    IsInf,
    IsFinite,
};

/// The common dtype of two tensors' dtypes (torch.promote_types): bool < integers < floats;
/// within a category the wider type, mixed 16-bit floats (or signed/unsigned ints) go wider.
ir::DType promoteTypes(ir::DType a, ir::DType b);
/// Result dtype of a binary op on a and b (torch promotion incl. weak scalars and 0-d tensors).
ir::DType promote(const RefArray& a, const RefArray& b);
/// `a op b` with broadcasting. Comparisons and logical ops give Bool; Div of integers gives
/// Float32; FloorDiv/Mod follow Python (floor, sign of the divisor).
RefArray binary(BinOp op, const RefArray& a, const RefArray& b);
/// `op(a)` elementwise. Float functions of integer arrays give Float32.
RefArray unary(UnOp op, const RefArray& a);
/// torch.where(cond, a, b) with three-way broadcasting.
RefArray where(const RefArray& cond, const RefArray& a, const RefArray& b);
/// torch.clamp(a, lo, hi) (either bound may be absent).
RefArray clamp(const RefArray& a, std::optional<double> lo, std::optional<double> hi);

// ---- reductions ---------------------------------------------------------------------------

enum class ReduceOp { Sum, Mean, Max, Min, Prod, Any, All, Var, Std };

/// Reduces over `dims` (all dims when empty). Var/Std use `correction` (torch's default 1).
/// Max/Min of an empty extent is an error; Mean of integers is an error like torch.
RefArray reduce(ReduceOp op, const RefArray& a, const std::vector<int64_t>& dims, bool keepdim,
                int correction = 1);
/// (values, indices) of max/min along `dim` (first occurrence wins; NaN propagates as the max).
std::pair<RefArray, RefArray> argReduce(const RefArray& a, int64_t dim, bool keepdim, bool isMax);
/// log(sum(exp(a))) along dim, stably.
RefArray logsumexp(const RefArray& a, int64_t dim, bool keepdim);
/// softmax / log_softmax along dim (max-subtracted, in float64).
RefArray softmax(const RefArray& a, int64_t dim, bool log);
/// Inclusive prefix sum (or product) along dim.
RefArray cumulative(const RefArray& a, int64_t dim, bool product);

// ---- linear algebra -----------------------------------------------------------------------

/// torch.matmul: 1-D/2-D/batched N-D with broadcasting over batch dims (Eigen GEMM per batch).
RefArray matmul(const RefArray& a, const RefArray& b);
/// torch.einsum with explicit ("bhqd,bhkd->bhqk") or implicit output, `...` and repeated
/// indices (diagonals). Two-operand contractions run as batched GEMMs; more operands contract
/// left to right.
RefArray einsum(const std::string& equation, const std::vector<RefArray>& operands);
/// F.scaled_dot_product_attention(q, k, v, attn_mask, is_causal, scale, enable_gqa):
/// q (..., L, E), k (..., S, E), v (..., S, Ev) -> (..., L, Ev). Causal masks j > i (top-left
/// aligned, like torch); a bool mask keeps True entries, a float mask is added to the scores.
/// scale defaults to 1/sqrt(E). With enable_gqa, k/v heads (dim -3) repeat to q's head count.
RefArray attention(const RefArray& q, const RefArray& k, const RefArray& v, const RefArray* mask,
                   bool causal, std::optional<double> scale, bool gqa);

}  // namespace ts::rt
