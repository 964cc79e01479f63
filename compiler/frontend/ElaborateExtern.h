// T.import_source / T.access_ptr / T.call_extern for the device functions of TileLang's
// dequantize helpers (examples/dequantize_gemm/quantize: mxfp.py's
// decode_fp4_to_bf16_twiddling, lop3.py's decode_i4{u,s}_to_f16). TileScope cannot run
// inline CUDA, so a call of one of these known functions elaborates to the equivalent tile-level
// integer code (loads of the packed bytes, shifts and masks, stores into the destination) with the
// same results bit for bit: the code runs on both interpreters and in generated CUDA/HIP alike.
// Sources or functions that are not one of these stay diagnostics at the call.
#pragma once
#include "compiler/frontend/MetaEval.h"

namespace ts::fe::elab {

/// Registers T.import_source, T.access_ptr and T.call_extern in `in`'s tilelang.language.
void registerExternDecoders(Interp& in);

}  // namespace ts::fe::elab
