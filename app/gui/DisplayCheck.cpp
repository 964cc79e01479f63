#include "app/gui/DisplayCheck.h"

#include <cstdlib>
#include <cstring>

namespace ts::gui {

namespace {
bool envSet(const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
}
}  // namespace

DisplayChoice chooseQtPlatform(int argc, char** argv) {
    DisplayChoice c;
    for (int i = 1; i < argc; ++i)
        if (!std::strcmp(argv[i], "-platform") || !std::strcmp(argv[i], "--platform") ||
            !std::strncmp(argv[i], "-platform=", 10))
            c.userChosePlatform = true;
    if (envSet("QT_QPA_PLATFORM")) c.userChosePlatform = true;
    if (c.userChosePlatform) return c;
    if (envSet("WAYLAND_DISPLAY")) return c;  // Qt chooses wayland or xcb (XWayland) itself
    if (!envSet("DISPLAY")) {
        c.reason = "DISPLAY and WAYLAND_DISPLAY are not set";
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    } else {
        // Qt 6 tries a ';'-separated list in order: a DISPLAY that names no running X server
        // (a stale ssh -X variable, a stopped Xvfb) ends on offscreen instead of abort().
        setenv("QT_QPA_PLATFORM", "xcb;offscreen", 1);
    }
    return c;
}

QString noDisplayMessage(const DisplayChoice& c) {
    QString why = c.reason.isEmpty()
                      ? QString("cannot connect to the X display '%1'")
                            .arg(QString::fromLocal8Bit(std::getenv("DISPLAY")))
                      : c.reason;
    return QString(
               "tilescope: error: no display to open the window on (%1); run it in a desktop "
               "session, or under `xvfb-run -a tilescope ...`; without a display, `--screenshot "
               "OUT.png` and `tilec` (the same compiler on the command line) work")
        .arg(why);
}

}  // namespace ts::gui
