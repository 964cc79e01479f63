// The run-time assertion intrinsic (kept out of Intrinsics.h, which most of the compiler
// includes). Thread-level and tile-level alike: every thread that evaluates it checks its own
// condition.
#pragma once

namespace ts::ir::intrin {

/// device_assert(cond, msg): T.device_assert (frontend/ElaborateDeviceAssert.h). A thread whose
/// cond is false stops the kernel: codegen prints `if (!(cond)) { printf(...); __trap(); }`
/// (CUDA C++ Programming Guide, "Assertion" / PTX ISA §9.7.19.3 trap; HIP: __builtin_trap), the
/// interpreters report the block and thread at the assert's span.
inline constexpr const char* kDeviceAssert = "device_assert";

}  // namespace ts::ir::intrin
