// T.device_assert(cond, msg=""): a run-time check inside a kernel, as TileLang's (CUDA's
// assert): every thread that reaches it with `cond` false stops the kernel with `msg`. It
// elaborates to the intrinsic "device_assert"(cond, msg) (compiler/ir/IntrinsicsAssert.h),
// which codegen prints as `if (!cond) { printf(msg); trap }`, and both interpreters stop with a
// diagnostic at the assert naming the block and thread. A condition that is a compile-time
// True emits nothing; a compile-time False is an error at the call.
#pragma once
#include "compiler/frontend/MetaEval.h"

namespace ts::fe::elab {

/// Registers T.device_assert in the elaborator `in`'s tilelang.language module.
void registerDeviceAssert(Interp& in);

}  // namespace ts::fe::elab
