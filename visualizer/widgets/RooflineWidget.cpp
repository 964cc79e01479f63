#include "visualizer/widgets/RooflineWidget.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <vector>

namespace ts::viz {

RooflineWidget::RooflineWidget(QWidget* parent) : QWidget(parent) {
    setMinimumSize(200, 120);
}

QSize RooflineWidget::sizeHint() const { return {420, 300}; }

void RooflineWidget::setRoofline(Roofline roofline, int bestRow) {
    m_roofline = std::move(roofline);
    m_bestRow = bestRow;
    computeRanges();
    update();
}

void RooflineWidget::computeRanges() {
    double xlo = 1e300, xhi = 0, ylo = 1e300, yhi = 0;
    for (const auto& p : m_roofline.points) {
        xlo = std::min(xlo, p.intensity), xhi = std::max(xhi, p.intensity);
        ylo = std::min(ylo, p.tflops), yhi = std::max(yhi, p.tflops);
    }
    if (m_roofline.peaks) {
        // Show the ridge point and the compute roof.
        const double ridge = m_roofline.peaks->tensorTflops / (m_roofline.peaks->dramGBps * 1e-3);
        xlo = std::min(xlo, ridge), xhi = std::max(xhi, ridge);
        yhi = std::max(yhi, m_roofline.peaks->tensorTflops);
        ylo = std::min(ylo, attainableTflops(*m_roofline.peaks, xlo));
    }
    if (xhi <= 0 || yhi <= 0) {
        m_x0 = 0, m_x1 = 3, m_y0 = 0, m_y1 = 3;
        return;
    }
    // The data with a margin of a factor 2 (0.3 decades) each side, at least one decade wide;
    // the decade lines inside are drawn.
    m_x0 = std::log10(xlo) - 0.3, m_x1 = std::log10(xhi) + 0.3;
    m_y0 = std::log10(ylo) - 0.3, m_y1 = std::log10(yhi) + 0.3;
    if (m_x1 - m_x0 < 1) m_x0 -= (1 - (m_x1 - m_x0)) / 2, m_x1 = m_x0 + 1;
    if (m_y1 - m_y0 < 1) m_y0 -= (1 - (m_y1 - m_y0)) / 2, m_y1 = m_y0 + 1;
}

QRectF RooflineWidget::plotRect() const {
    const QFontMetrics fm = fontMetrics();
    const double left = fm.horizontalAdvance("10000") + 14, top = fm.height() + 10;
    return QRectF(left, top, std::max(20.0, width() - left - 12),
                  std::max(20.0, height() - top - 2.0 * fm.height() - 10));
}

QPointF RooflineWidget::toWidget(double intensity, double tflops) const {
    const QRectF r = plotRect();
    const double fx = (std::log10(intensity) - m_x0) / (m_x1 - m_x0);
    const double fy = (std::log10(tflops) - m_y0) / (m_y1 - m_y0);
    return {r.left() + fx * r.width(), r.bottom() - fy * r.height()};
}

QPointF RooflineWidget::pointPosition(int i) const {
    const auto& p = m_roofline.points.at(static_cast<size_t>(i));
    return toWidget(p.intensity, p.tflops);
}

void RooflineWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const QFontMetrics fm = fontMetrics();
    const QColor text = palette().text().color(), grid = palette().mid().color();
    QString title = tr("Roofline: achieved TFLOP/s vs FLOP per DRAM byte");
    if (m_roofline.peaks)
        title += tr(" — %1 (fp16 tensor %2 TFLOP/s, %3 GB/s)")
                     .arg(QString::fromStdString(m_roofline.device))
                     .arg(m_roofline.peaks->tensorTflops)
                     .arg(m_roofline.peaks->dramGBps);
    else if (!m_roofline.device.empty())
        title += tr(" — %1 (no datasheet peaks: no roofs)").arg(QString::fromStdString(m_roofline.device));
    p.setPen(text);
    p.drawText(QRect(6, 2, width() - 12, fm.height() + 4), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(title, Qt::ElideRight, width() - 12));
    const QRectF r = plotRect();
    if (m_roofline.points.empty()) {
        p.setPen(palette().placeholderText().color());
        p.drawText(r, Qt::AlignCenter | Qt::TextWordWrap,
                   m_roofline.note.empty()
                       ? tr("No GPU-timed variant with flops and bytes (run tilec profile or tilec tune on a GPU).")
                       : QString::fromStdString(m_roofline.note));
        return;
    }
    // Grid lines and labels at 1, 2 and 5 times each power of ten inside the ranges.
    auto ticks = [](double lo, double hi) {
        std::vector<double> out;
        for (double d = std::floor(lo); d <= std::ceil(hi); d += 1)
            for (double m : {1.0, 2.0, 5.0}) {
                const double l = d + std::log10(m);
                if (l >= lo && l <= hi) out.push_back(l);
            }
        return out;
    };
    auto tickText = [](double l) {  // "2000", "0.5": plain numbers, no exponents
        const double v = std::pow(10.0, l);
        return v >= 1 ? QString::number(v, 'f', 0) : QString::number(v, 'g', 2);
    };
    for (double l : ticks(m_x0, m_x1)) {
        const double x = r.left() + (l - m_x0) / (m_x1 - m_x0) * r.width();
        p.setPen(QPen(grid, 0, Qt::DotLine));
        p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
        p.setPen(text);
        // Kept inside the widget at the right edge.
        const double lx = std::min(x - 40, width() - 82.0);
        p.drawText(QRectF(lx, r.bottom() + 2, 80, fm.height()), Qt::AlignHCenter,
                   tickText(l));
    }
    for (double l : ticks(m_y0, m_y1)) {
        const double y = r.bottom() - (l - m_y0) / (m_y1 - m_y0) * r.height();
        p.setPen(QPen(grid, 0, Qt::DotLine));
        p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
        p.setPen(text);
        p.drawText(QRectF(0, y - fm.height() / 2.0, r.left() - 4, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, tickText(l));
    }
    p.setPen(text);
    p.drawText(QRectF(r.left(), r.bottom() + fm.height() + 2, r.width(), fm.height()),
               Qt::AlignHCenter, tr("FLOP / DRAM byte (filled: measured traffic, hollow: the sample's bytes)"));
    p.setClipRect(r);
    // Roofs: intensity x bandwidth up to the ridge point, then the compute peak.
    if (m_roofline.peaks) {
        QPainterPath roof;
        const int steps = 64;
        for (int i = 0; i <= steps; ++i) {
            const double ai = std::pow(10.0, m_x0 + (m_x1 - m_x0) * i / steps);
            const QPointF pt = toWidget(ai, attainableTflops(*m_roofline.peaks, ai));
            i == 0 ? roof.moveTo(pt) : roof.lineTo(pt);
        }
        p.setPen(QPen(QColor("#8250df"), 2));
        p.drawPath(roof);
    }
    const QColor pointC = palette().highlight().color(), bestC("#2da44e");
    for (const auto& pt : m_roofline.points) {
        const QPointF c = toWidget(pt.intensity, pt.tflops);
        const QColor col = pt.row == m_bestRow ? bestC : pointC;
        p.setPen(QPen(col, 2));
        p.setBrush(pt.measuredBytes ? QBrush(col) : Qt::NoBrush);
        p.drawEllipse(c, 5, 5);
    }
    // Label the best point (labels of every point would overlap in a tune session), left of
    // it when it would run past the plot's right edge.
    for (const auto& pt : m_roofline.points)
        if (pt.row == m_bestRow) {
            const QPointF c = toWidget(pt.intensity, pt.tflops);
            const QString label = QString::fromStdString(pt.label) +
                                  QString("  %1 TFLOP/s").arg(pt.tflops, 0, 'f', 1);
            const int w = fm.horizontalAdvance(label);
            p.setPen(text);
            p.drawText(c.x() + 8 + w > r.right() ? c + QPointF(-8 - w, -8) : c + QPointF(8, -8), label);
        }
}

void RooflineWidget::mousePressEvent(QMouseEvent* e) {
    int hit = -1;
    double bestD = 8.0 * 8.0;  // within 8 px of a point centre
    for (size_t i = 0; i < m_roofline.points.size(); ++i) {
        const QPointF d = pointPosition(static_cast<int>(i)) - e->position();
        const double dd = d.x() * d.x() + d.y() * d.y();
        if (dd <= bestD) bestD = dd, hit = m_roofline.points[i].row;
    }
    if (hit >= 0) emit pointClicked(hit);
}

}  // namespace ts::viz
