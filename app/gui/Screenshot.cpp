// Screenshot mode (Screenshot.h).
#include "app/gui/Screenshot.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDeadlineTimer>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QPixmap>
#include <QThread>
#include <cstdio>

#include "app/gui/BankPanel.h"
#include "app/gui/BarrierPanel.h"
#include "app/gui/LayoutPanel.h"
#include "app/gui/MainWindow.h"
#include "app/gui/PassExplorer.h"
#include "app/gui/RunPanel.h"
#include "app/gui/Session.h"
#include "app/gui/SourceEditor.h"
#include "app/gui/TimelinePanel.h"
#include "app/gui/Workspaces.h"
#include "compiler/Compile.h"
#include "compiler/target/Target.h"
#include "visualizer/widgets/BankHeatmapWidget.h"
#include "visualizer/widgets/TimelineWidget.h"

namespace ts::gui {

void ScreenshotOptions::addTo(QCommandLineParser& p) {
    p.addOption(
        {"screenshot", "Render the window to <png> after the first compile and exit.", "png"});
    p.addOption({"size", "Window size for --screenshot (default 1600x1000).", "WxH"});
    p.addOption({"theme", "light | dark (screenshot mode).", "name"});
    p.addOption({"pass", "Select this pass (name or 1-based number).", "pass"});
    p.addOption({"diff", "Show the selected pass as a diff."});
    p.addOption({"unified", "Unified diff instead of side by side."});
    p.addOption({"focus-line", "Put the caret on this source line.", "line"});
    p.addOption({"panel",
                 "Grab only this panel (passes, generated, params, problems, run, ...; "
                 "banks.heatmap: the bank heatmap alone).",
                 "id"});
    p.addOption(
        {"replace", "Edit the text before compiling: 'old=>new' (first occurrence).", "edit"});
    p.addOption({"raise", "Show this dock at the front of its tab group.", "id"});
    p.addOption(
        {"workspace", "Switch to this workspace (author, inspect, layout, debug, profile).", "id"});
    p.addOption({"maximize", "Maximise this view (a panel id or 'editor').", "id"});
    p.addOption({"run", "Run the program (F5) and wait for the result before the grab."});
    p.addOption({"target", "Codegen target (cuda:sm_80, cuda:sm_90a, hip:gfx90a) for the screenshot.", "t"});
    p.addOption(
        {"kernel", "Select this kernel of a multi-kernel file (Parameters panel).", "name"});
    p.addOption(
        {"measured", "Load this tilec banks --measure --json file into the Banks panel.", "json"});
    p.addOption({"trace", "Load this tilec trace JSON into the Timeline panel.", "json"});
    p.addOption({"axis-range", "Show this range of the Timeline panel's axis (FROM:TO).", "range"});
    p.addOption({"buffer",
                 "Show this buffer (e.g. C_local, an MFMA accumulator on hip:gfx90a) or hardware "
                 "layout (mma_c, mfma_c, ...) in the Layout panel.",
                 "name"});
}

ScreenshotOptions ScreenshotOptions::from(const QCommandLineParser& p) {
    ScreenshotOptions o;
    o.out = p.value("screenshot");
    // Malformed values were accepted silently (helper-108: --size 0x0 came out 854x575, --theme
    // purple light): runScreenshot reports o.error instead.
    if (p.isSet("size")) {
        QStringList wh = p.value("size").split('x');
        bool okW = false, okH = false;
        const int w = wh.size() == 2 ? wh[0].toInt(&okW) : 0, h = wh.size() == 2 ? wh[1].toInt(&okH) : 0;
        if (okW && okH && w >= 200 && h >= 150 && w <= 8192 && h <= 8192)
            o.size = QSize(w, h);
        else
            o.error = "--size " + p.value("size") + ": expected WxH, each 200..8192 (e.g. 1600x1000)";
    }
    for (const char* opt : {"target", "kernel", "pass", "panel", "workspace", "buffer"})  // as tilec: an empty value is a mistake
        if (p.isSet(opt) && p.value(opt).trimmed().isEmpty()) o.error = QString("--") + opt + ": an empty value (leave the option out for its default)";
    if (p.isSet("theme")) {
        o.theme = p.value("theme");
        if (o.theme != "light" && o.theme != "dark") o.error = "--theme " + o.theme + ": expected light or dark";
    }
    o.pass = p.value("pass");
    o.diff = p.isSet("diff");
    o.unified = p.isSet("unified");
    o.focusLine = p.value("focus-line").toInt();
    o.panel = p.value("panel");
    o.workspace = p.value("workspace");
    o.maximize = p.value("maximize");
    o.replace = p.value("replace");
    o.raise = p.value("raise");
    o.run = p.isSet("run");
    o.target = p.value("target");
    o.kernel = p.value("kernel");
    o.measured = p.value("measured");
    o.buffer = p.value("buffer");
    o.trace = p.value("trace");
    o.axisRange = p.value("axis-range");
    return o;
}

namespace {

// Runs the event loop until the session has a result and no compile is pending.
bool waitForCompile(Session& s, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        if (s.result() && !s.compiling()) return true;
        QThread::msleep(5);
    }
    return false;
}

void settle(int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) QApplication::processEvents(QEventLoop::AllEvents, 20);
}

}  // namespace

