#include "visualizer/widgets/ZoomBar.h"

#include <QHBoxLayout>
#include <QToolButton>

namespace ts::viz {

ZoomBar::ZoomBar(QWidget* parent) : QWidget(parent) {
    auto button = [this](const QString& text, const char* name, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setObjectName(QString::fromLatin1(name));
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    };
    m_out = button(QStringLiteral("\u2212"), "zoomOut", tr("Zoom out (- or Ctrl + wheel down)"));
    m_in = button(QStringLiteral("+"), "zoomIn", tr("Zoom in (+ or Ctrl + wheel up)"));
    m_reset = button(tr("100%"), "zoomReset", tr("Default cell size (0)"));
    m_fit = button(tr("Fit"), "zoomFit", tr("Fit the picture to the view (drag to pan when zoomed in)"));
    m_fit->setCheckable(true);
    m_fit->setChecked(true);
    auto* h = new QHBoxLayout(this);
    h->setContentsMargins(0, 0, 0, 0);
    h->setSpacing(1);
    for (auto* b : {m_out, m_in, m_reset, m_fit}) h->addWidget(b);
    connect(m_out, &QToolButton::clicked, this, &ZoomBar::zoomOut);
    connect(m_in, &QToolButton::clicked, this, &ZoomBar::zoomIn);
    connect(m_reset, &QToolButton::clicked, this, &ZoomBar::zoomReset);
    connect(m_fit, &QToolButton::toggled, this, &ZoomBar::fitToggled);
}

bool ZoomBar::fit() const { return m_fit->isChecked(); }

void ZoomBar::setFit(bool on) { m_fit->setChecked(on); }

}  // namespace ts::viz
