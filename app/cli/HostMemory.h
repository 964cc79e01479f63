// Whether a kernel's tensors fit in this machine's memory before tilec allocates them: a run at a
// file's real sizes (4096-token attention, 256x256x64x576 MLA inputs) on the interpreter would
// otherwise grow for minutes toward the out-of-memory killer without a word.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/Compile.h"
#include "profiler/cuda/Launch.h"

namespace ts::cli {

/// Bytes tilec's host side holds per tensor element: values are kept as doubles (HostTensor),
/// and a checked run keeps the inputs, the outputs and the reference's copy: 3 x 8 bytes.
inline constexpr int64_t kHostBytesPerElement = 24;

/// Installed memory in bytes (sysconf), 0 when unknown.
int64_t physicalMemoryBytes();

/// A diagnostic when the tensors of `sig` need more than 80% of `physicalBytes` (0: no check):
/// the estimate, the largest tensors with their shapes, and what to do. Negative (dynamic)
/// extents count as 1.
std::optional<std::string> hostMemoryProblem(const std::vector<rt::TensorParam>& sig, int64_t physicalBytes);

/// For an interpreter run: a diagnostic when a tensor argument of `r` (sizes resolved) has more
/// elements than the interpreters hold (interp::kMaxBufferElements), naming the tensors and the
/// --param parameters their declared shapes are written with (`A: T.Tensor((M, K), ...)` -> M
/// and K), so that it is refused before tilec allocates gigabytes of host tensors.
std::optional<std::string> interpreterSizeProblem(const CompileResult& r);

}  // namespace ts::cli
