// HIP C++ code generation for AMD CDNA (target hip:gfx90a) from the same fully lowered Tile IR
// the CUDA printer reads. The lowering decided everything target-specific (64-lane wavefronts,
// MFMA accumulator layouts, plain copies); this printer writes it against resources/ts_hip.h,
// which gives the same ts:: vocabulary as ts_device.cuh. Intrinsics the HIP header has no
// implementation for (CUDA-only ones such as gemm_rs, or anything a later sm_90a lowering adds)
// are diagnostics naming the construct, never HIP that fails to compile.
#pragma once
#include "compiler/codegen/CudaCodegen.h"

namespace ts::codegen {

/// Emits HIP C++ for `f` (one `extern "C" __global__` kernel including "ts_hip.h"). Unsupported
/// constructs become errors in `diags`; the output is then incomplete.
CudaOutput emitHip(const ir::PrimFunc& f, const Target& target, DiagnosticEngine& diags);

/// The lowered intrinsics resources/ts_hip.h implements (tl.gemm_ss for fp16/bf16 -> fp32 only).
bool hipSupportsIntrinsic(const std::string& op);

}  // namespace ts::codegen
