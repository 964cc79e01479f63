// The Run panel (issue 3 item 7): a target picker (the GPUs the driver reports, and
// `cpu-interpreter`), Run (F5) / Stop, and the outcome of the last run: PASS/FAIL against the
// reference with errors and time, or the failure message. A run is `tilec run` in a child
// process — the same façade and the same output as the command line, and a kernel that faults
// or hangs takes down the child, never the IDE (DESIGN.md §3). The document is run as it is in
// the editor (saved to a temporary copy), with the parameter values of its pragma. After a
// passing GPU run, "Measure banks" runs `tilec banks --measure --json` on the same copy and
// announces the file through the Session, where the Bank panel picks up the measured counters.
// Truthful state (issue 15): the verdict is tied to Session::stamp() and the run target; after an
// edit, a parameter or target change it is marked stale, and another document clears it ("no
// result for this program"). While tilec runs, a progress row shows the phase (compiling,
// running, checking, measuring banks), the elapsed time and Stop.
#pragma once
#include <QElapsedTimer>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QWidget>
#include <map>
#include <memory>
#include <string>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QTimer;
class QPushButton;

namespace ts::gui {

class ProgressRow;
class Session;

/// The pragma's values as tilec flags: parameters as --param, the @kernel / @ref settings as
/// --kernel / --ref (ParamPragma.h), so a tilec command compiles the kernel the IDE shows.
void appendPragmaArguments(QStringList& args, const std::map<std::string, std::string>& values);

/// The tilec command line for one run (pure; tested). `target` is "cpu-interpreter" or
/// "gpu:<ordinal>"; `codegenTarget` the session's target ("cuda:sm_80").
QStringList tilecRunArguments(const QString& file, const std::map<std::string, std::string>& params,
                              const QString& target, const QString& codegenTarget);

/// The tilec command line that measures the bank counters of `file` on the GPU and writes them
/// to `jsonOut` (pure; tested): `banks FILE [--param k=v]... --target T --measure --json OUT`.
QStringList tilecBanksArguments(const QString& file,
                                const std::map<std::string, std::string>& params,
                                const QString& codegenTarget, const QString& jsonOut);

/// One line from tilec run's output: each output's rel-L2 / max-abs, the run time and target,
/// and the wall time (pure; tested).
QString runSummary(const QString& log, double wallSeconds);

/// Where tilec is: $TILESCOPE_TILEC, next to tilescope or in a parent folder (build trees), PATH.
QString findTilec();

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(Session& session, QWidget* parent = nullptr);
    ~RunPanel() override;
    /// Starts a run of the current document on the chosen target (stops a running one first).
    void run();
    void stop();
    bool running() const;
    /// The last run's verdict line (tests).
    QString statusText() const;
    /// True when the shown verdict was made for another text/parameters/target (after an edit).
    bool isStale() const { return m_stale; }
    /// True when a verdict (PASS/FAIL/...) is shown for the current document.
    bool hasResult() const { return !m_verdict.isEmpty(); }
    /// The progress row's text while running ("checking · 2.4 s"); empty when idle (tests).
    QString progressText() const;
    /// Where tilec is in the run, from its output so far: "compiling", "running", "checking",
    /// "measuring banks" (pure; tested).
    static QString phaseOf(const QString& log);
    QString logText() const;
    /// The target picker (tests add a GPU entry on machines without one).
    QComboBox* targetBox() const { return m_target; }
    /// Overrides the tilec executable (tests).
    void setTilec(const QString& path) { m_tilec = path; }

    /// Measure bank counters after a passing GPU run (default on).
    void setMeasureBanks(bool on);
    bool measureBanks() const;

signals:
    void finished(bool pass);
    /// The bank measurement after a GPU run ended; `jsonPath` is empty when it failed.
    void banksMeasured(const QString& jsonPath);

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void setStatus(const QString& text, const QColor& color);
    /// Records a finished run's verdict for the current stamp and shows it.
    void setVerdict(const QString& text, const QColor& color);
    /// Compares the verdict's stamp with the session's: marks it stale or clears it.
    void updateStaleness(bool documentChanged);
    void updateProgress();
    void detectTargets();
    /// Starts `tilec banks --measure` on the run's copy of the document.
    void startBankMeasurement();

    Session& m_session;
    QComboBox* m_target;
    QPushButton *m_runButton, *m_stopButton;
    QCheckBox* m_measureBanks;
    QLabel* m_status;
    QPlainTextEdit* m_log;
    std::unique_ptr<QProcess> m_proc;
    std::unique_ptr<QTemporaryDir> m_tmp;
    QString m_tilec;
    QString m_runFile, m_runTarget;  ///< the copy and the target of the last run
    QString m_runStamp, m_runPath;   ///< Session::stamp() and path the running/last run was for
    QString m_verdict;               ///< the last verdict ("" = none for this document)
    QColor m_verdictColor;
    bool m_stale = false;
    ProgressRow* m_progressRow = nullptr;  ///< ChildProgress.h, shared with the sweep
    std::unique_ptr<QProcess> m_banksProc;
};

}  // namespace ts::gui
