// Screenshot mode of the tilescope executable (docs/screenshots, CI smoke): command-line options
// that set up a scene — window size, theme, selected pass, IR or diff (side by side / unified),
// a focused source line, an edit that introduces an error, a single panel to grab — then wait
// for the compile to finish, render the window (or the panel) to a PNG, and exit.
#pragma once
#include <QSize>
#include <QString>

class QCommandLineParser;

namespace ts::gui {

class MainWindow;

struct ScreenshotOptions {
    QString out;  ///< PNG path; empty = screenshot mode off
    QSize size{1600, 1000};
    QString theme = "light";
    QString pass;  ///< pass name or 1-based number to select
    bool diff = false, unified = false;
    int focusLine = 0;  ///< 1-based source line to put the caret on (cross-highlighting)
    QString panel;      ///< grab only this panel ("passes", "generated", ...); empty = window
    QString replace;    ///< "old=>new": edit the text before the compile (error screenshots)
    QString raise;      ///< dock to show in front of its tab group ("problems", "run")
    QString workspace;  ///< workspace to switch to first (PanelRegistry.h kWorkspace*)
    QString maximize;   ///< view to maximise (a panel id or "editor")
    bool run = false;   ///< press Run (F5) and wait for it to finish before the grab
    QString target;     ///< codegen target ("cuda:sm_90a"); empty = the saved one
    QString kernel;     ///< kernel of a multi-kernel file to select (Session::setKernel)
    QString measured;   ///< tilec banks --measure --json file to show in the Banks panel
    QString trace;      ///< tilec trace JSON to load into the Timeline panel
    QString axisRange;  ///< "FROM:TO": the Timeline panel's axis range (default: all of it)
    QString buffer;     ///< Layout panel entry: a buffer name or a hardware spec ("mfma_c")
    QString error;      ///< a malformed option (--size, --theme), reported by runScreenshot (exit 1)
    bool enabled() const { return !out.isEmpty(); }

    static void addTo(QCommandLineParser& p);
    static ScreenshotOptions from(const QCommandLineParser& p);
};

/// Sets up the scene on `w`, waits for the compile (at most 60 s), saves the PNG; returns the
/// process exit code (0 on success).
int runScreenshot(MainWindow& w, const ScreenshotOptions& o);

}  // namespace ts::gui
