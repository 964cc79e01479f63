// The Timeline panel (TimelinePanel.h).
#include "app/gui/TimelinePanel.h"

#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QThreadPool>
#include <QToolButton>
#include <QVBoxLayout>

#include "app/gui/Session.h"
#include "app/gui/Theme.h"
#include "compiler/support/SourceReader.h"
#include "visualizer/core/TimelineModel.h"
#include "visualizer/widgets/TimelineWidget.h"

namespace ts::gui {

namespace {
QString legendHtml(bool dark) {
    using viz::TimelineCategory;
    QString html;
    for (auto c : {TimelineCategory::Copy, TimelineCategory::Store, TimelineCategory::Wait, TimelineCategory::Mma, TimelineCategory::Release,
                   TimelineCategory::Barrier, TimelineCategory::Commit, TimelineCategory::Compute}) {
        const uint32_t rgb = viz::timelineColor(c, dark);
        html += QStringLiteral("<span style='background-color:#%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2&nbsp;&nbsp; ")
                    .arg(rgb, 6, 16, QLatin1Char('0'))
                    .arg(QString::fromLatin1(viz::timelineCategoryName(c)));
    }
    return html + QObject::tr("<span style='color:%1'><b>red frame</b>: barrier-check error</span> &nbsp; (stage rows: light = bytes in flight, solid = tile resident; TMA store staging rows: light = the store may still be reading the tile, compute = the rewrite its wait orders)")
                      .arg(dark ? "#ff6b6b" : "#d01010");
}
}  // namespace

TimelinePanel::TimelinePanel(Session& session, QWidget* parent) : QWidget(parent), m_session(session) {
    setObjectName("timelinePanel");
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_loop = new QComboBox(this);
    m_loop->setToolTip(tr("T.Pipelined loop"));
    m_loop->hide();
    auto button = [this](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        return b;
    };
    auto* fit = button(tr("Fit"), tr("Show the whole timeline (0 or F in the picture)"));
    auto* zoomOut = button(tr("−"), tr("Zoom out (− or the wheel)"));
    auto* zoomIn = button(tr("+"), tr("Zoom in (+ or the wheel); drag or Shift+wheel pans"));
    m_loadButton = button(tr("Load trace…"), tr("Load a measured timeline written by `tilec trace FILE --out trace.json` (GPU)"));
    m_clearButton = button(tr("Clear trace"), tr("Remove the measured rows"));
    m_clearButton->setEnabled(false);
    m_traceInfo = new QLabel(tr("Measured: none loaded"), this);
    m_traceInfo->setWordWrap(true);
    m_traceInfo->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_warning = new QLabel(this);
    m_warning->setWordWrap(true);
    m_warning->setAutoFillBackground(true);
    m_warning->setMargin(4);
    m_warning->hide();
    m_legend = new QLabel(this);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_legend->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_widget = new viz::TimelineWidget(this);

    auto* top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_loop);
    top->addWidget(fit);
    top->addWidget(zoomOut);
    top->addWidget(zoomIn);
    auto* traceRow = new QHBoxLayout;
    traceRow->addWidget(m_loadButton);
    traceRow->addWidget(m_clearButton);
    traceRow->addWidget(m_traceInfo, 1);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->addLayout(top);
    v->addLayout(traceRow);
    v->addWidget(m_legend);
    v->addWidget(m_warning);
    v->addWidget(m_widget, 1);

    connect(fit, &QToolButton::clicked, m_widget, &viz::TimelineWidget::fitAll);
    connect(zoomIn, &QToolButton::clicked, this, [this] { m_widget->zoomBy(1.25); });
    connect(zoomOut, &QToolButton::clicked, this, [this] { m_widget->zoomBy(0.8); });
    connect(m_loadButton, &QToolButton::clicked, this, &TimelinePanel::promptLoadTrace);
    connect(m_clearButton, &QToolButton::clicked, this, &TimelinePanel::clearTrace);
    connect(m_loop, &QComboBox::currentIndexChanged, this, [this] { rebuildModel(true); });
    connect(m_widget, &viz::TimelineWidget::itemClicked, this, &TimelinePanel::onItemClicked);
    connect(&m_session, &Session::resultChanged, this, &TimelinePanel::refresh);
    connect(&m_session, &Session::documentOpened, this, [this] {
        ++m_tag;  // drop a computation for the old document still in flight
        clearTrace();
        m_timeline.reset();
        m_result.reset();
        m_widget->setModel({});
        m_status->setText(tr("No result for this program yet (compiling…)"));
    });
    connect(&ThemeManager::instance(), &ThemeManager::themeChanged, this, [this] {
        m_legend->setText(legendHtml(theme().dark));
        m_widget->update();
    });
    m_legend->setText(legendHtml(theme().dark));
    m_status->setText(tr("No result for this program yet (compiling…)"));
    refresh();
}

void TimelinePanel::setPanelShown(bool shown) {
    m_shown = shown;
    if (shown && m_stale) refresh();
}

