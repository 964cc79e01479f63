// Autosave and crash recovery (Recovery.h).
#include "app/gui/Recovery.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QSaveFile>
#include <QStandardPaths>
#include <algorithm>
#include <cerrno>

#include <signal.h>

#include "app/gui/Session.h"
#include "compiler/support/SourceReader.h"

namespace ts::gui {
namespace {

bool processAlive(qint64 pid) {
    if (pid <= 0) return false;
    if (pid == QCoreApplication::applicationPid()) return true;
    // Signal 0 checks existence; EPERM still means the process exists.
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

// Reads one recovery file; false when it is not a usable one (the caller decides what that means).
bool readEntry(const QString& full, QJsonObject& o) {
    // A recovery file holds one document's text, JSON-escaped (up to 6 bytes per byte for
    // \uXXXX): bound the read like an opened file, never read a planted FIFO or device.
    ts::SourceReadResult read = ts::readSourceFile(full.toStdString(), 6 * ts::kMaxSourceBytes);
    if (!read.ok()) return false;
    QJsonParseError err{};
    QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(read.text), &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject()) return false;
    o = doc.object();
    return o["text"].isString();
}

// unsaved-<pid>.json (or a QSaveFile temporary of it): the pid, or -1.
qint64 pidOf(const QString& name) {
    QString rest = name.mid(QStringLiteral("unsaved-").size());
    bool ok = false;
    qint64 pid = rest.left(rest.indexOf('.')).toLongLong(&ok);
    return ok ? pid : -1;
}

}  // namespace

Recovery::Recovery(Session& session, QString dir, int intervalMs, QObject* parent)
    : QObject(parent), m_session(session), m_dir(std::move(dir)) {
    if (m_dir.isEmpty())
        m_dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
    QDir().mkpath(m_dir);
    m_file =
        QDir(m_dir).filePath(QString("unsaved-%1.json").arg(QCoreApplication::applicationPid()));
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &Recovery::autosaveNow);
    m_timer.start();
    // Saved (or reverted to the saved text): nothing to recover any more.
    connect(&session, &Session::modifiedChanged, this, [this](bool modified) {
        if (!modified) clear();
    });
}

Recovery::~Recovery() = default;

void Recovery::autosaveNow() {
    if (!m_session.isModified()) return;
    if (m_session.text() == m_lastWritten) return;
    QJsonObject o;
    o["path"] = m_session.path();
    o["text"] = m_session.text();
    o["savedAt"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    o["pid"] = QCoreApplication::applicationPid();
    QSaveFile f(m_file);
    if (!f.open(QIODevice::WriteOnly)) return;
    f.write(QJsonDocument(o).toJson(QJsonDocument::Compact));
    if (f.commit()) m_lastWritten = m_session.text();
}

void Recovery::clear() {
    QFile::remove(m_file);
    m_lastWritten.clear();
}

QList<RecoveryEntry> Recovery::orphans() const {
    QList<RecoveryEntry> out;
    const QStringList files = QDir(m_dir).entryList({"unsaved-*.json"}, QDir::Files);
    for (const QString& name : files) {
        QString full = QDir(m_dir).filePath(name);
        if (full == m_file) continue;
        QJsonObject o;
        if (!readEntry(full, o) || processAlive(o["pid"].toInteger())) continue;
        RecoveryEntry e;
        e.file = full;
        e.path = o["path"].toString();
        e.text = o["text"].toString();
        e.savedAt = QDateTime::fromString(o["savedAt"].toString(), Qt::ISODateWithMs);
        out << e;
    }
    std::sort(out.begin(), out.end(),
              [](const RecoveryEntry& a, const RecoveryEntry& b) { return a.savedAt > b.savedAt; });
    return out;
}

QStringList Recovery::setAsideCorrupt() {
    QStringList out;
    QDir dir(m_dir);
    for (const QString& name : dir.entryList({"unsaved-*.json.*"}, QDir::Files | QDir::Hidden)) {
        const qint64 pid = pidOf(name);
        if (pid > 0 && !processAlive(pid)) dir.remove(name);
    }
    for (const QString& name : dir.entryList({"unsaved-*.json"}, QDir::Files)) {
        const QString full = dir.filePath(name);
        if (full == m_file) continue;
        QJsonObject o;
        if (readEntry(full, o)) continue;
        // A live process may be the owner (its pid is in the name): leave its file alone.
        const qint64 pid = pidOf(name);
        if (pid > 0 && processAlive(pid)) continue;
        QString target = dir.filePath("corrupt-" + name);
        for (int i = 1; QFile::exists(target); ++i)
            target = dir.filePath(QString("corrupt-%1-%2").arg(i).arg(name));
        if (QFile::rename(full, target)) out << target;
    }
    return out;
}

void Recovery::discard(const RecoveryEntry& e) { QFile::remove(e.file); }

}  // namespace ts::gui
