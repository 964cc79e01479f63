// TVM's low-level thread allreduce as TileLang kernels write it (BitBLAS-style GEMV):
//   with T.attr(T.comm_reducer(lambda x, y: x + y, [T.cast(0, dt)]), "reduce_scope",
//               T.reinterpret(T.uint64(0), dtype="handle")):
//       T.evaluate(T.tvm_thread_allreduce(T.uint32(1), value, True, dst[0], tx, dtype="handle"))
// Every thread's `value` is combined with the reducer over the threads that differ only in the
// reduced thread index (threadIdx.x, a power of two up to 32: one warp or an aligned part of one)
// and the result stored into `dst` by every thread. Elaborates to a butterfly of
// tl.warp_shuffle (ir/IntrinsicsWarp.h) on a per-thread register: thread-level code that both
// interpreters and the CUDA/HIP code generators already handle.
#pragma once
#include "compiler/frontend/MetaEval.h"

namespace ts::fe::elab {

/// Registers T.comm_reducer, T.attr, T.evaluate and T.tvm_thread_allreduce.
void registerAllreduce(Interp& in);

}  // namespace ts::fe::elab
