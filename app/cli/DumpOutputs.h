// `tilec run --dump-outputs DIR` (issue 14, bench/differential.py): the outputs of one execution
// (GPU, tile-level or lowered interpreter) as raw little-endian values, one NAME.f32 per output
// whose values are all exact in float32 (else NAME.f64, float64), and DIR/outputs.json naming each output's dtype, shape and the rel-L2 tolerance `tilec
// run` would apply to it against the tile-level interpreter. Runs of the same kernel with the
// same --seed get the same inputs, so their dumps can be compared value by value.
#pragma once
#include <string>
#include <vector>

#include "compiler/Compile.h"
#include "compiler/support/HostTensor.h"

namespace ts::cli {

/// Writes `outs` (the kernel's outputs in signature order) under `dir`; `engine` and `seed` go
/// into the manifest. False after an error on stderr.
bool dumpOutputs(const std::string& dir, const CompileResult& r,
                 const std::vector<HostTensor>& outs, const std::string& engine, uint64_t seed);

}  // namespace ts::cli
