// The IDE side of the kill -9 recovery test (tests/gui/kill9/kill9_recovery.sh, issue 14). It builds
// the IDE's real main window (editor, session, autosave, recovery dialog) as app/gui/main.cpp does
// and plays a user:
//   gui_kill9_driver type FILE LOG [SEED]   opens FILE, types letters and spaces at its end with
//       key events (30-150 ms apart, seeded), appending "<epoch ms> <char>" to LOG after each key
//       has reached the editor; runs until it is killed.
//   gui_kill9_driver recover FILE OUT       starts as the IDE does after a crash: opens FILE, then
//       offerRecovery(), answering every dialog (Recover, or OK for a corrupt-file report); writes
//       the editor's text to OUT and prints "recovered N, dialogs D".
// Recovery files go to <AppDataLocation>/recovery: the script gives each run its own XDG_DATA_HOME.
#include <QAbstractButton>
#include <QApplication>
#include <QDateTime>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QRandomGenerator>
#include <QTimer>
#include <QtTest>
#include <cstdio>

#include <fcntl.h>
#include <unistd.h>

#include "app/gui/MainWindow.h"
#include "app/gui/Session.h"
#include "app/gui/SourceEditor.h"

namespace {

int usage() {
    std::fprintf(stderr, "usage: gui_kill9_driver type FILE LOG [SEED] | recover FILE OUT\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("TileScope");
    QApplication::setApplicationName("TileScope");
    if (argc < 4) return usage();
    const QString mode = argv[1], file = argv[2], out = argv[3];
    if (mode != "type" && mode != "recover") return usage();

    ts::gui::MainWindow w(/*restoreLayout=*/false);
    if (!w.openFile(file, /*force=*/true)) {
        std::fprintf(stderr, "gui_kill9_driver: cannot open %s\n", qPrintable(file));
        return 2;
    }
    w.show();
    ts::gui::SourceEditor* ed = w.editor();

    if (mode == "type") {
        const int fd = ::open(argv[3], O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd < 0) return 2;
        QRandomGenerator rng(argc > 4 ? quint32(std::atoi(argv[4])) : 1u);
        static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz ";
        auto* timer = new QTimer(&w);
        timer->setSingleShot(true);
        QObject::connect(timer, &QTimer::timeout, &w, [&, timer] {
            const char c = alphabet[rng.bounded(int(sizeof alphabet) - 1)];
            const int last = ed->lines() - 1;
            ed->setCursorPosition(last, ed->text(last).size());
            QTest::keyClick(ed, c);
            char line[64];
            const int n = std::snprintf(line, sizeof line, "%lld %c\n",
                                        QDateTime::currentMSecsSinceEpoch(), c);
            if (::write(fd, line, size_t(n)) != n) std::perror("gui_kill9_driver: log");
            timer->start(30 + rng.bounded(121));
        });
        QTimer::singleShot(0, &w, [ed, timer] {
            ed->setFocus();
            timer->start(30);
        });
        return app.exec();
    }

    // recover: answer each dialog offerRecovery() opens, then report what the editor holds.
    int dialogs = 0;
    QTimer answer;
    answer.setInterval(20);
    QObject::connect(&answer, &QTimer::timeout, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return;
        QAbstractButton* pick = nullptr;
        for (QAbstractButton* b : box->buttons()) {
            const auto role = box->buttonRole(b);
            if (role == QMessageBox::AcceptRole && !pick) pick = b;
        }
        if (!pick) return;
        std::fprintf(stderr, "gui_kill9_driver: dialog '%s': %s\n", qPrintable(box->windowTitle()),
                     qPrintable(pick->text()));
        ++dialogs;
        pick->click();
    });
    answer.start();
    int recovered = 0;
    QTimer::singleShot(0, &w, [&] {
        recovered = w.offerRecovery();
        QFile f(out);
        if (!f.open(QIODevice::WriteOnly)) std::_Exit(2);
        f.write(w.session().text().toUtf8());
        f.close();
        std::printf("recovered %d, dialogs %d\n", recovered, dialogs);
        std::fflush(stdout);
        // Leave as a killed IDE would not: no save prompt, nothing else to check here.
        std::_Exit(0);
    });
    return app.exec();
}
