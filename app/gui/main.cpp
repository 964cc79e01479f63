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

int main(int argc, char** argv) {
    // Before QApplication: without a display Qt's xcb plugin aborts, even for --help.
    const ts::gui::DisplayChoice display = ts::gui::chooseQtPlatform(argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName("TileScope");
    QApplication::setApplicationName("TileScope");
    QApplication::setApplicationVersion("0.1");

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
