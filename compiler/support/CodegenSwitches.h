// The TILESCOPE_* environment variables that change generated code (measurement switches such as
// TILESCOPE_SINK_TMA_WAITS=0 or TILESCOPE_HOPPER_PINGPONG=1, read by the passes and codegen that
// own them). A compile under any of them says so in a note, so code, timings and exported
// projects made with a switch set are not mistaken for the default ones. Every TILESCOPE_*
// variable counts except the few that only locate things or tune the runtime (listed in the .cpp),
// so a new switch is covered without being registered here.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ts {

/// The codegen-affecting TILESCOPE_* variables set (non-empty) in this process's environment,
/// as (name, value), sorted by name.
std::vector<std::pair<std::string, std::string>> codegenSwitchesFromEnv();

/// "NAME=value, NAME=value" of codegenSwitchesFromEnv(), or "" when none is set.
std::string describeCodegenSwitches();

}  // namespace ts
