// The codegen target the IDE starts with (issue 15): the attached GPU's architecture when the
// driver reports one the compiler targets (an H200 gets cuda:sm_90a), else cuda:sm_80. A target
// the user picked in Run › Target is remembered and wins over this default.
#pragma once
#include <QString>
#include <vector>

namespace ts::rt {
struct DeviceInfo;
}

namespace ts::gui {

/// The codegen targets of Run › Target, in menu order.
const std::vector<QString>& codegenTargets();

/// "cuda:" + archFor(devices[0]) when that is one of codegenTargets(), else "cuda:sm_80" (pure;
/// tested with made-up devices).
QString defaultTargetFor(const std::vector<rt::DeviceInfo>& devices);

/// defaultTargetFor(rt::listDevices()), queried once per process.
QString attachedGpuTarget();

}  // namespace ts::gui
