// Crash safety (issue 3 item 9): while a document has unsaved changes, its text is autosaved every
// few seconds to a recovery file (JSON: original path, text, time, owning process id) under the
// app-data folder. Saving or closing cleanly deletes it. On start, recovery files left by a
// process that is no longer running are offered back to the user; files of a live process (a
// second IDE window) are left alone.
#pragma once
#include <QDateTime>
#include <QObject>
#include <QString>
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
    /// Autosaves `session` into `dir` (default: <AppDataLocation>/recovery) every `intervalMs`.
    explicit Recovery(Session& session, QString dir = {}, int intervalMs = 3000,
                      QObject* parent = nullptr);
    ~Recovery() override;

    /// Recovery files of processes that are gone (crashed or killed), newest first.
    QList<RecoveryEntry> orphans() const;
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
