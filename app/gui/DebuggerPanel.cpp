// DebuggerPanel: controls, the lowered-IR view with the current statement, and the views of the
// paused machine (see DebuggerPanel.h).
#include "app/gui/DebuggerPanel.h"

#include <QCheckBox>
#include <QColor>
#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "app/gui/CodeView.h"
#include "app/gui/DebugState.h"
#include "app/gui/FlowLayout.h"
#include "app/gui/Session.h"
#include "app/gui/SharedHeatmap.h"
#include "compiler/LaunchArgs.h"
#include "profiler/check/Inputs.h"

namespace ts::gui {

namespace {

QString reasonText(dbg::Stop::Reason r) {
    switch (r) {
        case dbg::Stop::Reason::Step: return QObject::tr("step");
        case dbg::Stop::Reason::Breakpoint: return QObject::tr("breakpoint");
        case dbg::Stop::Reason::Barrier: return QObject::tr("barrier");
        case dbg::Stop::Reason::Iteration: return QObject::tr("next iteration");
        case dbg::Stop::Reason::Paused: return QObject::tr("paused");
        case dbg::Stop::Reason::Finished: return QObject::tr("finished");
        case dbg::Stop::Reason::Error: return QObject::tr("stopped by a checker");
    }
    return {};
}

QString valueText(double v) { return std::isnan(v) ? QStringLiteral("NaN") : QString::number(v, 'g', 9); }

QTableWidget* makeTable(const QStringList& headers, QWidget* parent) {
    auto* t = new QTableWidget(0, int(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->setVisible(false);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    return t;
}

void setRow(QTableWidget* t, int row, const QStringList& cells) {
    for (int c = 0; c < cells.size(); ++c) t->setItem(row, c, new QTableWidgetItem(cells[c]));
}

}  // namespace

DebuggerPanel::DebuggerPanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->setSpacing(4);

    // Commands.
    auto* bar = new FlowLayout;  // the rows wrap in a narrow dock (FlowLayout.h)
    auto button = [&](const QString& text, const QString& tip, auto fn) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        connect(b, &QToolButton::clicked, this, fn);
        bar->addWidget(b);
        m_commandButtons << b;
        return b;
    };
    button(tr("Start"), tr("Run the block to the first statement (restarts)"), [this] { start(); });
    button(tr("Continue"), tr("Run to the next breakpoint"), [this] { command(dbg::Command::Continue); });
    button(tr("Step"), tr("Next tile op (next source line)"), [this] { command(dbg::Command::StepTileOp); });
    button(tr("Into"), tr("Next lowered IR statement"), [this] { command(dbg::Command::StepInto); });
    button(tr("Over"), tr("Next statement at this nesting depth"), [this] { command(dbg::Command::StepOver); });
    button(tr("Out"), tr("Out of the current loop / if"), [this] { command(dbg::Command::StepOut); });
    button(tr("Barrier"), tr("Run to the next barrier"), [this] { command(dbg::Command::ToBarrier); });
    button(tr("Iteration"), tr("Run to the next iteration of the pipelined loop"),
           [this] { command(dbg::Command::ToIteration); });
    button(tr("Back"), tr("Step back to the previous stop (re-runs the block)"), [this] { stepBack(); });
    m_pauseButton = button(tr("Pause"), tr("Pause the running command at the next statement"),
                           [this] { interrupt(); });
    m_commandButtons.removeAll(m_pauseButton);
    m_pauseButton->setEnabled(false);
    m_poll.setInterval(30);
    connect(&m_poll, &QTimer::timeout, this, [this] { poll(); });
    lay->addLayout(bar);

