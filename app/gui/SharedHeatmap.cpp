// Painting of SharedHeatmap: a value colour ramp over the written finite elements' range.
#include "app/gui/SharedHeatmap.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace ts::gui {

SharedHeatmap::SharedHeatmap(QWidget* parent) : QWidget(parent) {
    setMinimumSize(160, 120);
    setMouseTracking(true);
}

void SharedHeatmap::setData(std::vector<dbg::SharedElement> cells, int rows, int cols,
                            int focusThread) {
    m_cells = std::move(cells);
    m_rows = rows;
    m_cols = cols;
    m_focus = focusThread;
    m_lo = m_hi = 0;
    bool first = true;
    for (auto& e : m_cells) {
        if (!e.written || !std::isfinite(e.value)) continue;
        m_lo = first ? e.value : std::min(m_lo, e.value);
        m_hi = first ? e.value : std::max(m_hi, e.value);
        first = false;
    }
    update();
}

int SharedHeatmap::focusCells() const {
    return int(std::count_if(m_cells.begin(), m_cells.end(),
                             [&](const dbg::SharedElement& e) { return e.lastWriter == m_focus; }));
}

QSize SharedHeatmap::sizeHint() const { return {420, 260}; }

QRect SharedHeatmap::cellRect(int r, int c) const {
    if (m_rows <= 0 || m_cols <= 0) return {};
    double w = double(width()) / m_cols, h = double(height()) / m_rows;
    return QRect(QPoint(int(c * w), int(r * h)), QPoint(int((c + 1) * w) - 1, int((r + 1) * h) - 1));
}

void SharedHeatmap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (m_rows <= 0 || m_cols <= 0) {
        p.drawText(rect(), Qt::AlignCenter, tr("no shared buffer"));
        return;
    }
    const double span = m_hi > m_lo ? m_hi - m_lo : 1;
    for (int r = 0; r < m_rows; ++r)
        for (int c = 0; c < m_cols; ++c) {
            size_t i = size_t(r) * size_t(m_cols) + size_t(c);
            if (i >= m_cells.size()) break;
            const auto& e = m_cells[i];
            QColor col;
            if (e.pending) {
                col = QColor(250, 215, 60);
            } else if (!e.written || !std::isfinite(e.value)) {
                col = QColor(190, 190, 190);
            } else {
                double t = (e.value - m_lo) / span;  // 0 blue, 0.5 white, 1 red
                int a = int(255 * std::clamp(std::fabs(t - 0.5) * 2, 0.0, 1.0));
                col = t < 0.5 ? QColor(255 - a, 255 - a, 255) : QColor(255, 255 - a, 255 - a);
            }
            QRect cr = cellRect(r, c);
            p.fillRect(cr, col);
            if (e.lastWriter == m_focus && m_focus >= 0) {
                p.setPen(QPen(Qt::black, 1));
                p.drawRect(cr.adjusted(0, 0, -1, -1));
            }
        }
}

bool SharedHeatmap::event(QEvent* ev) {
    if (ev->type() == QEvent::ToolTip && m_rows > 0 && m_cols > 0) {
        auto* he = static_cast<QHelpEvent*>(ev);
        int c = int(he->pos().x() * m_cols / std::max(1, width()));
        int r = int(he->pos().y() * m_rows / std::max(1, height()));
        size_t i = size_t(r) * size_t(m_cols) + size_t(c);
        if (r >= 0 && c >= 0 && r < m_rows && c < m_cols && i < m_cells.size()) {
            const auto& e = m_cells[i];
            QString text = tr("element %1 (row %2, col %3, physical order)\n").arg(i).arg(r).arg(c);
            text += e.pending ? tr("cp.async in flight")
                    : e.written ? tr("value %1").arg(e.value, 0, 'g', 7)
                                : tr("never written");
            if (e.lastWriter >= 0) text += tr("\nlast written by thread %1").arg(e.lastWriter);
            QToolTip::showText(he->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(ev);
}

}  // namespace ts::gui
