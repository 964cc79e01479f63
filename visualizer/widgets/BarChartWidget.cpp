#include "visualizer/widgets/BarChartWidget.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>

namespace ts::viz {

BarChartWidget::BarChartWidget(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(80);
}

void BarChartWidget::setBars(QVector<Bar> bars, const QString& title, int best,
                             const QString& unit) {
    m_bars = std::move(bars);
    m_title = title;
    m_best = best;
    m_unit = unit;
    updateGeometry();
    update();
}

int BarChartWidget::rowHeight() const { return fontMetrics().height() + 6; }

QSize BarChartWidget::sizeHint() const {
    return {420, 24 + rowHeight() * static_cast<int>(std::max<qsizetype>(m_bars.size(), 1))};
}

void BarChartWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QFontMetrics fm = fontMetrics();
    p.setPen(palette().text().color());
    p.drawText(QRect(6, 2, width() - 12, fm.height() + 4), Qt::AlignLeft | Qt::AlignVCenter,
               m_title);
    if (m_bars.isEmpty()) return;
    int labelW = 0;
    for (const auto& b : m_bars) labelW = std::max(labelW, fm.horizontalAdvance(b.label));
    labelW = std::min(labelW + 12, width() / 2);
    double maxV = 0;
    for (const auto& b : m_bars)
        if (!b.missing) maxV = std::max(maxV, b.value);
    const int top = fm.height() + 8, rh = rowHeight();
    const int valueW = fm.horizontalAdvance("000000.0000 " + m_unit) + 8;
    const int barMax = std::max(10, width() - labelW - valueW - 12);
    const QColor bar = palette().highlight().color().lighter(140);
    const QColor bestC("#2da44e");
    for (int i = 0; i < m_bars.size(); ++i) {
        const Bar& b = m_bars[i];
        const int y = top + i * rh;
        p.setPen(palette().text().color());
        p.drawText(QRect(6, y, labelW - 6, rh), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(b.label, Qt::ElideMiddle, labelW - 8));
        if (b.missing) {
            p.setPen(palette().placeholderText().color());
            p.drawText(QRect(labelW + 6, y, barMax, rh), Qt::AlignLeft | Qt::AlignVCenter,
                       b.note.isEmpty() ? tr("no value") : b.note);
            continue;
        }
        const int w = maxV > 0 ? std::max(1, static_cast<int>(barMax * b.value / maxV)) : 1;
        p.fillRect(QRect(labelW + 6, y + 2, w, rh - 4), i == m_best ? bestC : bar);
        p.setPen(palette().text().color());
        p.drawText(QRect(labelW + 10 + w, y, valueW, rh), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::number(b.value, 'g', 5) + (m_unit.isEmpty() ? "" : " " + m_unit));
    }
}

void BarChartWidget::mousePressEvent(QMouseEvent* e) {
    const int top = fontMetrics().height() + 8;
    const int i = (static_cast<int>(e->position().y()) - top) / rowHeight();
    if (i >= 0 && i < m_bars.size()) emit barClicked(i);
}

}  // namespace ts::viz
