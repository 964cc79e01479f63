// Tensors over raw device pointers (TileLang's T.ptr): a kernel parameter `P: T.Tensor([G], T.ptr)`
// is a *pointer table*: a Global uint64 buffer of device addresses (as TileLang lowers it to an
// int64 buffer), recorded in the function's attrs as "ptr_table.<name>" = "T.ptr"; and
// `A = T.make_tensor(P[g], shape, dtype[, strides])` inside T.Kernel is a *pointer tensor*: a
// Global buffer that is not a parameter, declared by an AllocNode whose `init` is the pointer
// expression (a load of the table), recorded in the function's attrs as
// "ptr_tensor.<name>" = the table's name (buffer names are unique in a PrimFunc).
//
// What each layer does with it: passes treat it as any kernel tensor of the declared shape
// (bounds, layouts, cp.async copies) except that TMA is never chosen for it (its base address is
// only known inside the kernel, and TileScope builds tensor maps on the host); codegen declares
// `T* A = reinterpret_cast<T*>(P[g]);` where the AllocNode stands; the interpreters model a
// pointer as (buffer id, element offset) into the run's pointee buffers (interp::PointerValue);
// the runner allocates one pointee buffer per table entry with the make_tensor's shape and dtype
// (compiler/PointerTables.h).
#pragma once
#include <string>

#include "compiler/ir/Stmt.h"

namespace ts::ir {

/// The attrs key that records pointer table `name` (a kernel parameter).
inline std::string ptrTableAttrKey(const std::string& name) { return "ptr_table." + name; }

/// True when `b` is a pointer table (a T.Tensor(shape, T.ptr) parameter).
inline bool isPointerTable(const Attrs& attrs, const BufferNode& b) {
    return b.scope == Scope::Global && attrs.count(ptrTableAttrKey(b.name)) > 0;
}

/// The attrs key that records pointer tensor `name`.
inline std::string ptrTensorAttrKey(const std::string& name) { return "ptr_tensor." + name; }

/// The name of the pointer table `b` was made from, or "" when `b` is not a pointer tensor.
inline std::string pointerTensorTable(const Attrs& attrs, const BufferNode& b) {
    if (b.scope != Scope::Global) return {};
    auto it = attrs.find(ptrTensorAttrKey(b.name));
    if (it == attrs.end()) return {};
    const std::string* t = std::get_if<std::string>(&it->second);
    return t ? *t : std::string();
}

/// True when `b` is a pointer tensor of `f` (made by T.make_tensor from a pointer).
inline bool isPointerTensor(const PrimFuncNode& f, const BufferNode& b) {
    return b.scope == Scope::Global && f.attrs.count(ptrTensorAttrKey(b.name)) > 0;
}

}  // namespace ts::ir
