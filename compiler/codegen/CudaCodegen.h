// CUDA C++ code generation from fully lowered Tile IR (after lower-to-threads). The output is
// one self-contained translation unit that includes only our device header (ts_device.cuh,
// embedded; NVRTC gets it in memory, exports copy it next to the .cu).
#pragma once
#include <string>
#include <vector>

#include "compiler/target/Target.h"
#include "compiler/ir/Stmt.h"
#include "compiler/support/Diagnostic.h"

namespace ts::codegen {

struct CudaOutput {
    std::string source;
    std::vector<Span> lineSpans;  ///< source span of each generated line (1-based line i -> [i-1])
    std::string kernelName;
    /// emitDeviceCppLaunches: every launch's kernel name, in order (kernelName is the first).
    std::vector<std::string> kernelNames;
};

/// Emits CUDA for `f`. Unsupported constructs become diagnostics in `diags` (never exceptions).
CudaOutput emitCuda(const ir::PrimFunc& f, const Target& target, DiagnosticEngine& diags);

/// Which device header and spelling the printer uses. HIP accepts the CUDA C++ the printer writes
/// (__global__, __shared__, __launch_bounds__, __syncthreads, the __int_as_float family); only
/// the device header differs, and it gives the same ts:: vocabulary (HipCodegen.h).
enum class DeviceDialect { Cuda, Hip };
/// The printer behind emitCuda and emitHip.
CudaOutput emitDeviceCpp(const ir::PrimFunc& f, DeviceDialect dialect, DiagnosticEngine& diags);
/// One translation unit holding every launch of a kernel function with several T.Kernel blocks
/// (compiler/KernelLaunches.h; each lowered separately, with distinct names): the preamble once
/// (with the sm_90a header part when any launch uses it), then each launch's kernel in order.
/// The HIP checks of emitHip are not applied here: callers run emitHip per launch first.
CudaOutput emitDeviceCppLaunches(const std::vector<ir::PrimFunc>& launches, DeviceDialect dialect,
                                 DiagnosticEngine& diags);

}  // namespace ts::codegen
