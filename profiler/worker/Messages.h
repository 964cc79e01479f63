// The worker protocol's messages (Protocol.h) for the runtime's types: a RunRequest travels to
// the worker as {"op": "run"} (or "profile") with its tensors' bytes in the blob; the RunResult
// comes back with the outputs' bytes in the blob. Round trips are exact: inputs and outputs go
// in their device encoding (HostTensor.h), which is what the GPU sees and returns anyway.
#pragma once
#include <optional>
#include <string>

#include "profiler/Runtime.h"
#include "profiler/baseline/CublasGemm.h"
#include "profiler/worker/Protocol.h"

namespace ts::rt::worker {

/// `req` as a message with op `op` ("run", "profile").
Message encodeRunRequest(const RunRequest& req, const std::string& op = "run");
/// Inverse of encodeRunRequest; nullopt with `why` for a malformed message (unknown dtype,
/// a tensor pointing outside the blob, missing fields).
std::optional<RunRequest> decodeRunRequest(const Message& m, std::string& why);

/// `r` as a reply ({"ok": ..., "stage": ..., outputs in the blob}); `fatal` tells the caller that
/// the worker exits after this reply (a sticky CUDA fault made its context unusable).
Message encodeRunResult(const RunResult& r, bool fatal = false);
/// Inverse of encodeRunResult; nullopt with `why` for a malformed reply.
std::optional<RunResult> decodeRunResult(const Message& m, std::string& why);

/// DeviceInfo <-> JSON (the worker's hello reply).
nlohmann::json deviceJson(const DeviceInfo& d);
DeviceInfo deviceFromJson(const nlohmann::json& j);

/// The library-baseline request {"op": "baseline", "library": "cublas", "gemm": {...}, "reps",
/// "warmup", "rotate_sets"} and its reply fields (BaselineResult as JSON, "ok" included).
struct BaselineRequest {
    GemmShape gemm;
    int reps = 20, warmup = 3, rotateSets = 1;
};
Message encodeBaselineRequest(const BaselineRequest& req);
std::optional<BaselineRequest> decodeBaselineRequest(const Message& m, std::string& why);
nlohmann::json baselineJson(const BaselineResult& r);
BaselineResult baselineFromJson(const nlohmann::json& j);

/// RunStage <-> its stageName().
std::optional<RunStage> parseStage(const std::string& name);

}  // namespace ts::rt::worker
