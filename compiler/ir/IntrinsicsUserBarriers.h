// Lowered intrinsics of hand-written warp-specialized kernels (compiler/frontend/
// ElaborateBarriers.cpp) beyond those of compiler/ir/Intrinsics.h, which they otherwise reuse
// (tl.mbarrier_init / arrive / wait, tl.fence_proxy_async). Kept in this small header so that
// adding it did not rebuild every pass that includes Intrinsics.h; fold it into Intrinsics.h the
// next time that header changes.
#pragma once

namespace ts::ir::intrin {

/// tl.set_max_nreg(count, inc): setmaxnreg.inc (inc = 1) / .dec (0).sync.aligned.u32 count for
/// the executing warp group (PTX ISA §9.7.17.6); T.set_max_nreg. Registers only: both
/// interpreters run it as a no-op.
inline constexpr const char* kSetMaxNreg = "tl.set_max_nreg";

/// tl.mbarrier_expect_tx_only(bar_addr, bytes): every executing thread adds `bytes` to the
/// transaction bytes the barrier's current phase waits for, without arriving
/// (mbarrier.expect_tx, PTX ISA §9.7.13.15.11); T.mbarrier_expect_tx. Only TMA transfers
/// deliver transaction bytes, so bytes nothing delivers keep the phase open: the interpreters
/// report the wait that can never complete (ThreadHopper.cpp) instead of hanging.
inline constexpr const char* kMbarrierExpectTxOnly = "tl.mbarrier_expect_tx_only";

/// tl.cp_async_arrive_noinc(bar_addr): every executing thread's one arrival on the mbarrier,
/// made when all of its earlier cp.async copies have completed (cp.async.mbarrier.arrive.noinc,
/// PTX ISA §9.7.9.25.3.4; T.cp_async_barrier_noinc). .noinc: the arrival is one of the count the
/// barrier was initialised with (the pending count is not raised first). sm_80+. The
/// interpreters complete the thread's outstanding cp.async copies (committed or not) at the call
/// and then arrive, one legal execution of the asynchronous arrival.
inline constexpr const char* kCpAsyncArriveNoinc = "tl.cp_async_arrive_noinc";

}  // namespace ts::ir::intrin
