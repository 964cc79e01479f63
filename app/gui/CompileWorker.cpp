// Debounced, cancellable, tagged background compiles (CompileWorker.h).
#include "app/gui/CompileWorker.h"

#include <QMetaObject>

namespace ts::gui {

CompileWorker::CompileWorker(QObject* parent) : QObject(parent) {
    m_compile = [](const std::string& path, const std::string& text, const CompileOptions& opts) {
        return ts::compile(path, text, opts);
    };
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);  // keep the thread: its stack and caches stay warm
    m_debounce.setSingleShot(true);
    // The debounce is on the path from the last keystroke to the refreshed views: no 5% slack.
    m_debounce.setTimerType(Qt::PreciseTimer);
    connect(&m_debounce, &QTimer::timeout, this, &CompileWorker::debounceExpired);
    m_clock.start();
}

CompileWorker::~CompileWorker() {
    if (m_cancel) m_cancel->store(true);
    m_pool.waitForDone();
}

quint64 CompileWorker::schedule(CompileRequest req, int debounceMs, bool speculative) {
    ++m_tag;
    m_pending = std::move(req);
    m_pendingValid = true;
    m_speculative = speculative && debounceMs > 0;
    m_held.reset();  // a held result is for older text
    m_requestedAtNs = m_clock.nsecsElapsed();
    // The running compile is for older text: stop it at the next pass boundary.
    if (m_cancel) m_cancel->store(true);
    m_debounce.start(std::max(0, debounceMs));
    if (m_speculative) launch();  // starts now, or when the cancelled compile has unwound
    return m_tag;
}

void CompileWorker::debounceExpired() {
    if (m_held) {  // a speculative compile of the latest text finished during the debounce
        ResultPtr r = std::move(m_held);
        m_held.reset();
        emitFinished(m_tag, std::move(r), m_heldCompileMs);
        return;
    }
    launch();  // no-op while the latest request's (speculative) compile is still running
}

void CompileWorker::launch() {
    if (!m_pendingValid) return;
    // One compile at a time: if the previous one is still unwinding, wait for it (it was
    // cancelled when this request came in, so this is short). deliver() relaunches.
    if (m_running > 0) return;
    m_pendingValid = false;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    CompileRequest req = std::move(m_pending);
    req.options.cancel = cancel.get();
    const quint64 tag = m_tag;
    ++m_running;
    // The destructor waits for the pool, so `self` outlives the job; a result posted after the
    // destructor began is discarded by Qt together with its context object.
    CompileWorker* self = this;
    CompileFn fn = m_compile;
    emit started(tag);
    m_pool.start([self, fn, req = std::move(req), cancel, tag]() {
        QElapsedTimer t;
        t.start();
        auto result = std::make_shared<CompileResult>(fn(req.path, req.text, req.options));
        double ms = t.nsecsElapsed() / 1e6;
        // `cancel` is captured so the flag outlives the compile that polls it.
        QMetaObject::invokeMethod(
            self, [self, tag, result, ms, cancel]() { self->deliver(tag, result, ms); },
            Qt::QueuedConnection);
    });
}

void CompileWorker::deliver(quint64 tag, ResultPtr result, double compileMs) {
    --m_running;
    if (tag == m_tag && !result->cancelled) {
        if (m_debounce.isActive()) {  // speculative: the views refresh when the debounce ends
            m_held = std::move(result);
            m_heldCompileMs = compileMs;
        } else {
            emitFinished(tag, std::move(result), compileMs);
        }
    } else {
        ++m_dropped;
    }
    // A request that arrived while this one ran: speculative, or its debounce already expired.
    if (m_pendingValid && (m_speculative || !m_debounce.isActive())) launch();
}

void CompileWorker::emitFinished(quint64 tag, ResultPtr result, double compileMs) {
    double latency = (m_clock.nsecsElapsed() - m_requestedAtNs) / 1e6;
    emit finished(tag, std::move(result), latency, compileMs);
}

void CompileWorker::waitForIdle() { m_pool.waitForDone(); }

}  // namespace ts::gui
