// Run panel: tilec run in a child process (RunPanel.h).
#include "app/gui/RunPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

#include "app/gui/ChildProgress.h"
#include "app/gui/FlowLayout.h"
#include "app/gui/Session.h"
#include "app/gui/Theme.h"
#include "compiler/support/ParamPragma.h"
#include "profiler/cuda/Devices.h"

namespace ts::gui {

void appendPragmaArguments(QStringList& args, const std::map<std::string, std::string>& values) {
    for (const auto& [k, v] : values) {
        if (k == kPragmaKernel)
            args << "--kernel" << QString::fromStdString(v);
        else if (k == kPragmaRef)
            args << "--ref" << QString::fromStdString(v);
        else if (!isPragmaSetting(k))
            args << "--param" << QString::fromStdString(k + "=" + v);
    }
}

QStringList tilecRunArguments(const QString& file, const std::map<std::string, std::string>& params,
                              const QString& target, const QString& codegenTarget) {
    QStringList args{"run", file};
    appendPragmaArguments(args, params);
    // The interpreter checks the limits of the IDE's codegen target (not tilec's default), and
    // runs as long as the user lets it: the Run panel has Stop, so no tilec time limit.
    if (target == "cpu-interpreter")
        args << "--interp" << "--target" << codegenTarget << "--time-limit" << "0";
    else
        args << "--target" << codegenTarget;
    return args;
}

QStringList tilecBanksArguments(const QString& file,
                                const std::map<std::string, std::string>& params,
                                const QString& codegenTarget, const QString& jsonOut) {
    QStringList args{"banks", file};
    appendPragmaArguments(args, params);
    args << "--target" << codegenTarget << "--measure"
         << "--json" << jsonOut;
    return args;
}

QString runSummary(const QString& log, double wallSeconds) {
    // tilec's lines: "  C: rel-L2 2.1e-04 (tol 1.0e-02), max-abs 3.9e-03, 0 NaN: PASS" and
    // "ran on the CPU interpreter: 12.3 ms" / "ran on <GPU>: ... ms".
    QStringList parts;
    static const QRegularExpression err(
        QStringLiteral("^\\s*(\\S+): rel-L2 (\\S+).*max-abs (\\S+?),"),
        QRegularExpression::MultilineOption);
    for (auto it = err.globalMatch(log); it.hasNext();) {
        auto m = it.next();
        parts << QStringLiteral("%1 rel-L2 %2, max-abs %3")
                     .arg(m.captured(1), m.captured(2), m.captured(3));
    }
    static const QRegularExpression ran(QStringLiteral("^ran on (.+): ([0-9.]+ ms)"),
                                        QRegularExpression::MultilineOption);
    auto m = ran.match(log);
    if (m.hasMatch()) parts << QStringLiteral("%1 on %2").arg(m.captured(2), m.captured(1));
    parts << QStringLiteral("%1 s total").arg(wallSeconds, 0, 'f', 1);
    return parts.join(QStringLiteral("  ·  "));
}

QString findTilec() {
    QString env = qEnvironmentVariable("TILESCOPE_TILEC");
    if (!env.isEmpty() && QFileInfo(env).isExecutable()) return env;
    QDir d(QCoreApplication::applicationDirPath());
    for (int up = 0; up < 4; ++up) {
        QString c = d.absoluteFilePath("tilec");
        if (QFileInfo(c).isExecutable() && QFileInfo(c).isFile()) return c;
        if (!d.cdUp()) break;
    }
    return QStandardPaths::findExecutable("tilec");
}

RunPanel::RunPanel(Session& session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_target = new QComboBox(this);
    m_target->setToolTip(tr("Where Run executes the kernel"));
    m_runButton = new QPushButton(tr("Run  (F5)"), this);
    m_stopButton = new QPushButton(tr("Stop"), this);
    m_stopButton->setEnabled(false);
    m_measureBanks = new QCheckBox(tr("Measure banks"), this);
    m_measureBanks->setChecked(true);
    m_measureBanks->setToolTip(
        tr("After a passing GPU run, measure the shared-memory bank counters (tilec banks "
           "--measure, CUPTI) and show them next to the prediction in the Banks panel"));
    m_status = new QLabel(tr("Not run yet"), this);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long verdict must never widen the dock (and the window): it wraps on its own line.
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    QFont bold = m_status->font();
    bold.setBold(true);
    m_status->setFont(bold);
    m_log = new QPlainTextEdit(this);
    m_log->setReadOnly(true);
    m_log->setFont(ThemeManager::instance().codeFont());
    m_log->setPlaceholderText(
        tr("Run compiles the program as it is in the editor, launches it on the chosen target with "
           "random inputs, and compares the outputs with ref_program (tilec run)."));
    auto* top = new FlowLayout;  // wraps in a narrow dock (FlowLayout.h)
    top->addGroup({new QLabel(tr("Target"), this), m_target});
    top->addGroup({m_runButton, m_stopButton});
    top->addWidget(m_measureBanks);
    // Progress while tilec runs: a busy bar, the phase and the elapsed time; Stop cancels.
    m_progressRow = new ProgressRow(
        [this] {
            return tr("%1 on %2").arg(phaseOf("\n" + m_log->toPlainText()), m_target->currentText());
        },
        [this] { return running() || (m_banksProc && m_banksProc->state() != QProcess::NotRunning); },
        this);

    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addLayout(top);
    lay->addWidget(m_progressRow);
    lay->addWidget(m_status);
    lay->addWidget(m_log, 1);
    connect(m_runButton, &QPushButton::clicked, this, &RunPanel::run);
    connect(m_stopButton, &QPushButton::clicked, this, &RunPanel::stop);
    connect(&m_session, &Session::stampChanged, this, [this] { updateStaleness(false); });
    connect(&m_session, &Session::documentOpened, this, [this] { updateStaleness(true); });
    connect(m_target, &QComboBox::currentIndexChanged, this, [this] { updateStaleness(false); });
    detectTargets();
}

QString RunPanel::phaseOf(const QString& log) {
    // tilec run prints "kernel K: grid ..." once compiled, "ran on ...: T ms" after the launch,
    // then the check; tilec banks --measure follows a passing GPU run.
    if (log.contains(QStringLiteral("\n$ tilec banks"))) return tr("measuring banks");
    if (log.contains(QStringLiteral("\nran on "))) return tr("checking");
    if (log.contains(QStringLiteral("\nkernel "))) return tr("running");
    return tr("compiling");
}

QString RunPanel::progressText() const { return m_progressRow->text(); }

void RunPanel::updateProgress() { m_progressRow->refresh(); }

void RunPanel::setVerdict(const QString& text, const QColor& color) {
    m_verdict = text;
    m_verdictColor = color;
    m_stale = false;
    setStatus(text, color);
    updateStaleness(false);
}

void RunPanel::updateStaleness(bool documentChanged) {
    if (m_verdict.isEmpty() || running()) return;
    const QString now = m_session.stamp() + "|" + m_target->currentData().toString();
    if (documentChanged && (now != m_runStamp || m_session.path() != m_runPath)) {
        // Another program: its panel must not show this one's verdict.
        m_verdict.clear();
        m_stale = false;
        m_log->clear();
        setStatus(tr("No result for this program — Run (F5) runs it"), QColor());
        return;
    }
    const bool stale = now != m_runStamp;
    if (stale == m_stale) return;
    m_stale = stale;
    if (stale)
        setStatus(tr("⟳ STALE — the program, its parameters or the target changed since this "
                     "run; F5 runs it again.  Last run: %1")
                      .arg(m_verdict),
                  palette().color(QPalette::Disabled, QPalette::WindowText));
    else
        setStatus(m_verdict, m_verdictColor);
}

RunPanel::~RunPanel() {
    // No verdict here: the Session may already be gone (it is an older child of the window).
    if (running()) {
        m_proc->disconnect(this);
        stopChild(*m_proc, 0);
    }
    if (m_banksProc) {
        m_banksProc->disconnect(this);
        stopChild(*m_banksProc, 0);
    }
}

void RunPanel::setMeasureBanks(bool on) { m_measureBanks->setChecked(on); }
bool RunPanel::measureBanks() const { return m_measureBanks->isChecked(); }

void RunPanel::detectTargets() {
    std::string why;
    for (const rt::DeviceInfo& d : rt::listDevices(&why))
        m_target->addItem(
            tr("GPU %1: %2 (%3)")
                .arg(d.ordinal)
                .arg(QString::fromStdString(d.name), QString::fromStdString(rt::archFor(d))),
            QString("gpu:%1").arg(d.ordinal));
    m_target->addItem(tr("cpu-interpreter"), QStringLiteral("cpu-interpreter"));
    if (m_target->count() == 1)
        m_target->setToolTip(tr("No GPU: %1").arg(QString::fromStdString(why)));
}

bool RunPanel::running() const { return m_proc && m_proc->state() != QProcess::NotRunning; }

QString RunPanel::statusText() const { return m_status->text(); }

QString RunPanel::logText() const { return m_log->toPlainText(); }

void RunPanel::setStatus(const QString& text, const QColor& color) {
    m_status->setText(text);
    m_status->setToolTip(text);
    QPalette p = m_status->palette();
    p.setColor(QPalette::WindowText,
               color.isValid() ? color : palette().color(QPalette::WindowText));
    m_status->setPalette(p);
}

void RunPanel::run() {
    stop();
    m_log->clear();
    QString tilec = m_tilec.isEmpty() ? findTilec() : m_tilec;
    if (tilec.isEmpty()) {
        setStatus(tr("Cannot run: tilec was not found next to tilescope or on PATH"),
                  theme().error);
        emit finished(false);
        return;
    }
    // The editor's text, not the file on disk: the user runs what they see.
    m_tmp = std::make_unique<QTemporaryDir>();
    QString name = m_session.path().isEmpty() ? QStringLiteral("untitled.py")
                                              : QFileInfo(m_session.path()).fileName();
    QString file = m_tmp->filePath(name);
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly) || f.write(m_session.text().toUtf8()) < 0) {
        setStatus(tr("Cannot run: cannot write %1").arg(file), theme().error);
        emit finished(false);
        return;
    }
    f.close();
    QString target = m_target->currentData().toString();
    m_runFile = file;
    m_runTarget = target;
    m_runStamp = m_session.stamp() + "|" + target;
    m_runPath = m_session.path();
    m_verdict.clear();
    m_stale = false;
    QStringList args =
        tilecRunArguments(file, m_session.paramOverrides(), target, m_session.target());
    m_proc = std::make_unique<QProcess>();
    m_proc->setProcessChannelMode(QProcess::MergedChannels);
    if (target.startsWith("gpu:")) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("TILESCOPE_DEVICE", target.mid(4));
        m_proc->setProcessEnvironment(env);
    }
    connect(m_proc.get(), &QProcess::readyRead, this, [this] {
        m_log->moveCursor(QTextCursor::End);
        m_log->insertPlainText(QString::fromUtf8(m_proc->readAll()));
        m_log->moveCursor(QTextCursor::End);
    });
    connect(m_proc.get(), &QProcess::finished, this, &RunPanel::onFinished);
    connect(m_proc.get(), &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            setStatus(tr("Cannot start tilec: %1").arg(m_proc->errorString()), theme().error);
            m_runButton->setEnabled(true);
            m_stopButton->setEnabled(false);
            emit finished(false);
        }
    });
    m_log->appendPlainText("$ tilec " + args.join(' ') + "\n");
    setStatus(tr("Running on %1…").arg(m_target->currentText()), QColor());
    m_runButton->setEnabled(false);
    m_stopButton->setEnabled(true);
    m_proc->start(tilec, args);
    m_progressRow->start();
}

