// Crash safety (issue 3 item 9): while a document has unsaved changes, its text is autosaved every
// few seconds to a recovery file (JSON: original path, text, time, owning process id) under the
// app-data folder. Saving or closing cleanly deletes it. On start, recovery files left by a
// process that is no longer running are offered back to the user; files of a live process (a
// second IDE window) are left alone. A recovery file that cannot be read back (not JSON, no text)
// is set aside as corrupt-<name> and reported, never loaded.
#pragma once
#include <QDateTime>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

namespace ts::gui {

class Session;

/// One unsaved document found on start.
struct RecoveryEntry {
    QString file;       ///< the recovery file itself
    QString path;       ///< the document's path (empty for an untitled document)
    QString text;       ///< its unsaved text
    QDateTime savedAt;  ///< when it was autosaved
};

class Recovery : public QObject {
    Q_OBJECT
public:
    /// The IDE's autosave period. Issue 14: a kill -9 may lose at most the last 3 s of typing;
    /// 1 s leaves room for a tick delayed by a busy event loop.
    static constexpr int kAutosaveMs = 1000;

    /// Autosaves `session` into `dir` (default: <AppDataLocation>/recovery) every `intervalMs`
    /// (the IDE uses kAutosaveMs: a kill -9 loses at most about that much typing).
    explicit Recovery(Session& session, QString dir = {}, int intervalMs = 3000,
                      QObject* parent = nullptr);
    ~Recovery() override;

    /// Recovery files of processes that are gone (crashed or killed), newest first. Corrupt files
    /// are skipped here; setAsideCorrupt() moves them out of the way.
    QList<RecoveryEntry> orphans() const;
    /// Renames every corrupt recovery file (unreadable, not a JSON object, no "text" string) of a
    /// dead process to corrupt-<name> in the same folder and returns the new paths; also deletes
    /// half-written temporaries (unsaved-<pid>.json.XXXXXX) that a killed process left behind.
    QStringList setAsideCorrupt();
    /// Deletes one recovery file (after it was recovered or declined).
    static void discard(const RecoveryEntry& e);
    /// Writes the recovery file now if the document is modified (also called by the timer).
    void autosaveNow();
    /// Deletes this process's recovery file (document saved or closed cleanly).
    void clear();
    QString fileName() const { return m_file; }
    const QString& dir() const { return m_dir; }

private:
    Session& m_session;
    QString m_dir, m_file;
    QTimer m_timer;
    QString m_lastWritten;
};

}  // namespace ts::gui
