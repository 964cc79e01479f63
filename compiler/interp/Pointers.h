// The interpreters' model of raw device pointers (TileLang's T.ptr, ir/PointerTensors.h). A run's
// "device memory" beyond the kernel's tensor arguments is the `memory` of runWithMemory, a list of
// host tensors (the pointees); a pointer is the pair (index into that list, element offset), carried
// in a pointer table's uint64 element as the double (index + 1) * 2^32 + offset (exact: below 2^53). 0 is
// the null pointer. T.make_tensor binds its tensor to the pointee's storage when the statement
// runs; a null pointer, one that names no buffer of the run, a dtype other than the pointee's
// (values are held as numbers, not bytes) or a tensor extending past the pointee's end are
// errors at the T.make_tensor, so no access through a pointer tensor can leave its buffer.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/interp/Interpreter.h"

namespace ts::interp {

/// run() (tile level, `lowered` false) or runLowered() (thread level) of a kernel with pointer
/// tables: their elements pointerValue(i, ...) address memory[i]. Kernels that write through
/// T.make_tensor tensors write `memory` in place. run()/runLowered() themselves have no memory:
/// a T.make_tensor there is an error ("the run has no pointee buffers").
InterpResult runWithMemory(const ir::PrimFunc& f, std::vector<HostTensor>& args, std::vector<HostTensor>& memory,
                           const InterpOptions& opts = {}, bool lowered = false);

/// Largest pointee index a pointer value can name (keeps the encoding below 2^53).
inline constexpr int64_t kMaxPointees = (int64_t(1) << 20) - 1;

/// The pointer to element `offset` of pointee `index` (0-based) as a Ptr element value.
inline double pointerValue(int64_t index, int64_t offset = 0) {
    return static_cast<double>((index + 1) * (int64_t(1) << 32) + offset);
}

/// A decoded pointer value.
struct PointerTarget {
    int64_t index = 0;   ///< into runWithMemory's memory
    int64_t offset = 0;  ///< elements of the pointee
};

/// Decodes a Ptr element; nullopt for null (0) and for values no pointerValue() produces.
inline std::optional<PointerTarget> decodePointer(double v) {
    if (!(v >= 0x1p32) || v >= 0x1p52 || v != static_cast<double>(static_cast<int64_t>(v))) return std::nullopt;
    const int64_t i = static_cast<int64_t>(v);
    return PointerTarget{(i >> 32) - 1, i & 0xFFFFFFFFll};
}

}  // namespace ts::interp