    // Breakpoints and focus.
    auto* row = new FlowLayout;
    auto* blockLabel = new QLabel(tr("Block"), this);
    m_block = new QLineEdit(QStringLiteral("0,0"), this);
    m_block->setMaximumWidth(60);
    m_block->setToolTip(tr("Block to run and stop in (bx,by), applied at Start"));
    row->addGroup({blockLabel, m_block});
    m_warp = new QSpinBox(this);
    row->addGroup({new QLabel(tr("Warp"), this), m_warp});
    m_lane = new QSpinBox(this);
    m_lane->setRange(0, 31);
    row->addGroup({new QLabel(tr("Lane"), this), m_lane});
    m_threadBox = new QSpinBox(this);
    m_threadBox->setRange(0, 1023);
    row->addGroup({new QLabel(tr("Thread"), this), m_threadBox});
    row->addSpacing(12);
    auto* breakLabel = new QLabel(tr("Break at lines"), this);
    m_breakEdit = new QLineEdit(this);
    m_breakEdit->setPlaceholderText(tr("e.g. 28, 31"));
    m_breakEdit->setMaximumWidth(90);
    row->addGroup({breakLabel, m_breakEdit});
    m_breakOp = new QComboBox(this);
    m_breakOp->addItems({tr("no tile op"), "copy", "gemm", "fill", "reduce", "atomic", "cumsum"});
    m_breakOp->setToolTip(tr("Stop where this tile op starts"));
    row->addWidget(m_breakOp);
    m_breakBarrier = new QCheckBox(tr("barriers"), this);
    row->addWidget(m_breakBarrier);
    lay->addLayout(row);
    connect(m_threadBox, &QSpinBox::valueChanged, this, [this](int t) {
        if (m_syncing) return;
        m_syncing = true;
        m_warp->setValue(t / 32);
        m_lane->setValue(t % 32);
        m_syncing = false;
        refresh();
    });
    auto fromWarpLane = [this] {
        if (m_syncing) return;
        m_syncing = true;
        m_threadBox->setValue(m_warp->value() * 32 + m_lane->value());
        m_syncing = false;
        refresh();
    };
    connect(m_warp, &QSpinBox::valueChanged, this, fromWarpLane);
    connect(m_lane, &QSpinBox::valueChanged, this, fromWarpLane);

