// Autosave and crash recovery (app/gui/Recovery.h): a modified document is autosaved, saving
// clears it, a recovery file of a dead process is offered back, one of a live process is not.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/Recovery.h"
#include "app/gui/Session.h"

using namespace ts::gui;

class RecoveryTest : public QObject {
    Q_OBJECT
private slots:
    void autosavesModifiedDocuments() {
        QTemporaryDir dir;
        Session s;
        s.setDebounceMs(100000);  // no compiles needed here
        Recovery r(s, dir.path(), 100000);
        s.openDocument("/tmp/x.py", "a = 1\n");
        r.autosaveNow();
        QVERIFY(!QFile::exists(r.fileName()));  // not modified: nothing to save
        s.setTextFromEditor("a = 2\n");
        r.autosaveNow();
        QVERIFY(QFile::exists(r.fileName()));
        QFile f(r.fileName());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(o["text"].toString(), QString("a = 2\n"));
        QCOMPARE(o["path"].toString(), QString("/tmp/x.py"));
        // Our own file is never an orphan.
        QVERIFY(r.orphans().isEmpty());
        s.markSaved("/tmp/x.py");
        QVERIFY(!QFile::exists(r.fileName()));
    }

    void offersFilesOfDeadProcesses() {
        QTemporaryDir dir;
        auto write = [&](const QString& name, qint64 pid, const QString& text) {
            QJsonObject o;
            o["path"] = "/tmp/gemm.py";
            o["text"] = text;
            o["savedAt"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
            o["pid"] = pid;
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(o).toJson());
        };
        // A pid that cannot exist (above pid_max) stands for a crashed process; pid 1 is alive.
        write("unsaved-999999999.json", 999999999, "crashed text");
        write("unsaved-1.json", 1, "live text");
        Session s;
        Recovery r(s, dir.path(), 100000);
        auto orphans = r.orphans();
        QCOMPARE(orphans.size(), 1);
        QCOMPARE(orphans[0].text, QString("crashed text"));
        QCOMPARE(orphans[0].path, QString("/tmp/gemm.py"));
        Recovery::discard(orphans[0]);
        QVERIFY(r.orphans().isEmpty());
    }
};

QTEST_MAIN(RecoveryTest)
#include "RecoveryTest.moc"