int runScreenshot(MainWindow& w, const ScreenshotOptions& o) {
    if (!o.error.isEmpty()) {
        std::fprintf(stderr, "tilescope: %s\n", qPrintable(o.error));
        return 1;
    }
    if (!o.target.isEmpty() && !parseTarget(o.target.toStdString())) {
        std::fprintf(stderr, "tilescope: --target %s: not a target (cuda:sm_80, cuda:sm_90a, hip:gfx90a)\n", qPrintable(o.target));
        return 1;
    }
    w.setTheme(o.theme);
    w.resize(o.size);
    w.show();
    if (!o.workspace.isEmpty()) {
        w.workspaces()->switchTo(o.workspace);
        if (w.workspaces()->current() != o.workspace) {
            std::fprintf(stderr, "tilescope: no workspace '%s'\n", qPrintable(o.workspace));
            return 1;
        }
    }
    if (!o.raise.isEmpty()) w.showPanel(o.raise);
    if (!o.maximize.isEmpty()) w.workspaces()->maximize(o.maximize);
    Session& s = w.session();
    if (!o.target.isEmpty()) s.setTarget(o.target);
    if (!o.kernel.isEmpty()) {
        waitForCompile(s, 60000);  // the kernel list comes with the first result
        // An unknown name was set anyway, and its pragma written into the document.
        std::string names;
        bool known = false;
        if (auto r = s.result())
            for (const ProgramKernel& k : r->kernels) {
                known |= k.name == o.kernel.toStdString();
                names += (names.empty() ? "" : ", ") + k.name;
            }
        if (!known) {
            std::fprintf(stderr, "tilescope: --kernel %s: no such kernel in this file (kernels: %s)\n", qPrintable(o.kernel), names.c_str());
            return 1;
        }
        s.setKernel(o.kernel.toStdString());
    }
    if (!o.replace.isEmpty()) {
        QStringList parts = o.replace.split("=>");
        if (parts.size() == 2 && parts[0].isEmpty()) {  // "" is found at offset 0: NEW was inserted at the top
            std::fprintf(stderr, "tilescope: --replace: OLD is empty (expected OLD=>NEW)\n");
            return 1;
        }
        if (parts.size() == 2) {
            waitForCompile(s, 60000);
            QString text = s.text();
            int at = text.indexOf(parts[0]);
            if (at < 0) {  // the screenshot would show the unedited file
                std::fprintf(stderr, "tilescope: --replace: '%s' is not in the file\n", qPrintable(parts[0]));
                return 1;
            }
            text.replace(at, parts[0].size(), parts[1]);
            w.editor()->setText(text);  // goes through the editor like typing
        } else {
            std::fprintf(stderr, "tilescope: --replace: expected OLD=>NEW\n");
            return 1;
        }
    }
    if (!waitForCompile(s, 60000)) {
        std::fprintf(stderr, "tilescope: compile did not finish within 60 s\n");
        return 1;
    }
    auto r = s.shown();
    if (!o.pass.isEmpty()) {
        bool isNumber = false;
        int n = o.pass.toInt(&isNumber);
        int index = -1;
        if (isNumber) index = n - 1;
        for (size_t i = 0; !isNumber && i < r->passes.size(); ++i)
            if (QString::fromStdString(r->passes[i].name) == o.pass) index = int(i);
        if (index < 0 || index >= int(r->passes.size())) {
            std::fprintf(stderr, "tilescope: no pass '%s'\n", qPrintable(o.pass));
            return 1;
        }
        s.selectPass(index);
    }
    // --panel names a panel the workspace leaves closed or behind another tab: bring it up before
    // the waits below (a hidden dock was grabbed as a few pixels, helper-109).
    if (!o.panel.isEmpty()) {
        const QString id = o.panel == "banks.heatmap" ? QString("banks") : o.panel;
        if (!w.dock(id)) {
            std::fprintf(stderr, "tilescope: no panel '%s'\n", qPrintable(o.panel));
            return 1;
        }
        if (!w.panelOnScreen(id)) {
            w.showPanel(id);
            settle(200);
        }
    }
    if (auto* explorer = qobject_cast<PassExplorer*>(w.panel("passes"))) {
        explorer->setDiffMode(o.diff);
        if (o.unified) explorer->setUnified(true);  // else the width decides (PassExplorer.h)
    }
    if (o.focusLine > 0) w.editor()->goTo(o.focusLine);
    if (!o.buffer.isEmpty()) {
        auto* lp = qobject_cast<LayoutPanel*>(w.panel("layout"));
        if (!lp || !(lp->selectBuffer(o.buffer) || lp->selectHardwareLayout(o.buffer))) {
            std::fprintf(stderr, "tilescope: --buffer %s: the Layout panel has no such entry (buffers: %s; hardware: %s)\n",
                         qPrintable(o.buffer), lp ? qPrintable(lp->buffers().join(", ")) : "",
                         lp ? qPrintable(lp->hardwareLayouts().join(", ")) : "");
            return 1;
        }
    }
    if (o.run) {
        auto* rp = qobject_cast<RunPanel*>(w.panel("run"));
        if (rp) {
            bool done = false;
            QObject::connect(rp, &RunPanel::finished, [&done] { done = true; });
            w.action("run.run")->trigger();
            QElapsedTimer t;
            t.start();
            while (!done && t.elapsed() < 300000)
                QApplication::processEvents(QEventLoop::AllEvents, 50);
        }
    }
    if (auto* bp = qobject_cast<BankPanel*>(w.panel("banks")); bp && !o.measured.isEmpty()) {
        // The bank analysis runs off the UI thread: wait for its table, then load.
        QElapsedTimer t;
        t.start();
        while (bp->model()->rowCount() == 0 && t.elapsed() < 20000)
            QApplication::processEvents(QEventLoop::AllEvents, 50);
        QString why;
        if (!bp->loadMeasured(o.measured, &why)) {
            std::fprintf(stderr, "tilescope: %s\n", qPrintable(why));
            return 1;
        }
    }
    if (auto* bp = qobject_cast<BankPanel*>(w.panel("banks"));
        bp && w.panelOnScreen("banks") && o.measured.isEmpty()) {
        QElapsedTimer t;  // the bank analysis runs off the UI thread
        t.start();
        while (bp->model()->rowCount() == 0 && t.elapsed() < 20000)
            QApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    // The Timeline and Barrier panels compute off the UI thread: wait for their pictures.
    if (auto* tp = qobject_cast<TimelinePanel*>(w.panel("timeline")); tp && w.panelOnScreen("timeline")) {
        QElapsedTimer t;
        t.start();
        while ((tp->pending() || !tp->timeline()) && t.elapsed() < 30000) QApplication::processEvents(QEventLoop::AllEvents, 50);
        if (!o.trace.isEmpty()) {
            QString why;
            if (!tp->loadTrace(o.trace, &why)) {
                std::fprintf(stderr, "tilescope: %s\n", qPrintable(why));
                return 1;
            }
        }
    }
    if (auto* tp = qobject_cast<TimelinePanel*>(w.panel("timeline")); tp && !o.axisRange.isEmpty()) {
        settle(200);  // the dock has its final size
        const QStringList r = o.axisRange.split(':');
        if (r.size() == 2) tp->widget()->showRange(r[0].toDouble(), r[1].toDouble());
    }
    if (auto* bp = qobject_cast<BarrierPanel*>(w.panel("barriers")); bp && w.panelOnScreen("barriers")) {
        QElapsedTimer t;
        t.start();
        while (bp->pending() && t.elapsed() < 30000) QApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    settle(300);
    QWidget* target = &w;
    if (o.panel == "banks.heatmap") {
        // The heatmap alone at its own size (grab renders it whole, also where the panel's
        // scroll area would clip it), at 100% zoom (the default cell size, not the panel's
        // fit-to-view size): the "legible at 100%" picture of issue 15.
        auto* bp = qobject_cast<BankPanel*>(w.panel("banks"));
        if (bp) {
            bp->heatmap()->resetZoom();
            settle(50);
        }
        target = bp ? static_cast<QWidget*>(bp->heatmap()) : nullptr;
        if (!target) {
            std::fprintf(stderr, "tilescope: no Banks panel\n");
            return 1;
        }
    } else if (!o.panel.isEmpty()) {
        target = w.dock(o.panel);
        if (!target) {
            std::fprintf(stderr, "tilescope: no panel '%s'\n", qPrintable(o.panel));
            return 1;
        }
    }
    QPixmap png = target->grab();
    if (!png.save(o.out)) {
        std::fprintf(stderr, "tilescope: cannot write %s\n", qPrintable(o.out));
        return 1;
    }
    std::fprintf(stderr, "tilescope: wrote %s (%dx%d)\n", qPrintable(o.out), png.width(),
                 png.height());
    // The window cannot be smaller than its docks' minimum: say so rather than let the picture's
    // size differ silently from --size (helper-109: 800x600 came out 854x600).
    if (target == &w && o.size != w.size())
        std::fprintf(stderr, "tilescope: note: --size %dx%d: the window's panels need more room; the picture is %dx%d\n",
                     o.size.width(), o.size.height(), png.width(), png.height());
    return 0;
}

}  // namespace ts::gui
