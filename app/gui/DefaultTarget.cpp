// Default codegen target from the attached GPU (DefaultTarget.h).
#include "app/gui/DefaultTarget.h"

#include <algorithm>

#include "profiler/cuda/Devices.h"

namespace ts::gui {

const std::vector<QString>& codegenTargets() {
    // hip:gfx90a: AMD CDNA2 through HIP (compiled with hiprtc, run on the thread interpreter).
    static const std::vector<QString> list = {QStringLiteral("cuda:sm_80"),
                                              QStringLiteral("cuda:sm_90a"),
                                              QStringLiteral("hip:gfx90a")};
    return list;
}

QString defaultTargetFor(const std::vector<rt::DeviceInfo>& devices) {
    const QString fallback = QStringLiteral("cuda:sm_80");
    if (devices.empty()) return fallback;
    const QString t = QStringLiteral("cuda:") + QString::fromStdString(rt::archFor(devices[0]));
    const auto& all = codegenTargets();
    return std::find(all.begin(), all.end(), t) != all.end() ? t : fallback;
}

QString attachedGpuTarget() {
    static const QString target = defaultTargetFor(rt::listDevices());
    return target;
}

}  // namespace ts::gui
