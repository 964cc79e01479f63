// The IDE's one source of state (DESIGN.md §4): the document (path, text, saved/modified), the
// parameter values and, in a file with several kernels, the selected kernel (both kept in the
// document's `# tilescope:` pragma, ParamPragma.h), the target, the
// latest CompileResult, and the selection — the selected pass, the pass it is compared with, and
// the "focus" (a source span picked in the editor, the IR, or the generated code). Panels read
// the session and call its setters; they observe its signals and never talk to each other.
// Edits schedule a debounced background compile through CompileWorker.
#pragma once
#include <QObject>
#include <QString>
#include <map>
#include <string>

#include "app/gui/CompileWorker.h"

namespace ts::gui {

/// Which view picked the current focus (views highlight differently for a cursor line than for
/// a statement picked elsewhere; see visualizer/core/CrossRef.h).
enum class FocusOrigin { None, Source, Ir, Generated };

/// A place in the source that every view highlights.
struct Focus {
    Span span;
    FocusOrigin origin = FocusOrigin::None;
};

class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(QObject* parent = nullptr);

    // --- document ---------------------------------------------------------------------------
    const QString& path() const { return m_path; }
    const QString& text() const { return m_text; }
    /// Display name: file name, or "untitled.py".
    QString displayName() const;
    bool isModified() const { return m_modified; }
    /// Replaces the document (open/new); compiles at once. Not modified afterwards.
    void openDocument(const QString& path, const QString& text);
    /// The editor's text changed (typing): schedules a debounced compile.
    void setTextFromEditor(const QString& text);
    /// The document was written to `path` (save / save as).
    void markSaved(const QString& path);
    /// Marks the document modified or not (e.g. after recovering unsaved text).
    void setModified(bool m);

    // --- parameters and target --------------------------------------------------------------
    /// The values stored in the pragma line.
    std::map<std::string, std::string> paramOverrides() const;
    /// Sets (or, with an empty value, resets to default) one parameter by rewriting the pragma
    /// line; emits textReplaced and recompiles.
    void setParam(const std::string& name, const std::string& value);
    /// Removes every parameter override (the pragma's `@kernel`/`@ref` settings stay).
    void resetParams();

    // --- kernel (DESIGN.md §2b) ---------------------------------------------------------------
    /// The kernel compiled in a file with several: the pragma's `@kernel=` (ParamPragma.h), so
    /// `tilec` compiles the same one; empty = the file's default kernel. The list of kernels and
    /// the one actually compiled are in result()->kernels / selectedKernel.
    std::string kernel() const;
    /// Selects the kernel `name` (one of result()->kernels): rewrites the pragma's `@kernel`
    /// (removed for the default kernel or an empty name), emits textReplaced and recompiles;
    /// every panel then follows the new result.
    void setKernel(const std::string& name);
    const QString& target() const { return m_target; }
    void setTarget(const QString& target);

    // --- compile ----------------------------------------------------------------------------
    ResultPtr result() const { return m_result; }
    /// The result the pass and generated-code views show: the latest one when any pass ran,
    /// else the last one where passes ran, so a typo does not blank those views while the user
    /// is typing. Pass indices (selectedPass, comparePass) index shown()->passes.
    ResultPtr shown() const { return m_shown; }
    /// True when shown() is older than result() (the current text does not get that far) and
    /// has passes to show (an earlier failed compile is never presented as "last successful").
    bool shownIsStale() const { return m_shown && m_shown != m_result && !m_shown->passes.empty(); }
    /// Schedules a compile of the current text (debounceMs < 0: the default debounce).
    void requestCompile(int debounceMs = -1);
    bool compiling() const { return m_worker.busy(); }
    CompileWorker& worker() { return m_worker; }
    /// Upper bound of the debounce applied to edits (ms); 150 by default. The debounce adapts to
    /// the compile time: 3x the last compile, clamped to [40 ms, this bound], so a 3 ms compile
    /// refreshes 40 ms after the last keystroke while a slow one still waits for a pause.
    void setDebounceMs(int ms) { m_debounceMs = ms; }
    /// The debounce the next edit gets (ms).
    int effectiveDebounceMs() const;
    /// Speculative compiles (on by default): when the last compile took at most half the
    /// debounce, an edit starts compiling at once and its result is shown when the debounce
    /// ends (CompileWorker::schedule), so the views refresh after the same quiet time without
    /// the compile on top. Off: compile after the debounce (the benchmark compares both).
    void setSpeculative(bool on) { m_speculative = on; }
    /// Whether the next edit's compile is speculative.
    bool nextCompileSpeculative() const;
    /// Latency of the last delivered compile: edit -> result on the UI thread, and compile alone.
    double lastLatencyMs() const { return m_lastLatencyMs; }
    double lastCompileMs() const { return m_lastCompileMs; }

    // --- result identity (issue 15: truthful state) ------------------------------------------
    /// What a result (run, measurement, profile) is made for: a hash of the document's text —
    /// which carries the parameter values and the kernel in its pragma — and the target.
    /// Panels store it with a result and mark the result stale when it differs.
    QString stamp() const;

    // --- selection --------------------------------------------------------------------------
    /// Index into shown()->passes, -1 for none.
    int selectedPass() const { return m_selectedPass; }
    void selectPass(int index);
    /// The pass the diff compares against: -1 = the previous pass (default), -2 = the elaborated
    /// input IR, else an index into shown()->passes.
    int comparePass() const { return m_comparePass; }
    void setComparePass(int index);
    /// Index of the next (dir=+1) or previous (dir=-1) pass that changed the IR, -1 if none.
    int neighbourChangedPass(int dir) const;
    const Focus& focus() const { return m_focus; }
    void setFocus(const Span& span, FocusOrigin origin);
    /// Asks the editor to move its caret to `span` (Problems list, go-to actions).
    void reveal(const Span& span) { emit revealRequested(span); }

    // --- measurements -----------------------------------------------------------------------
    /// A `tilec banks --measure --json` file was written for the current document (the Run
    /// panel after a GPU run, or the user's File › Load Measured Bank Counters): the Bank panel
    /// loads it. `path` stays readable until the next run.
    void announceMeasuredBanks(const QString& path) { emit measuredBanksAvailable(path); }

signals:
    /// A new document was opened (path and text replaced).
    void documentOpened();
    /// The text changed by something other than the editor (pragma rewrite): editors apply it.
    void textReplaced(const QString& text);
    void modifiedChanged(bool modified);
    void pathChanged(const QString& path);
    void targetChanged(const QString& target);
    void compileStarted();
    /// The text or the target changed (stamp() may differ): results made earlier may be stale.
    void stampChanged();
    /// A new result is in (result() returns it).
    void resultChanged();
    void passSelected(int index);
    void comparePassChanged(int index);
    void focusChanged();
    void revealRequested(const ts::Span& span);
    void measuredBanksAvailable(const QString& path);

private:
    void onFinished(quint64 tag, ResultPtr result, double latencyMs, double compileMs);
    void setTextInternal(const QString& text);

    QString m_path, m_text, m_target = QStringLiteral("cuda:sm_80");
    bool m_modified = false;
    ResultPtr m_result, m_shown;
    CompileWorker m_worker;
    int m_debounceMs = 150;
    bool m_speculative = true;
    double m_lastLatencyMs = 0, m_lastCompileMs = 0;
    int m_selectedPass = -1, m_comparePass = -1;
    std::string m_selectedPassName;
    Focus m_focus;
};

}  // namespace ts::gui
