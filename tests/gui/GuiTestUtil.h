// Helpers shared by the QtTest programs in tests/gui/: reading repository files through
// TS_SOURCE_DIR and waiting, with the event loop running, for a session's background compile.
#pragma once
#include <QElapsedTimer>
#include <QFile>
#include <QString>
#include <QtTest>

#include "app/gui/Session.h"

namespace ts::gui::test {

/// Text of `rel` (relative to the repository root); empty when missing.
inline QString readFile(const QString& rel) {
    QFile f(QStringLiteral(TS_SOURCE_DIR) + "/" + rel);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

/// True once `s` holds a result and no compile is running; false after `ms` milliseconds.
inline bool waitCompiled(Session& s, int ms = 20000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        QTest::qWait(5);
        if (s.result() && !s.compiling()) return true;
    }
    return false;
}

}  // namespace ts::gui::test
