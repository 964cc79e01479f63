// TileLang's raw device pointers: T.make_tensor(ptr, shape, dtype="float32", strides=None) turns
// an element of a pointer table (`P: T.Tensor([G], T.ptr)`) into a kernel tensor of that shape
// and dtype (ir/PointerTensors.h says what each layer does with it); `T.make_tensor(A.data,
// shape)` is a view of A (as T.Tensor(shape, dtype, A.data)). Pointers are opaque: arithmetic,
// comparisons, casts and stores of them, tiles of them and scalar `p: T.ptr` parameters are
// diagnostics at the construct (rejectPointer is the check the value conversions call).
#pragma once
#include <string>

#include "compiler/frontend/MetaEval.h"
#include "compiler/ir/Expr.h"

namespace ts::fe::elab {

class Elaborator;

/// Registers T.make_tensor and T.ptr (as a dtype marker) in the elaborator `in`'s
/// tilelang.language module.
void registerPointers(Interp& in);

/// Throws a CompileError at `s` when `e` is a raw device pointer (a load of a pointer table):
/// `what` names the construct ("arithmetic", "T.cast", ...) TileScope does not allow on it.
void rejectPointer(Elaborator& el, const ir::Expr& e, Span s, const std::string& what);

/// True when `v` names the pointer element type: T.ptr, or the strings "ptr" / "handle".
bool isPointerDType(const Value& v);

}  // namespace ts::fe::elab
