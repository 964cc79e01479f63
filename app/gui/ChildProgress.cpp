#include "app/gui/ChildProgress.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QProcess>
#include <QProgressBar>
#include <QTimer>

#include <csignal>

namespace ts::gui {

ProgressRow::ProgressRow(std::function<QString()> phase, std::function<bool()> busy,
                         QWidget* parent)
    : QWidget(parent), m_phase(std::move(phase)), m_busy(std::move(busy)) {
    m_bar = new QProgressBar(this);
    m_bar->setRange(0, 0);  // busy: tilec does not say how far a variant or run has got
    m_bar->setMaximumWidth(160);
    m_bar->setTextVisible(false);
    m_label = new QLabel(this);
    // The phase names a variant's whole config: wrap rather than widen the dock.
    m_label->setWordWrap(true);
    m_label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* lay = new QHBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(m_bar);
    lay->addWidget(m_label, 1);
    hide();
    m_timer = new QTimer(this);
    m_timer->setInterval(200);
    connect(m_timer, &QTimer::timeout, this, &ProgressRow::refresh);
}

void ProgressRow::start() {
    m_clock.start();
    m_timer->start();
    refresh();
}

void ProgressRow::refresh() {
    if (!m_busy()) {
        m_timer->stop();
        hide();
        return;
    }
    show();
    m_label->setText(tr("%1  ·  %2 s  ·  Stop cancels").arg(m_phase()).arg(elapsedS(), 0, 'f', 1));
}

QString ProgressRow::text() const { return isHidden() ? QString() : m_label->text(); }

void stopChild(QProcess& proc, int graceMs) {
    if (proc.state() == QProcess::NotRunning) return;
    const qint64 pid = proc.processId();
    if (graceMs <= 0 || pid <= 0) {
        proc.kill();
        proc.waitForFinished(2000);
        return;
    }
    ::kill(pid_t(pid), SIGINT);
    QPointer<QProcess> p(&proc);
    QTimer::singleShot(graceMs, &proc, [p] {
        if (p && p->state() != QProcess::NotRunning) p->kill();
    });
}

}  // namespace ts::gui