    m_status = new QLabel(tr("Not running. Start runs block (0, 0) of the current kernel on the "
                             "thread-level interpreter."),
                          this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lay->addWidget(m_status);

    auto* split = new QSplitter(Qt::Horizontal, this);
    m_ir = new CodeView(CodeView::Language::Python, split);
    m_tabs = new QTabWidget(split);
    split->addWidget(m_ir);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    lay->addWidget(split, 1);

    auto* regsPage = new QWidget(m_tabs);
    auto* regsLay = new QVBoxLayout(regsPage);
    regsLay->setContentsMargins(0, 0, 0, 0);
    m_holds = new QLabel(regsPage);
    m_holds->setWordWrap(true);
    m_holds->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_regs = makeTable({tr("buffer"), tr("register"), tr("element"), tr("value")}, regsPage);
    regsLay->addWidget(m_holds);
    regsLay->addWidget(m_regs, 1);
    m_tabs->addTab(regsPage, tr("Registers"));

    auto* sharedPage = new QWidget(m_tabs);
    auto* sharedLay = new QVBoxLayout(sharedPage);
    sharedLay->setContentsMargins(0, 0, 0, 0);
    m_sharedBox = new QComboBox(sharedPage);
    m_heat = new SharedHeatmap(sharedPage);
    sharedLay->addWidget(m_sharedBox);
    sharedLay->addWidget(m_heat, 1);
    m_tabs->addTab(sharedPage, tr("Shared"));
    connect(m_sharedBox, &QComboBox::currentTextChanged, this, [this] { refreshShared(); });

    m_barriers = makeTable({tr("barrier"), tr("phase"), tr("expected"), tr("arrived"), tr("tx expected"),
                            tr("tx delivered"), tr("pending"), tr("lines")},
                           m_tabs);
    m_barriers->horizontalHeaderItem(2)->setToolTip(tr("arrivals that complete the current phase"));
    m_barriers->horizontalHeaderItem(4)->setToolTip(tr("transaction bytes announced by expect_tx in the current phase"));
    m_barriers->horizontalHeaderItem(5)->setToolTip(tr("transaction bytes TMA loads delivered to the current phase"));
    m_barriers->horizontalHeaderItem(6)->setToolTip(tr("TMA-written elements no wait has made visible yet"));
    m_tabs->addTab(m_barriers, tr("Barriers"));

    auto* watchPage = new QWidget(m_tabs);
    auto* watchLay = new QVBoxLayout(watchPage);
    watchLay->setContentsMargins(0, 0, 0, 0);
    m_watchEdit = new QLineEdit(watchPage);
    m_watchEdit->setPlaceholderText(tr("watch: k, tx, C_local[8, 2], A_shared[100] (Enter adds)"));
    m_watch = makeTable({tr("expression"), tr("value (focused thread)")}, watchPage);
    watchLay->addWidget(m_watchEdit);
    watchLay->addWidget(m_watch, 1);
    m_tabs->addTab(watchPage, tr("Watch"));
    connect(m_watchEdit, &QLineEdit::returnPressed, this, [this] {
        addWatch(m_watchEdit->text());
        m_watchEdit->clear();
    });
    // An edit ends the debugging session: the stops point into the old compile's IR.
    connect(&session, &Session::resultChanged, this, [this] {
        if (!m_dbg || m_session.result() == m_result) return;
        m_dbg.reset();  // ends a running command too (Debugger's destructor aborts the run)
        setRunning(false);
        DebugState::of(m_session).setLine({});
        DebugState::of(m_session).setProblems({});
        m_status->setText(tr("The document changed: Start debugs the new version."));
    });
}

DebuggerPanel::~DebuggerPanel() = default;

bool DebuggerPanel::start() { return start(nullptr); }

bool DebuggerPanel::start(ir::PrimFunc lowered) {
    auto r = m_session.result();
    if (!r || !r->ok || !r->lowered) {
        m_status->setText(tr("Nothing to debug: the current document does not compile."));
        return false;
    }
    m_result = r;
    dbg::DebugOptions opts;
    opts.block.clear();
    for (const QString& part : m_block->text().split(',', Qt::SkipEmptyParts))
        opts.block.push_back(part.trimmed().toLongLong());
    CompileResult copy = *r;  // launch values of symbolic sizes are written into the copy
    if (!copy.kernel.scalars.empty()) {
        std::string error;
        auto lv = resolveLaunch(copy.kernel, copy.lowered, error);
        if (!lv) {
            m_status->setText(QString::fromStdString(error));
            return false;
        }
        for (size_t i = 0; i < copy.kernel.args.size(); ++i) copy.kernel.args[i].shape = lv->shapes[i];
        opts.scalars = lv->scalars;
    }
    std::vector<rt::TensorParam> sig;
    for (auto& a : copy.kernel.args) sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
    rt::InputSet set;
    try {
        set = rt::makeInputs(sig, {});
    } catch (const std::exception& e) {
        m_status->setText(tr("Cannot make inputs: %1").arg(e.what()));
        return false;
    }
    for (auto& t : set.tensors)
        if (!t.hasData()) t.data.assign(size_t(t.numel()), std::nan(""));
    if (!lowered) lowered = r->lowered;
    m_dbg = std::make_unique<dbg::Debugger>(lowered, r->elaborated, std::move(set.tensors), opts);
    for (const QString& part : m_breakEdit->text().split(',', Qt::SkipEmptyParts))
        if (int l = part.trimmed().toInt();
            l > 0 && std::find(m_breakLines.begin(), m_breakLines.end(), l) == m_breakLines.end())
            m_breakLines.push_back(l);
    for (int l : m_breakLines) m_dbg->addBreakpoint(dbg::Breakpoint::atLine(uint32_t(l)));
    if (m_breakOp->currentIndex() > 0) {
        dbg::Breakpoint b;
        b.kind = dbg::Breakpoint::Kind::TileOp;
        b.op = m_breakOp->currentText().toStdString();
        m_dbg->addBreakpoint(b);
    }
    if (m_breakBarrier->isChecked()) m_dbg->addBreakpoint(dbg::Breakpoint::atBarriers());
    m_func = lowered;
    auto printed = ir::print(m_func);
    m_irLines = printed.lines;
    m_ir->setCode(QString::fromStdString(printed.text), false);
    DebugState::of(m_session).setProblems({});
    setRunning(false);
    m_dbg->startAsync();
    int threads = 1;
    for (int64_t e : r->kernel.block) threads *= int(std::max<int64_t>(1, e));
    m_warp->setRange(0, std::max(0, (threads - 1) / 32));
    m_threadBox->setRange(0, std::max(0, threads - 1));
    awaitStop();
    return true;
}

void DebuggerPanel::command(dbg::Command c) {
    if (running()) return;
    if (!m_dbg && !start()) return;
    if (!waitStopped()) return;
    m_dbg->post(c);
    awaitStop();
}

void DebuggerPanel::stepBack() {
    if (!m_dbg || running()) return;
    if (!m_dbg->stepBackAsync()) {
        m_status->setText(m_status->text() + tr(" (no earlier stop)"));
        return;
    }
    awaitStop();
}

void DebuggerPanel::interrupt() {
    if (m_dbg) m_dbg->interrupt();
}

void DebuggerPanel::awaitStop() {
    // A step is done within a frame: show its stop at once, without a "running" flash.
    if (m_dbg->wait(std::chrono::milliseconds(25))) {
        setRunning(false);
        refresh();
        return;
    }
    setRunning(true);
    poll();
}

void DebuggerPanel::poll() {
    if (!m_dbg) return setRunning(false);
    if (m_dbg->wait(std::chrono::milliseconds(0))) {
        setRunning(false);
        refresh();
        return;
    }
    m_status->setText(tr("Running… %1 events, line %2 (Pause stops at the next statement)")
                          .arg(m_dbg->progress())
                          .arg(m_dbg->progressLine()));
}

void DebuggerPanel::setRunning(bool on) {
    for (QWidget* b : m_commandButtons) b->setEnabled(!on);
    m_pauseButton->setEnabled(on);
    if (on && !m_poll.isActive()) m_poll.start();
    if (!on) m_poll.stop();
}

bool DebuggerPanel::waitStopped(int ms) {
    QElapsedTimer t;
    t.start();
    while (running()) {
        if (t.elapsed() > ms) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        QThread::msleep(1);
    }
    if (m_poll.isActive()) poll();  // the stop arrived between two polls: show it now
    return true;
}

void DebuggerPanel::addLineBreakpoint(int line) {
    if (std::find(m_breakLines.begin(), m_breakLines.end(), line) == m_breakLines.end())
        m_breakLines.push_back(line);
    if (m_dbg) m_dbg->addBreakpoint(dbg::Breakpoint::atLine(uint32_t(line)));
    QStringList parts;
    for (int l : m_breakLines) parts << QString::number(l);
    m_breakEdit->setText(parts.join(", "));
}

void DebuggerPanel::setThread(int thread) { m_threadBox->setValue(thread); }
int DebuggerPanel::thread() const { return m_threadBox->value(); }

void DebuggerPanel::addWatch(const QString& expr) {
    if (expr.trimmed().isEmpty()) return;
    m_watches << expr.trimmed();
    refreshWatches();
}

QString DebuggerPanel::statusText() const { return m_status->text(); }
QString DebuggerPanel::holdsText() const { return m_holds->text(); }

void DebuggerPanel::refresh() {
    if (!m_dbg || m_dbg->running()) return;
    const dbg::Stop& s = m_dbg->stop();
    QString block;
    for (size_t i = 0; i < s.block.size(); ++i) block += (i ? ", " : "") + QString::number(s.block[i]);
    QString text;
    if (s.reason == dbg::Stop::Reason::Finished) {
        text = tr("Finished block (%1) after %2 events.").arg(block).arg(s.event);
    } else if (s.reason == dbg::Stop::Reason::Error) {
        text = tr("Stopped by a checker in block (%1): %2").arg(block, QString::fromStdString(s.error));
    } else {
        bool active = std::find(s.active.begin(), s.active.end(), thread()) != s.active.end();
        text = tr("Line %1 (%2) · block (%3) · %4 active threads%5 · event %6")
                   .arg(s.span.line)
                   .arg(reasonText(s.reason), block)
                   .arg(s.active.size())
                   .arg(active ? QString() : tr(", thread %1 inactive here").arg(thread()))
                   .arg(s.event);
        for (auto& l : m_dbg->loops())
            text += QStringLiteral(" · %1 = %2%3")
                        .arg(QString::fromStdString(l.loop->var->name))
                        .arg(l.value)
                        .arg(l.pipelined ? tr(" (pipelined)") : QString());
    }
    m_status->setText(text);
    DebugState::of(m_session).setLine(s.finished() && !s.finding ? Span{} : s.finding ? s.finding->at : s.span);
    // The current statement in the lowered IR.
    std::vector<int> hl;
    for (size_t i = 0; i < m_irLines.size(); ++i)
        if (s.stmt && m_irLines[i].stmt == s.stmt) {
            hl.push_back(int(i));
            break;
        }
    if (hl.empty() && s.finding)  // stopped by a checker: the first IR line of the access's line
        for (size_t i = 0; i < m_irLines.size(); ++i)
            if (m_irLines[i].stmt && m_irLines[i].span.line == s.finding->at.line) {
                hl.push_back(int(i));
                break;
            }
    m_ir->setHighlightedLines(hl, true);
    refreshRegisters();
    // Keep the shared buffer choice across stops.
    QString cur = m_sharedBox->currentText();
    QStringList names;
    for (auto& b : m_dbg->buffers())
        if (b.scope == ir::Scope::Shared) names << QString::fromStdString(b.name);
    m_syncing = true;
    m_sharedBox->clear();
    m_sharedBox->addItems(names);
    if (names.contains(cur)) m_sharedBox->setCurrentText(cur);
    m_syncing = false;
    refreshShared();
    refreshBarriers();
    refreshWatches();
    if (s.reason == dbg::Stop::Reason::Error) reportFinding();
}

void DebuggerPanel::refreshRegisters() {
    m_regs->setRowCount(0);
    QStringList holds;
    const int t = thread();
    int row = 0;
    for (auto& b : m_dbg->buffers()) {
        if (!b.perThread) continue;
        const QString name = QString::fromStdString(b.name);
        auto frag = m_dbg->fragment(b.name, t);
        if (!frag.empty()) {
            holds << QString::fromStdString(m_dbg->holds(b.name, t));
            for (auto& e : frag) {
                QString idx;
                for (size_t d = 0; d < e.index.size(); ++d) idx += (d ? ", " : "") + QString::number(e.index[d]);
                m_regs->insertRow(row);
                setRow(m_regs, row++, {name, QString::number(e.local), name + "[" + idx + "]", valueText(e.value)});
            }
            continue;
        }
        for (int64_t i = 0; i < b.elements && i < 256; ++i) {
            auto v = m_dbg->element(b.name, i, t);
            m_regs->insertRow(row);
            setRow(m_regs, row++, {name, QString::number(i), name + "[" + QString::number(i) + "]",
                                   v ? valueText(*v) : QString("?")});
        }
    }
    m_holds->setText(holds.isEmpty() ? tr("thread %1 holds no fragment with a layout").arg(t)
                                     : holds.join("\n"));
}

void DebuggerPanel::refreshShared() {
    if (!m_dbg || m_syncing || m_dbg->running()) return;
    const std::string name = m_sharedBox->currentText().toStdString();
    for (auto& b : m_dbg->buffers()) {
        if (b.name != name || b.scope != ir::Scope::Shared) continue;
        // Rows of the innermost dimension; a 1-D buffer wraps every 32 elements.
        int cols = b.shape.size() < 2 ? 32 : int(b.shape.back());
        cols = std::max(1, cols);
        int rows = int((b.elements + cols - 1) / cols);
        m_heat->setData(m_dbg->shared(name), rows, cols, thread());
        return;
    }
    m_heat->setData({}, 0, 0, thread());
}

void DebuggerPanel::refreshBarriers() {
    m_barriers->setRowCount(0);
    int row = 0;
    auto add = [&](const QStringList& cells) {
        m_barriers->insertRow(row);
        setRow(m_barriers, row++, cells);
    };
    const dbg::Stop& s = m_dbg->stop();
    auto named = s.finding && !s.finding->barriers.empty() ? s.finding->barriers : m_dbg->barriers();
    for (auto& b : named)
        add({tr("barrier %1").arg(b.id), QString::number(b.phase), QString::number(b.expected),
             QString::number(b.arrived), QString(), QString(), QString(), QString::number(b.at.line)});
    // mbarriers: the one a deadlock names first (its state when the wait failed), then the rest.
    auto mbars = m_dbg->mbarriers();
    auto line = [](const Span& sp) { return sp.valid() ? QString::number(sp.line) : QStringLiteral("-"); };
    for (auto& m : mbars) {
        add({QStringLiteral("mbarrier %1[%2]").arg(QString::fromStdString(m.buffer)).arg(m.index),
             tr("%1 (parity %2)").arg(m.phase).arg(m.phase % 2), QString::number(m.expected),
             QString::number(m.arrived), QString::number(m.txExpected), QString::number(m.txDelivered),
             QString::number(m.pending),
             tr("init %1, arrive %2, load %3, wait %4").arg(line(m.init), line(m.arrive), line(m.load), line(m.wait))});
        if (s.finding && !s.finding->mbarriers.empty() && s.finding->mbarriers[0].buffer == m.buffer &&
            s.finding->mbarriers[0].index == m.index)
            for (int c = 0; c < m_barriers->columnCount(); ++c) {
                m_barriers->item(row - 1, c)->setBackground(QColor(255, 200, 200));
                m_barriers->item(row - 1, c)->setForeground(QColor(0, 0, 0));
            }
    }
    m_barriers->resizeColumnsToContents();
}

void DebuggerPanel::refreshWatches() {
    if (!m_dbg || m_dbg->running()) return;
    m_watch->setRowCount(0);
    int row = 0;
    for (const QString& w : m_watches) {
        std::string why;
        auto v = m_dbg->watch(w.toStdString(), thread(), why);
        m_watch->insertRow(row);
        setRow(m_watch, row++, {w, v ? valueText(*v) : QString::fromStdString(why)});
    }
}

void DebuggerPanel::reportFinding() {
    const dbg::Stop& s = m_dbg->stop();
    std::vector<Diagnostic> diags;
    Diagnostic d;
    d.severity = Severity::Error;
    d.span = s.finding ? s.finding->at : s.span;
    d.message = s.error;
    d.origin = "debugger";
    diags.push_back(d);
    if (s.finding && s.finding->other.valid()) {
        Diagnostic n;
        n.severity = Severity::Note;
        n.span = s.finding->other;
        n.origin = "debugger";
        const std::string& k = s.finding->kind;
        const auto& mb = s.finding->mbarriers;
        n.message = k == "race"         ? "the other thread's access of " + s.finding->buffer
                    : k == "stale-read" ? "the cp.async that has not completed (" + s.finding->buffer + ")"
                    : k == "deadlock" && !mb.empty()
                        ? "mbarrier " + mb[0].buffer + "[" + std::to_string(mb[0].index) + "] is initialised here with " +
                              std::to_string(mb[0].expected) + " arrival(s) per phase; " +
                              std::to_string(mb[0].arrived) + " arrived"
                        : "'" + s.finding->buffer + "' is declared here";
        diags.push_back(n);
    }
    if (s.finding)
        for (auto& b : s.finding->barriers) {
            if (b.at == d.span) continue;
            Diagnostic n;
            n.severity = Severity::Note;
            n.span = b.at;
            n.origin = "debugger";
            n.message = "barrier " + std::to_string(b.id) + ": " + std::to_string(b.arrived) +
                        " of " + std::to_string(b.expected) + " arrivals";
            diags.push_back(n);
        }
    DebugState::of(m_session).setProblems(std::move(diags));
}

}  // namespace ts::gui
