// Runs ts::compile() off the UI thread (DESIGN.md §4). Requests are debounced (typing bursts
// refresh the views once), tagged with an increasing number, and executed one at a time on a
// private one-thread pool. A newer request cancels the queued one and raises the cancel flag of
// the running one (CompileOptions::cancel, polled by the pass manager between passes); a result
// whose tag is not the latest is dropped, so the UI only ever sees the compile of the latest text.
//
// A speculative request (cheap compiles, Session decides) starts compiling at once instead of
// after the debounce; its result is held until the debounce has expired and is delivered then,
// so the views still refresh once per burst, after the same quiet time, but the compile itself
// is no longer on the path from the last keystroke to the refreshed views (issue 15 latency).
#pragma once
#include <QElapsedTimer>
#include <QObject>
#include <QThreadPool>
#include <QTimer>
#include <atomic>
#include <functional>
#include <memory>

#include "compiler/Compile.h"

namespace ts::gui {

using ResultPtr = std::shared_ptr<const CompileResult>;

/// What to compile: path (for diagnostics), the text, and the options (params, target).
struct CompileRequest {
    std::string path;
    std::string text;
    CompileOptions options;  ///< `cancel` is set by the worker
};

class CompileWorker : public QObject {
    Q_OBJECT
public:
    /// The compile function; ts::compile by default, replaceable for tests (a slow fake to
    /// exercise cancellation).
    using CompileFn = std::function<CompileResult(const std::string& path, const std::string& text,
                                                  const CompileOptions& opts)>;

    explicit CompileWorker(QObject* parent = nullptr);
    ~CompileWorker() override;

    /// Compiles `req` after `debounceMs` of quiet (0: as soon as the pool is free). Supersedes
    /// every earlier request. `speculative`: start the compile now (once the pool is free) and
    /// hold its result until `debounceMs` have passed; the result is delivered at the same time
    /// or earlier than without speculation, never before the debounce. Returns the request's tag.
    quint64 schedule(CompileRequest req, int debounceMs, bool speculative = false);
    /// Tag of the latest request (results of other tags are dropped).
    quint64 latestTag() const { return m_tag; }
    /// True while a request is pending, compiling, or its result waits for the debounce.
    bool busy() const { return m_pendingValid || m_running > 0 || m_held != nullptr; }
    /// Blocks until the pool is idle (tests, shutdown). Does not deliver results.
    void waitForIdle();
    void setCompileFunction(CompileFn fn) { m_compile = std::move(fn); }
    /// Number of results dropped as stale, and of compiles that ended cancelled (statistics).
    int droppedCount() const { return m_dropped; }

signals:
    /// A compile of `tag` began on the worker thread.
    void started(quint64 tag);
    /// The latest request's result. `latencyMs` runs from the request (the edit) to delivery;
    /// `compileMs` is the compile itself.
    void finished(quint64 tag, ts::gui::ResultPtr result, double latencyMs, double compileMs);

private:
    void launch();
    void debounceExpired();
    void deliver(quint64 tag, ResultPtr result, double compileMs);
    void emitFinished(quint64 tag, ResultPtr result, double compileMs);

    CompileFn m_compile;
    QThreadPool m_pool;
    QTimer m_debounce;
    quint64 m_tag = 0;
    CompileRequest m_pending;
    bool m_pendingValid = false;
    bool m_speculative = false;  ///< the latest request compiles before its debounce expires
    ResultPtr m_held;            ///< the latest request's result, waiting for the debounce
    double m_heldCompileMs = 0;
    int m_running = 0;
    int m_dropped = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;  ///< flag of the running/last launched job
    QElapsedTimer m_clock;
    qint64 m_requestedAtNs = 0;  ///< when the latest request was scheduled
};

}  // namespace ts::gui

Q_DECLARE_METATYPE(ts::gui::ResultPtr)
