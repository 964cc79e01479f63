// The TILESCOPE_* environment variables that change generated code (measurement switches such as
// TILESCOPE_SINK_TMA_WAITS=0 or TILESCOPE_HOPPER_PINGPONG=1, read by the passes and codegen that
// own them). A compile under any of them says so in a note, and an exported project records
// them, so code, timings and projects made with a switch set are not mistaken for the default
// ones. The list is explicit (variables that locate files or set runtime limits, or that nothing
// reads any more, are not switches); a unit test checks it names every variable compiler/ reads.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ts {

/// The TILESCOPE_* variables that change generated code or the cubin, sorted.
const std::vector<std::string>& knownCodegenSwitches();

/// The codegen-affecting TILESCOPE_* variables set (non-empty) in this process's environment,
/// as (name, value), sorted by name.
std::vector<std::pair<std::string, std::string>> codegenSwitchesFromEnv();

/// "NAME=value, NAME=value" of codegenSwitchesFromEnv(), or "" when none is set.
std::string describeCodegenSwitches();

}  // namespace ts
