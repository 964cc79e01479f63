// The torch vocabulary of ref_program (LANGUAGE.md §4) as one table of functions, shared by
// `torch.X(...)`, `F.X(...)` (torch.nn.functional) and the tensor method `x.X(...)`. A function
// receives the call with the tensor in pos[0] (methods get `self` prepended), binds the rest like
// torch's Python signature and returns a meta value. In-place methods (`x.masked_fill_(m, v)`,
// `x.add_(y)`, `x.zero_()`) are derived from the out-of-place function of the same name and write
// the result back into the tensor (cast to its dtype, broadcast to its shape).
//
// Internal to profiler/check/Reference*: the table is split over ReferenceTorch.cpp (elementwise
// math, reductions, products, attention) and ReferenceTorchShape.cpp (shapes, creation,
// conversions).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "profiler/check/ReferenceValue.h"

namespace ts::rt {

/// Where a function is reachable from.
enum RefWhere : uint8_t {
    kMethod = 1,      ///< x.name(...)
    kTorch = 2,       ///< torch.name(...)
    kFunctional = 4,  ///< torch.nn.functional.name(...) / F.name(...)
};

/// A reference function; `a.pos[0]` is the input tensor (or the first argument of a creation
/// function), `a.callee` its qualified name for messages. Errors: CompileError or RefError (the
/// dispatcher turns a RefError into a diagnostic at the call).
using RefFn = fe::Value (*)(fe::Interp&, fe::CallArgs&);

struct RefFunction {
    RefFn fn = nullptr;
    uint8_t where = 0;
};
using RefTable = std::unordered_map<std::string, RefFunction>;

/// Registers elementwise math, reductions, softmax, matmul/einsum/attention (ReferenceTorch.cpp).
void addMathFunctions(RefTable& t);
/// Registers shape manipulation, creation and dtype conversions (ReferenceTorchShape.cpp).
void addShapeFunctions(RefTable& t);
/// Registers gather, scatter and conv2d (ReferenceIndexOps.cpp).
void addIndexFunctions(RefTable& t);
/// The complete table (built once, thread-safe).
const RefTable& refTable();

/// Member `name` of the torch module `path` ("torch", "torch.nn", "torch.nn.functional"):
/// a function, a dtype, a constant (inf, nan, pi, e) or a submodule; nullopt when unknown.
std::optional<fe::Value> torchMember(const std::string& path, const std::string& name);
/// `self.name` as a bound method (incl. derived in-place methods), or nullopt when unknown.
std::optional<fe::Value> tensorMethod(const std::shared_ptr<RefTensor>& self,
                                      const std::string& name);

// ---- argument helpers (throw CompileError at the argument's span) ----

/// Argument `i` of a bound call as an array (tensor, number or nested list of numbers).
RefArray argArray(const fe::CallArgs::Bound& b, size_t i, const std::string& callee);
/// An int (bool allowed).
int64_t argInt(const fe::Value& v, Span s, const std::string& what);
/// A number.
double argNum(const fe::Value& v, Span s, const std::string& what);
/// A bool (ints and one-element tensors allowed).
bool argBool(fe::Interp& in, const fe::Value& v, Span s);
/// A dtype (torch.float16, T.float16, "float16"); None -> nullopt.
std::optional<ir::DType> argDType(const fe::Value& v, Span s);
/// Dims as an int, a tuple/list of ints or None (-> empty: all dims).
std::vector<int64_t> argDims(const fe::Value& v, Span s);
/// A shape given as varargs ints from pos[first] on, or as one tuple/list (torch.Size).
Shape argShape(const fe::CallArgs& a, size_t first);
/// A shape from one value (int or sequence of ints).
Shape argShapeValue(const fe::Value& v, Span s);

}  // namespace ts::rt
