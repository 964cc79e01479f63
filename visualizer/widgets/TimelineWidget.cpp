// TimelineWidget (TimelineWidget.h).
#include "visualizer/widgets/TimelineWidget.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace ts::viz {

namespace {
QColor rgb(uint32_t c) { return QColor(int(c >> 16) & 0xff, int(c >> 8) & 0xff, int(c) & 0xff); }
bool isDark(const QPalette& p) { return p.color(QPalette::Base).lightness() < 128; }
}  // namespace

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAutoFillBackground(false);
    QFont f = font();
    if (f.pointSizeF() > 0 && f.pointSizeF() < 9) f.setPointSizeF(9);
    setFont(f);
}

void TimelineWidget::setModel(TimelineModel m, bool fit) {
    m_model = std::move(m);
    m_selected = m_hover = {};
    // The names column fits the longest row name (within limits; longer ones are elided).
    const QFontMetrics fm(font());
    int names = 120;
    for (const auto& r : m_model.rows()) names = std::max(names, fm.horizontalAdvance(QString::fromStdString(r.name)) + 18);
    m_view.labelWidth = std::min(names, 360);
    setMinimumHeight(m_view.height(int(m_model.rows().size())));
    if (fit) {
        if (width() > m_view.labelWidth + 50) fitAll();
        else m_fitPending = true;
    }
    update();
}

void TimelineWidget::fitAll() {
    m_view.fit(m_model, width());
    m_fitPending = false;
    update();
    emit viewChanged();
}

void TimelineWidget::zoomBy(double factor) {
    m_view.zoomAt(m_view.labelWidth + (width() - m_view.labelWidth) / 2.0, factor);
    update();
    emit viewChanged();
}

void TimelineWidget::showRange(double from, double to) {
    if (!(to > from)) return;
    m_view.pxPerUnit = std::clamp(std::max(1, width() - m_view.labelWidth - 8) / (to - from), TimelineView::kMinPxPerUnit,
                                  TimelineView::kMaxPxPerUnit);
    m_view.origin = from;
    m_fitPending = false;
    update();
    emit viewChanged();
}

void TimelineWidget::setSelected(TimelineHit h) {
    m_selected = h;
    update();
}

QPointF TimelineWidget::itemCenter(int row, int item) const {
    const auto& it = m_model.rows()[size_t(row)].items[size_t(item)];
    return {(m_view.xOf(it.start) + m_view.xOf(it.end)) / 2, m_view.rowTop(row) + m_view.rowHeight / 2.0};
}

QSize TimelineWidget::sizeHint() const { return {900, m_view.height(int(std::max<size_t>(4, m_model.rows().size())))}; }
QSize TimelineWidget::minimumSizeHint() const { return {m_view.labelWidth + 100, m_view.height(1)}; }

void TimelineWidget::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (m_fitPending && width() > m_view.labelWidth + 50) fitAll();
}

double TimelineWidget::tickStep() const {
    // At least ~70 px between labelled ticks: 1, 2, 5 x 10^n units.
    const double minUnits = 70.0 / m_view.pxPerUnit;
    double step = std::pow(10.0, std::floor(std::log10(std::max(1e-9, minUnits))));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (step * m >= minUnits) return std::max(1.0, step * m);
    return std::max(1.0, step * 10);
}

void TimelineWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QPalette& pal = palette();
    const bool dark = isDark(pal);
    const QColor base = pal.color(QPalette::Base), text = pal.color(QPalette::Text), mid = pal.color(QPalette::Mid);
    QColor band = dark ? base.lighter(135) : base.darker(106);
    p.fillRect(rect(), base);
    const int lw = m_view.labelWidth, W = width();
    const int nrows = int(m_model.rows().size());
    const double bottom = m_view.rowTop(nrows);
    p.setClipRect(QRect(lw, 0, W - lw, height()));
    // Iteration bands: every other iteration shaded down the rows.
    QFont small = font();
    small.setPointSizeF(std::max(8.0, font().pointSizeF() - 0.5));
    p.setFont(small);
    const QFontMetrics fm(small);
    for (const auto& b : m_model.iterations()) {
        const double x0 = m_view.xOf(b.start), x1 = m_view.xOf(b.end);
        if (x1 < lw || x0 > W || b.iteration % 2) continue;
        p.fillRect(QRectF(x0, m_view.headerHeight / 2.0, x1 - x0, bottom - m_view.headerHeight / 2.0), band);
    }
    // Axis ticks: numbers in the header's upper half, grid lines down the rows.
    const double step = tickStep();
    const double first = std::ceil(m_view.axisAt(lw) / step) * step;
    const int half = m_view.headerHeight / 2;
    for (double t = first; m_view.xOf(t) < W; t += step) {
        const double x = m_view.xOf(t);
        p.setPen(mid);
        p.drawLine(QPointF(x, 2), QPointF(x, bottom));
        p.setPen(text);
        p.drawText(QRectF(x + 3, 0, 80, half), Qt::AlignLeft | Qt::AlignVCenter, QString::number(t, 'g', 6));
    }
    // Iteration names in the header's lower half, over the grid lines. Where some visible cell is
    // too narrow for its number, every stride-th iteration (1, 2, 5 x 10^n) is named, over its
    // neighbours' cells: narrow cells were left unnamed one by one (iterations 13-15 of a drain
    // had no number, helper-108), so the reader could not count to them.
    int stride = 1;
    {
        double narrowest = 1e300;
        int widest = 0;
        bool tooNarrow = false;
        for (const auto& b : m_model.iterations()) {
            const double x0 = m_view.xOf(b.start), x1 = m_view.xOf(b.end);
            if (x1 < lw || x0 > W) continue;
            const int w = fm.horizontalAdvance(QString::number(b.iteration));
            narrowest = std::min(narrowest, x1 - x0);
            widest = std::max(widest, w);
            tooNarrow |= x1 - x0 <= w + 2;
        }
        // 1, 2, 5, 10, 20, 50, ...: the first stride whose run of narrowest cells holds a number.
        for (int decade = 1; tooNarrow && narrowest > 0 && decade <= 10000000; decade *= 10) {
            for (int m : {1, 2, 5})
                if (stride = m * decade; stride * narrowest > widest + 8) break;
            if (stride * narrowest > widest + 8) break;
        }
    }
    for (const auto& b : m_model.iterations()) {
        const double x0 = m_view.xOf(b.start), x1 = m_view.xOf(b.end);
        if (x1 < lw || x0 > W) continue;
        const QRectF cell(x0, half, x1 - x0, m_view.headerHeight - half - 1);
        p.fillRect(cell, b.iteration % 2 ? base : band);
    }
    p.setPen(text);
    for (const auto& b : m_model.iterations()) {
        const double x0 = m_view.xOf(b.start), x1 = m_view.xOf(b.end);
        if (x1 < lw || x0 > W) continue;
        QString k = QStringLiteral("k=%1").arg(b.iteration);
        if (stride > 1) {
            if (b.iteration % stride) continue;
            k = QString::number(b.iteration);
            const double w = fm.horizontalAdvance(k) + 4, mid = (x0 + x1) / 2;
            p.drawText(QRectF(mid - w / 2, half, w, m_view.headerHeight - half - 1), Qt::AlignCenter, k);
            continue;
        }
        if (x1 - x0 <= fm.horizontalAdvance(k) + 4) k = QString::number(b.iteration);
        if (x1 - x0 > fm.horizontalAdvance(k) + 2)
            p.drawText(QRectF(x0, half, x1 - x0, m_view.headerHeight - half - 1), Qt::AlignCenter, k);
    }
    // Bars.
    p.setFont(font());
    const QFontMetrics bfm(font());
    const QColor errorColor(dark ? QColor("#ff6b6b") : QColor("#d01010"));
    for (int r = 0; r < nrows; ++r) {
        const auto& row = m_model.rows()[size_t(r)];
        const double y = m_view.rowTop(r), h = m_view.rowHeight;
        for (int i = 0; i < int(row.items.size()); ++i) {
            const auto& it = row.items[size_t(i)];
            double x0 = m_view.xOf(it.start), x1 = m_view.xOf(it.end);
            if (x1 < lw - 4 || x0 > W + 4) continue;
            QColor fill = rgb(timelineColor(it.category, dark));
            const bool instant = it.end <= it.start;
            if (instant) {
                p.fillRect(QRectF(x0 - 1.5, y, 3, h), fill.darker(dark ? 70 : 140));
                QPolygonF tri;
                tri << QPointF(x0 - 4, y) << QPointF(x0 + 4, y) << QPointF(x0, y + 6);
                p.setPen(Qt::NoPen);
                p.setBrush(fill.darker(dark ? 70 : 140));
                p.drawPolygon(tri);
                continue;
            }
            if (x1 - x0 < 1) x1 = x0 + 1;
            QRectF rc(x0, y, x1 - x0, h);
            if (it.unreached) fill.setAlpha(70);
            if (it.mid >= 0) {
                const double xm = m_view.xOf(it.mid);
                QColor light = fill;
                light.setAlpha(90);
                p.fillRect(QRectF(x0, y, std::max(0.0, xm - x0), h), light);
                p.fillRect(QRectF(xm, y, std::max(0.0, x1 - xm), h), fill);
            } else {
                p.fillRect(rc, fill);
            }
            const bool wide = x1 - x0 >= 5;
            if (wide) {
                p.setPen(QPen(dark ? base.darker(150) : fill.darker(130), 1));
                p.setBrush(Qt::NoBrush);
                p.drawRect(rc.adjusted(0.5, 0.5, -0.5, -0.5));
            }
            if (it.error) {
                p.setPen(QPen(errorColor, 2.5));
                p.setBrush(Qt::NoBrush);
                p.drawRect(rc.adjusted(1, 1, -1, -1));
            }
            QString label = QString::fromStdString(it.label);
            if (x1 - x0 <= bfm.horizontalAdvance(label) + 6) label = QString::fromStdString(it.tiny);
            if (!label.isEmpty() && x1 - x0 > bfm.horizontalAdvance(label) + 3) {
                p.setPen(dark ? QColor(Qt::white) : QColor(Qt::black));
                p.drawText(rc, Qt::AlignCenter, label);
            }
        }
    }
    // Hover and selection frames.
    auto frame = [&](TimelineHit h, const QColor& c, qreal w) {
        if (!h.valid() || h.row >= nrows || h.item >= int(m_model.rows()[size_t(h.row)].items.size())) return;
        const auto& it = m_model.rows()[size_t(h.row)].items[size_t(h.item)];
        const double x0 = m_view.xOf(it.start), x1 = std::max(m_view.xOf(it.end), x0 + 3);
        p.setPen(QPen(c, w));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x0 - 2, m_view.rowTop(h.row) - 2, x1 - x0 + 4, m_view.rowHeight + 4));
    };
    frame(m_hover, mid, 1.5);
    frame(m_selected, pal.color(QPalette::Highlight), 2.5);
    // Row names over a solid column, with a rule between kinds of rows.
    p.setClipping(false);
    p.fillRect(QRect(0, 0, lw, height()), pal.color(QPalette::Window));
    p.setPen(mid);
    p.drawLine(lw, 0, lw, int(bottom));
    p.setPen(text);
    p.setFont(small);
    p.drawText(QRect(6, 0, lw - 10, m_view.headerHeight), Qt::AlignLeft | Qt::AlignVCenter,
               QString::fromStdString(m_model.axisUnit()) + QStringLiteral(" →"));
    p.setFont(font());
    for (int r = 0; r < nrows; ++r) {
        const auto& row = m_model.rows()[size_t(r)];
        const double y = m_view.rowTop(r);
        if (r > 0 && m_model.rows()[size_t(r - 1)].kind != row.kind) {
            p.setPen(mid);
            p.drawLine(QPointF(0, y - m_view.rowGap / 2.0), QPointF(W, y - m_view.rowGap / 2.0));
        }
        p.setPen(text);
        const QString name = bfm.elidedText(QString::fromStdString(row.name), Qt::ElideRight, lw - 10);
        p.drawText(QRectF(6, y, lw - 10, m_view.rowHeight), Qt::AlignLeft | Qt::AlignVCenter, name);
    }
}

