#include "visualizer/widgets/LayoutGridWidget.h"

#include <algorithm>

#include <QFontMetrics>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

namespace ts::viz {

LayoutGridWidget::LayoutGridWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);  // zoom keys after a click
}

void LayoutGridWidget::setModel(std::optional<LayoutGridModel> m) {
    m_model = std::move(m);
    updateGeometry();
    resize(sizeHint());
    update();
}

void LayoutGridWidget::setCellSize(int px) {
    m_cell = std::clamp(px, 4, 64);
    resize(sizeHint());
    update();
}

void LayoutGridWidget::zoomBy(bool in) {
    setCellSize(zoomStep(m_cell, in, 4, 64));
    emit zoomedByUser();
}

void LayoutGridWidget::resetZoom() {
    setCellSize(kDefaultCell);
    emit zoomedByUser();
}

void LayoutGridWidget::setSelectedThread(int64_t t) {
    m_thread = t;
    update();
}

void LayoutGridWidget::setSelectedWarp(int64_t w) {
    m_warp = w;
    update();
}

int LayoutGridWidget::cellSizeToFit(int widthPx, int64_t cols) {
    if (cols <= 0) return kDefaultCell;
    return int(std::clamp<int64_t>((widthPx - kLeft - 4) / cols, kMinFitCell, kDefaultCell));
}

int LayoutGridWidget::labelPixelSize() const {
    if (!m_model || m_cell < 18) return 0;
    const auto& m = *m_model;
    // The widest labels of the model: offsets / threads and banks / registers.
    int64_t maxA = 0, maxB = 0;
    for (int64_t r = 0; r < m.rows(); ++r)
        for (int64_t c = 0; c < m.cols(); ++c) {
            const LayoutCell& x = m.cell(r, c);
            maxA = std::max<int64_t>(maxA, m.isShared() ? x.physical : x.thread);
            maxB = std::max<int64_t>(maxB, m.isShared() ? x.bank : x.local);
        }
    const QString a = m.isShared() ? QString::number(maxA) : QStringLiteral("T%1").arg(maxA);
    const QString b = m.isShared() ? QStringLiteral("b%1").arg(maxB) : QStringLiteral("r%1").arg(maxB);
    QFont f = font();
    for (int px = std::max(9, m_cell * 2 / 5); px >= 9; --px) {
        f.setPixelSize(px);
        QFontMetrics fm(f);
        if (std::max(fm.horizontalAdvance(a), fm.horizontalAdvance(b)) <= m_cell - 2 &&
            2 * fm.ascent() <= m_cell)
            return px;
    }
    return 0;
}

bool LayoutGridWidget::labelsShown() const { return labelPixelSize() > 0; }

QSize LayoutGridWidget::sizeHint() const {
    if (!m_model) return {200, 100};
    return QSize(int(kLeft + m_model->cols() * m_cell + 4),
                 int(kTop + m_model->rows() * m_cell + 4));
}

std::pair<int64_t, int64_t> LayoutGridWidget::cellAt(QPoint p) const {
    if (!m_model || p.x() < kLeft || p.y() < kTop) return {-1, -1};
    int64_t c = (p.x() - kLeft) / m_cell, r = (p.y() - kTop) / m_cell;
    if (r >= m_model->rows() || c >= m_model->cols()) return {-1, -1};
    return {r, c};
}

void LayoutGridWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_model) return;
    const auto& m = *m_model;
    QFont f = font();
    // Readable at 100%: headers never below 11 px, cell labels only when 10 px text fits twice.
    f.setPixelSize(std::max(11, m_cell / 3));
    p.setFont(f);
    const int headerW = p.fontMetrics().horizontalAdvance(QString::number(m.cols())) + 4;
    const int step = m_cell >= headerW       ? 1
                     : m_cell * 2 >= headerW ? 2
                     : m_cell * 4 >= headerW ? 4
                                             : 8;
    p.setPen(palette().text().color());
    for (int64_t c = 0; c < m.cols(); c += step)
        p.drawText(QRect(int(kLeft + c * m_cell), 0, m_cell * step, kTop),
                   Qt::AlignLeft | Qt::AlignVCenter, QString::number(c));
    for (int64_t r = 0; r < m.rows(); r += step)
        p.drawText(QRect(0, int(kTop + r * m_cell), kLeft - 3, m_cell),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(r));
    // Labels in the largest text (9 px or more) at which the widest one fits its cell: a
    // fit-to-view grid keeps them legible instead of overflowing into the next cell.
    const int labelPx = labelPixelSize();
    const bool labels = labelPx > 0;
    QFont cellFont = font();
    cellFont.setPixelSize(std::max(9, labelPx));
    const QColor gridLine = palette().mid().color();
    for (int64_t r = 0; r < m.rows(); ++r)
        for (int64_t c = 0; c < m.cols(); ++c) {
            const LayoutCell& x = m.cell(r, c);
            QRect rc(int(kLeft + c * m_cell), int(kTop + r * m_cell), m_cell, m_cell);
            uint32_t col =
                m.isShared() ? bankColor(x.bank) : threadColor(x.thread, m.lanesPerWarp());
            bool sel = m.isShared() ? (m_thread >= 0 && x.bank == m_thread)
                                    : (m_thread >= 0 && x.thread == m_thread);
            bool inWarp = !m.isShared() && m_warp >= 0 && x.thread / m.lanesPerWarp() == m_warp;
            QColor qc(QRgb(0xff000000u | col));
            if ((m_thread >= 0 || m_warp >= 0) && !sel && !inWarp) qc = qc.lighter(160);
            p.fillRect(rc, qc);
            p.setPen(sel ? QPen(palette().text().color(), 2) : QPen(gridLine, 1));
            p.drawRect(rc.adjusted(0, 0, -1, -1));
            if (labels) {
                p.setFont(cellFont);
                p.setPen(contrastingText(qc));
                QString a = m.isShared() ? QString::number(x.physical)
                                         : QStringLiteral("T%1").arg(x.thread);
                QString b = m.isShared() ? QStringLiteral("b%1").arg(x.bank)
                                         : QStringLiteral("r%1").arg(x.local);
                p.drawText(rc.adjusted(0, 1, 0, -m_cell / 2), Qt::AlignCenter, a);
                p.drawText(rc.adjusted(0, m_cell / 2 - 1, 0, 0), Qt::AlignCenter, b);
            }
        }
}

void LayoutGridWidget::keyPressEvent(QKeyEvent* e) {
    const int z = zoomForKey(e, m_cell, kDefaultCell, 4, 64);
    if (z < 0) return QWidget::keyPressEvent(e);
    setCellSize(z);
    emit zoomedByUser();
    e->accept();
}

void LayoutGridWidget::mouseMoveEvent(QMouseEvent* e) {
    if (e->buttons() && m_pan.move(e->globalPosition().toPoint())) setCursor(Qt::ClosedHandCursor);
    QWidget::mouseMoveEvent(e);
}

void LayoutGridWidget::mouseReleaseEvent(QMouseEvent* e) {
    // A click selects (on release, so that a drag can pan instead).
    const bool panned = m_pan.panning();
    m_pan.release();
    unsetCursor();
    if (panned || !m_model) return;
    auto [r, c] = cellAt(e->pos());
    if (r < 0) return;
    const LayoutCell& x = m_model->cell(r, c);
    setSelectedThread(m_model->isShared() ? x.bank : x.thread);
    emit cellClicked(r, c);
}

void LayoutGridWidget::wheelEvent(QWheelEvent* e) {
    if (!(e->modifiers() & Qt::ControlModifier)) return QWidget::wheelEvent(e);
    zoomBy(e->angleDelta().y() > 0);
    e->accept();
}

void LayoutGridWidget::mousePressEvent(QMouseEvent* e) {
    m_pan.press(this, e->globalPosition().toPoint());
}

bool LayoutGridWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && m_model) {
        auto* he = static_cast<QHelpEvent*>(e);
        auto [r, c] = cellAt(he->pos());
        if (r >= 0)
            QToolTip::showText(he->globalPos(), QString::fromStdString(m_model->describe(r, c)),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

}  // namespace ts::viz
