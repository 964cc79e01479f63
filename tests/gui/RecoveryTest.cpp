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

    // Issue 14: a corrupt recovery file (truncated JSON, not an object, no text) is set aside as
    // corrupt-<name> and reported, never offered; a good one beside it still is; a half-written
    // QSaveFile temporary of a dead process is deleted; a live process's file is left alone.
    void setsAsideCorruptFiles() {
        QTemporaryDir dir;
        auto raw = [&](const QString& name, const QByteArray& bytes) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        raw("unsaved-999999991.json", "{\"path\":\"/tmp/a.py\",\"text\":\"trunc");
        raw("unsaved-999999992.json", "[1,2,3]");
        raw("unsaved-999999993.json", "{\"path\":\"/tmp/c.py\",\"pid\":999999993}");
        raw("unsaved-999999994.json", "{\"path\":\"/tmp/d.py\",\"text\":\"good\",\"pid\":999999994,\"savedAt\":\"2026-12-03T00:00:00.000Z\"}");
        raw("unsaved-999999995.json.Xy12Ab", "{\"path\":\"/tmp/e.py\",\"te");
        raw("unsaved-1.json", "not json, but pid 1 is alive");
        Session s;
        Recovery r(s, dir.path(), 100000);
        QStringList aside = r.setAsideCorrupt();
        aside.sort();
        QCOMPARE(aside, QStringList({dir.filePath("corrupt-unsaved-999999991.json"),
                                     dir.filePath("corrupt-unsaved-999999992.json"),
                                     dir.filePath("corrupt-unsaved-999999993.json")}));
        for (const QString& f : aside) QVERIFY(QFile::exists(f));
        QVERIFY(!QFile::exists(dir.filePath("unsaved-999999991.json")));
        QVERIFY(!QFile::exists(dir.filePath("unsaved-999999995.json.Xy12Ab")));
        QVERIFY(QFile::exists(dir.filePath("unsaved-1.json")));
        auto orphans = r.orphans();
        QCOMPARE(orphans.size(), 1);
        QCOMPARE(orphans[0].text, QString("good"));
        QCOMPARE(orphans[0].path, QString("/tmp/d.py"));
        // Set aside once: a second scan finds nothing more.
        QVERIFY(r.setAsideCorrupt().isEmpty());
    }
};

QTEST_MAIN(RecoveryTest)
#include "RecoveryTest.moc"
