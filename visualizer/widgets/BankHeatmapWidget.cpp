#include "visualizer/widgets/BankHeatmapWidget.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace ts::viz {

BankHeatmapWidget::BankHeatmapWidget(QWidget* parent) : QWidget(parent) { setMouseTracking(true); }

void BankHeatmapWidget::setModel(const BankHeatmapModel& m) {
    m_model = m;
    m_has = true;
    updateGeometry();
    update();
}

QSize BankHeatmapWidget::sizeHint() const {
    return {kLeft + m_model.banks() * kCell + 8, kTop + m_model.lanes() * kCell + 8};
}

QColor BankHeatmapWidget::wavefrontColor(int w) {
    static const QRgb k[] = {0xffffff, 0xb7e4b0, 0xfde08b, 0xfdae61, 0xf46d43, 0xd73027, 0xa50026};
    return QColor(k[std::clamp(w, 0, 6)]);
}

void BankHeatmapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_has) return;
    QFont f = font();
    f.setPixelSize(9);
    p.setFont(f);
    p.setPen(palette().text().color());
    p.drawText(QRect(4, 0, width() - 8, 16), Qt::AlignLeft | Qt::AlignVCenter,
               QString::fromStdString(m_model.title() + "   " + m_model.summary()));
    for (int b = 0; b < 32; ++b)
        p.drawText(QRect(kLeft + b * kCell, 18, kCell, 14), Qt::AlignCenter, QString::number(b));
    for (int l = 0; l < m_model.lanes(); ++l) {
        p.setPen(palette().text().color());
        p.drawText(QRect(0, kTop + l * kCell, kLeft - 4, kCell), Qt::AlignRight | Qt::AlignVCenter, QString::number(l));
        for (int b = 0; b < 32; ++b) {
            int v = m_model.cell(l, b);
            QRect rc(kLeft + b * kCell, kTop + l * kCell, kCell, kCell);
            p.fillRect(rc, wavefrontColor(v));
            p.setPen(QColor(0, 0, 0, 40));
            p.drawRect(rc.adjusted(0, 0, -1, -1));
            if (v) {
                p.setPen(Qt::black);
                p.drawText(rc, Qt::AlignCenter, QString::number(v));
            }
        }
        if (l + 1 < m_model.lanes() && m_model.phaseOfLane(l + 1) >= 0 && m_model.phaseOfLane(l) != m_model.phaseOfLane(l + 1)) {
            p.setPen(QPen(Qt::black, 2));
            p.drawLine(kLeft, kTop + (l + 1) * kCell, kLeft + 32 * kCell, kTop + (l + 1) * kCell);
        }
    }
}

bool BankHeatmapWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && m_has) {
        auto* he = static_cast<QHelpEvent*>(e);
        int b = (he->pos().x() - kLeft) / kCell, l = (he->pos().y() - kTop) / kCell;
        if (he->pos().x() >= kLeft && he->pos().y() >= kTop && b < 32 && l < m_model.lanes()) {
            int v = m_model.cell(l, b);
            QString s = QStringLiteral("lane %1, bank %2: ").arg(l).arg(b) +
                        (v ? QStringLiteral("wavefront %1 of phase %2").arg(v).arg(m_model.phaseOfLane(l)) : QStringLiteral("not touched"));
            QToolTip::showText(he->globalPos(), s, this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}

}  // namespace ts::viz