void RunPanel::stop() {
    if (!running()) return;
    m_proc->disconnect(this);
    stopChild(*m_proc, 0);  // a run has nothing to save: killed at once
    setVerdict(tr("Stopped by the user after %1 s").arg(m_progressRow->elapsedS(), 0, 'f', 1),
               theme().warning);
    updateProgress();
    m_runButton->setEnabled(true);
    m_stopButton->setEnabled(false);
}

void RunPanel::onFinished(int exitCode, QProcess::ExitStatus status) {
    m_log->moveCursor(QTextCursor::End);
    m_log->insertPlainText(QString::fromUtf8(m_proc->readAll()));
    double secs = m_progressRow->elapsedS();
    bool pass = status == QProcess::NormalExit && exitCode == 0;
    if (status == QProcess::CrashExit)
        setVerdict(
            tr("✖ tilec crashed after %1 s (the IDE is fine; see the log)").arg(secs, 0, 'f', 1),
            theme().error);
    else if (pass && m_log->toPlainText().contains(QStringLiteral("\nNOT CHECKED")))
        // tilec ran on the tile-level interpreter without a ref_program: nothing was compared,
        // so this must not read as a pass.
        setVerdict(
            tr("● NOT CHECKED (no ref_program)  ·  %1").arg(runSummary(m_log->toPlainText(), secs)),
            theme().warning);
    else if (pass)
        setVerdict(tr("✔ PASS  ·  %1").arg(runSummary(m_log->toPlainText(), secs)),
                   theme().success);
    else
        setVerdict(tr("✖ FAILED (exit %1)  ·  %2 — see the log")
                       .arg(exitCode)
                       .arg(runSummary(m_log->toPlainText(), secs)),
                   theme().error);
    m_runButton->setEnabled(true);
    m_stopButton->setEnabled(false);
    updateProgress();
    emit finished(pass);
    if (pass && m_runTarget.startsWith("gpu:") && m_measureBanks->isChecked())
        startBankMeasurement();
}