void TimelinePanel::refresh() {
    if (!m_shown) {
        m_stale = true;
        return;
    }
    m_stale = false;
    ResultPtr r = m_session.shown();
    if (!r) r = m_session.result();
    if (!r) return;
    m_resultIsStale = m_session.shownIsStale();
    const quint64 tag = ++m_tag;
    const QString target = m_session.target();
    m_pending = true;
    QPointer<TimelinePanel> self(this);
    QThreadPool::globalInstance()->start([self, tag, r, target] {
        TimelinePtr t = timelineFor(r, target);
        QMetaObject::invokeMethod(
            qApp,
            [self, tag, r, t]() {
                if (!self || tag != self->m_tag) return;
                self->m_result = r;
                self->apply(t);
            },
            Qt::QueuedConnection);
    });
}

void TimelinePanel::apply(TimelinePtr t) {
    m_pending = false;
    m_timeline = std::move(t);
    const QString keep = m_loop->currentText();
    m_loop->blockSignals(true);
    m_loop->clear();
    for (const auto& l : m_timeline->timeline.loops)
        m_loop->addItem(tr("line %1: %2").arg(l.loopSpan.line).arg(QString::fromStdString(l.loopVar.empty() ? "kernel" : l.loopVar)));
    if (int i = m_loop->findText(keep); i >= 0) m_loop->setCurrentIndex(i);
    m_loop->setVisible(m_loop->count() > 1);
    m_loop->blockSignals(false);
    rebuildModel(true);
    emit timelineShown();
}

void TimelinePanel::rebuildModel(bool fit) {
    m_warning->hide();
    if (!m_timeline) return;
    const auto& loops = m_timeline->timeline.loops;
    if (loops.empty()) {
        m_widget->setModel({});
        const bool noResult = !m_result || !m_result->ok;
        m_status->setText(noResult ? tr("No result for this program: it does not compile yet (see Problems).")
                                   : tr("No pipeline to show: %1.").arg(QString::fromStdString(m_timeline->reason)));
        return;
    }
    const int li = std::clamp(m_loop->currentIndex(), 0, int(loops.size()) - 1);
    viz::TimelineModel m = viz::TimelineModel::fromPlan(loops[size_t(li)]);
    QString status = QString::fromStdString(m.summary());
    if (m_trace) {
        auto warnings = m.addMeasured(*m_trace, m_session.path().toStdString());
        if (!warnings.empty()) {
            QStringList w;
            for (const auto& s : warnings) w << QString::fromStdString(s);
            m_warning->setText(tr("⚠ Measured trace: %1.").arg(w.join("; ")));
            QPalette p = m_warning->palette();
            p.setColor(QPalette::Window, theme().dark ? QColor("#4a3f1c") : QColor("#fff4ce"));
            p.setColor(QPalette::WindowText, theme().text);
            m_warning->setPalette(p);
            m_warning->show();
        }
    }
    if (m_resultIsStale)
        status = tr("<b>Stale:</b> the current text has errors; this is the plan of the last compile that got this far. ") +
                 status.toHtmlEscaped();
    m_status->setText(status);
    m_widget->setModel(std::move(m), fit);
}

void TimelinePanel::onItemClicked(int row, int item) {
    const auto& it = m_widget->model().rows()[size_t(row)].items[size_t(item)];
    if (!it.span.valid()) return;
    // The pass the plan is read from, so the IR view shows (and cross-highlights) its statement.
    if (m_result && m_timeline && m_session.shown() == m_result) {
        const int pass = timelinePassIndex(*m_result, *m_timeline);
        if (pass >= 0 && pass != m_session.selectedPass()) m_session.selectPass(pass);
    }
    m_session.reveal(it.span);
}

bool TimelinePanel::loadTrace(const QString& path, QString* why) {
    auto text = ts::readSourceFile(path.toStdString(), 256ull << 20);
    if (!text.error.empty()) {
        if (why) *why = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(text.error));
        return false;
    }
    std::string err;
    auto t = viz::parseMeasuredTrace(text.text, &err);
    if (!t) {
        if (why) *why = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(err));
        return false;
    }
    m_trace = std::move(*t);
    m_tracePath = path;
    size_t n = 0;
    for (const auto& w : m_trace->warps) n += w.spans.size();
    m_traceInfo->setText(tr("Measured: %1 · %2 warp(s), %3 stamps%4")
                             .arg(QFileInfo(path).fileName())
                             .arg(m_trace->warps.size())
                             .arg(n)
                             .arg(m_trace->device.empty() ? QString() : " · " + QString::fromStdString(m_trace->device)));
    m_traceInfo->setToolTip(path);
    m_clearButton->setEnabled(true);
    rebuildModel(true);
    return true;
}

void TimelinePanel::clearTrace() {
    m_trace.reset();
    m_tracePath.clear();
    m_traceInfo->setText(tr("Measured: none loaded (tilec trace FILE --target cuda:sm_90a --out trace.json on a GPU)"));
    m_clearButton->setEnabled(false);
    rebuildModel(false);
}

void TimelinePanel::promptLoadTrace() {
    const QString dir = m_tracePath.isEmpty() ? QFileInfo(m_session.path()).path() : QFileInfo(m_tracePath).path();
    const QString path = QFileDialog::getOpenFileName(this, tr("Load Measured Timeline"), dir, tr("tilec trace JSON (*.json)"));
    if (path.isEmpty()) return;
    QString why;
    if (!loadTrace(path, &why)) m_traceInfo->setText(tr("Measured: %1").arg(why));
}

QString TimelinePanel::statusText() const { return m_status->text(); }
QString TimelinePanel::traceWarning() const { return m_warning->isHidden() ? QString() : m_warning->text(); }

}  // namespace ts::gui
