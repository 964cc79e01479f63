// Whether the IDE has a screen to open its window on, decided before QApplication exists.
// Without a display Qt's xcb plugin aborts the process ("could not connect to display"), so
// `tilescope --help` and `--version` died on a headless box before printing anything. Here the
// platform falls back to Qt's offscreen plugin instead: --help, --version and --screenshot
// (which renders offscreen anyway) work with no display, and opening the window is refused with
// one clear line (noDisplayMessage) instead of an abort.
#pragma once
#include <QString>

namespace ts::gui {

struct DisplayChoice {
    /// The user picked the Qt platform (QT_QPA_PLATFORM or -platform): left alone.
    bool userChosePlatform = false;
    /// Why no display can be used, when known before trying ("DISPLAY and WAYLAND_DISPLAY are
    /// not set"); empty when one is set (it may still be unreachable: see noDisplayMessage).
    QString reason;
};

/// Sets QT_QPA_PLATFORM for the QApplication about to be made from argc/argv: "offscreen"
/// when neither DISPLAY nor WAYLAND_DISPLAY is set; "xcb;offscreen" (xcb, as Qt would pick,
/// falling back to offscreen when the X server cannot be reached) when only DISPLAY is set.
/// A Wayland session and an explicit platform choice are left to Qt.
DisplayChoice chooseQtPlatform(int argc, char** argv);

/// The one-line error for "the window needs a display and there is none" (after QApplication
/// ended up on the offscreen platform without the user asking for it).
QString noDisplayMessage(const DisplayChoice& c);

}  // namespace ts::gui
