// tilescope: the desktop IDE. `tilescope [FILE]` opens FILE (default: the last file, else
// samples/gemm.py; a FILE that does not exist is an error, exit status 2). `--screenshot OUT.png` renders the window once the first compile is in and
// exits (used under Xvfb for docs/screenshots); see --help for the options that set the scene.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QSettings>
#include <QTimer>
#include <cstdio>

#include "app/gui/DisplayCheck.h"
#include "app/gui/MainWindow.h"
#include "app/gui/PluginManager.h"
#include "app/gui/Screenshot.h"
#include "app/gui/Session.h"
#include "compiler/support/SourceReader.h"
#include "compiler/support/TextCheck.h"
#include "profiler/store/ResultsStore.h"

int main(int argc, char** argv) {
    // Before QApplication: without a display Qt's xcb plugin aborts, even for --help.
    const ts::gui::DisplayChoice display = ts::gui::chooseQtPlatform(argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName("TileScope");
    QApplication::setApplicationName("TileScope");
    QApplication::setApplicationVersion(QString::fromStdString(ts::rt::versionText()));  // "0.1 (git rev)"

    QCommandLineParser cli;
    cli.setApplicationDescription("TileScope: IDE and visual debugger for TileLang tile kernels");
    cli.addHelpOption();
    cli.addVersionOption();
    cli.addPositionalArgument("file", "Tile program to open (.py)");
    ts::gui::ScreenshotOptions::addTo(cli);
    cli.process(app);

    ts::gui::ScreenshotOptions shot = ts::gui::ScreenshotOptions::from(cli);
    if (shot.enabled()) {
        // Screenshots must not depend on (or change) the user's saved settings.
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           QDir::temp().filePath("tilescope-screenshot-settings"));
        QSettings().clear();
    }

    // Plugins first: their panels must be registered before the main window builds its docks.
    ts::gui::PluginManager::instance().loadAll();
    ts::gui::PluginManager::instance().registerPanels();

    QString file = cli.positionalArguments().value(0);
    // A file named on the command line that is not there is the user's mistake: say so, rather
    // than opening the default sample in its place (a screenshot of gemm.py looked like success).
    if (!file.isEmpty() && !QFileInfo(file).isFile()) {
        std::fprintf(stderr, "tilescope: error: %s: %s\n", qPrintable(file),
                     QFileInfo::exists(file) ? "not a file" : "no such file");
        return 2;
    }
    // A file that is not UTF-8 text: tilec's error, not an editor that replaces the byte (and a
    // modal box a screenshot run would wait on forever).
    if (!file.isEmpty()) {
        const ts::SourceReadResult read = ts::readSourceFile(file.toStdString());
        const auto bad = read.ok() ? ts::firstNonTextByte(read.text) : std::nullopt;
        if (!read.ok() || bad) {
            if (bad)
                std::fprintf(stderr, "tilescope: error: %s:%u:%u: %s (byte 0x%02X)\n  hint: save it as UTF-8 text first\n", qPrintable(file),
                             bad->at.line, bad->at.col, bad->byte == 0 ? "a binary file, not a tile program" : "not UTF-8 text",
                             static_cast<unsigned>(bad->byte));
            else
                std::fprintf(stderr, "tilescope: error: %s: %s\n", qPrintable(file), read.error.c_str());
            return 2;
        }
    }
    // --help/--version have exited in process(); a screenshot renders offscreen anyway. The
    // window itself needs a screen: say so in one line rather than open an invisible one.
    if (!shot.enabled() && !display.userChosePlatform &&
        QGuiApplication::platformName() == QLatin1String("offscreen")) {
        std::fprintf(stderr, "%s\n", qPrintable(ts::gui::noDisplayMessage(display)));
        return 1;
    }
    ts::gui::MainWindow w(/*restoreLayout=*/!shot.enabled());
    if (file.isEmpty() && !shot.enabled()) file = QSettings().value("lastFile").toString();
    if (file.isEmpty() || !QFileInfo::exists(file)) {
        QString samples = ts::gui::MainWindow::samplesDir();
        if (!samples.isEmpty() && QFileInfo::exists(samples + "/gemm.py"))
            file = samples + "/gemm.py";
    }
    if (!file.isEmpty() && QFileInfo::exists(file)) w.openFile(file, /*force=*/true);

    if (shot.enabled()) return ts::gui::runScreenshot(w, shot);
    w.show();
    QTimer::singleShot(0, &w, [&w] { w.offerRecovery(); });
    return app.exec();
}
