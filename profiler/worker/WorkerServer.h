// The GPU worker's side of the protocol (`tilec worker`): a loop that reads requests from the
// caller's pipe, runs them on this process's GPU runtime and writes one reply per request
// (DESIGN.md §3). It exists so that a kernel which faults (illegal address, trap), aborts the
// process or spins forever takes down this child, never the IDE or tilec: the caller sees the
// pipe close or its timeout pass, reports what happened and starts a fresh worker.
//
// Requests (Message header "op"):
//   hello    -> {"pid", "device": DeviceInfo JSON | null, "why": reason there is none,
//                "driver_version"}
//   run      -> a RunResult (Messages.h); "fatal": true when a sticky CUDA fault (700, 714-719,
//               702) made the context unusable; the worker then exits with status 3 after replying
//   profile  -> a RunResult plus "profile" (profiler/Profile.h) for the same request
//   baseline -> a library's time for one GEMM (Messages.h BaselineRequest; cuBLAS, dlopen'ed)
//   quit     -> {"ok": true}, then the loop ends (exit 0)
//   test     -> only with allowTestFaults (tests and bench scripts): "fault" = "segfault" |
//               "abort" | "hang" | "exit" | "garbage" does that on purpose, to check the caller
//               copes without a GPU; "echo" replies {"ok": true, "bytes": blob size, "pid", "device": $TILESCOPE_DEVICE}
//               with the request's blob (messages split over frames, both ways), after
//               "sleep_ms" when given (a stand-in for a kernel's run time).
// A request the worker cannot read (a frame over its limit, a stream out of step) ends it with
// status 4 after one line on stderr saying why; the caller reports that line.
#pragma once
#include <cstdint>

#include "profiler/worker/Protocol.h"

namespace ts::rt::worker {

struct WorkerOptions {
    bool allowTestFaults = false;  ///< accept {"op": "test"} (never set by the IDE)
    /// Largest frame read or written (`tilec worker --max-frame-bytes`, tests only).
    uint32_t maxFrameBytes = kDefaultMaxFrameBytes;
};

/// Serves requests on (inFd, outFd) until "quit" or the caller closes the pipe. Returns the
/// process exit status. Before serving it moves the process's stdout to stderr, so a library
/// that prints cannot corrupt the protocol stream on `outFd` (pass the original stdout).
int serveWorker(int inFd, int outFd, const WorkerOptions& options);

}  // namespace ts::rt::worker