void RunPanel::startBankMeasurement() {
    if (m_banksProc && m_banksProc->state() != QProcess::NotRunning) {
        m_banksProc->disconnect(this);
        stopChild(*m_banksProc, 0);
    }
    QString tilec = m_tilec.isEmpty() ? findTilec() : m_tilec;
    QString json = m_tmp->filePath("banks-measured.json");
    QStringList args =
        tilecBanksArguments(m_runFile, m_session.paramOverrides(), m_session.target(), json);
    m_banksProc = std::make_unique<QProcess>();
    m_banksProc->setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("TILESCOPE_DEVICE", m_runTarget.mid(4));
    m_banksProc->setProcessEnvironment(env);
    m_log->appendPlainText("\n$ tilec " + args.join(' ') + "\n");
    QProcess* proc = m_banksProc.get();
    connect(proc, &QProcess::finished, this, [this, proc, json](int code, QProcess::ExitStatus st) {
        m_log->moveCursor(QTextCursor::End);
        m_log->insertPlainText(QString::fromUtf8(proc->readAll()));
        const bool ok = st == QProcess::NormalExit && code == 0 && QFileInfo::exists(json);
        m_log->appendPlainText(ok ? tr("bank counters measured: see the Banks panel")
                                  : tr("bank measurement failed (exit %1)").arg(code));
        emit banksMeasured(ok ? json : QString());
        if (ok) m_session.announceMeasuredBanks(json);
    });
    proc->start(tilec, args);
    m_progressRow->start();
}

}  // namespace ts::gui