bool TimelineWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        TimelineHit h = hitTest(m_model, m_view, he->pos().x(), he->pos().y());
        if (h.valid())
            QToolTip::showText(he->globalPos(), QString::fromStdString(m_model.rows()[size_t(h.row)].items[size_t(h.item)].tooltip), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void TimelineWidget::wheelEvent(QWheelEvent* e) {
    const QPoint d = e->angleDelta();
    if (e->modifiers() & Qt::ShiftModifier || d.x() != 0) {
        m_view.panBy((d.x() != 0 ? d.x() : d.y()) / 2.0);
    } else if (d.y() != 0) {
        m_view.zoomAt(std::max<double>(m_view.labelWidth, e->position().x()), std::pow(1.0015, d.y()));
    }
    update();
    emit viewChanged();
    e->accept();
}

void TimelineWidget::keyPressEvent(QKeyEvent* e) {
    const double page = (width() - m_view.labelWidth) * 0.2;
    switch (e->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: zoomBy(1.25); break;
        case Qt::Key_Minus: zoomBy(0.8); break;
        case Qt::Key_0:
        case Qt::Key_F: fitAll(); break;
        case Qt::Key_Left: m_view.panBy(page), update(), emit viewChanged(); break;
        case Qt::Key_Right: m_view.panBy(-page), update(), emit viewChanged(); break;
        default: QWidget::keyPressEvent(e); return;
    }
    e->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return QWidget::mousePressEvent(e);
    m_pressed = true;
    m_dragging = false;
    m_pressAt = e->position();
    m_pressOrigin = m_view.origin;
    setFocus(Qt::MouseFocusReason);
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* e) {
    if (m_pressed && (e->buttons() & Qt::LeftButton)) {
        const double dx = e->position().x() - m_pressAt.x();
        if (std::abs(dx) > 3) m_dragging = true;
        if (m_dragging) {
            m_view.origin = m_pressOrigin - dx / m_view.pxPerUnit;
            setCursor(Qt::ClosedHandCursor);
            update();
            emit viewChanged();
        }
        return;
    }
    TimelineHit h = hitTest(m_model, m_view, e->position().x(), e->position().y());
    if (h.row != m_hover.row || h.item != m_hover.item) {
        m_hover = h;
        update();
    }
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || !m_pressed) return QWidget::mouseReleaseEvent(e);
    m_pressed = false;
    unsetCursor();
    if (m_dragging) {
        m_dragging = false;
        return;
    }
    TimelineHit h = hitTest(m_model, m_view, e->position().x(), e->position().y());
    m_selected = h;
    update();
    if (h.valid()) emit itemClicked(h.row, h.item);
}

}  // namespace ts::viz
