#include "visualizer/widgets/BankHeatmapWidget.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>

namespace ts::viz {

namespace {
/// Text sizes (px): never below kMinTextPx at any zoom, growing with the cells.
int labelPx(int cell) { return std::max(BankHeatmapWidget::kMinTextPx, cell * 11 / 20); }
/// Every n-th label (n = 1, 2, 4, 8) so that labels `need` px apart fit cells of `cell` px.
int stepFor(int cell, int need) {
    int step = 1;
    while (step < 8 && cell * step < need) step *= 2;
    return step;
}
}  // namespace

BankHeatmapWidget::BankHeatmapWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);  // zoom keys after a click
}

void BankHeatmapWidget::setModel(const BankHeatmapModel& m) {
    m_model = m;
    m_has = true;
    updateGeometry();
    resize(sizeHint());
    update();
}

void BankHeatmapWidget::clear() {
    m_model = {};
    m_has = false;
    update();
}

void BankHeatmapWidget::zoomBy(bool in) {
    setCellSize(zoomStep(m_cell, in, kMinCell, kMaxCell));
    emit zoomedByUser();
}

void BankHeatmapWidget::resetZoom() {
    setCellSize(kDefaultCell);
    emit zoomedByUser();
}

int BankHeatmapWidget::cellSizeToFit(QSize view) const {
    const int banks = std::max(1, m_model.banks()), lanes = std::max(1, m_model.lanes());
    // As sizeHint() would be at cell size c (the margins grow with the text).
    auto fitsW = [&](int c) { return labelPx(c) * 2 + 12 + banks * c + 8 <= view.width(); };
    auto fitsH = [&](int c) { return labelPx(c) * 3 + 20 + lanes * c + 8 <= view.height(); };
    int w = kDefaultCell;
    while (w > kMinCell && !fitsW(w)) --w;
    int h = kDefaultCell;
    while (h > kMinCell && !fitsH(h)) --h;
    return std::min(w, std::max(h, std::min(w, int(kReadableCell))));
}

QColor BankHeatmapWidget::digitColor(int w) { return contrastingText(wavefrontColor(w)); }

bool BankHeatmapWidget::cellDigitsShown() const {
    QFont f = font();
    f.setPixelSize(labelPx(m_cell));
    const QFontMetrics fm(f);
    return fm.height() <= m_cell && fm.horizontalAdvance(QStringLiteral("8")) + 2 <= m_cell;
}

int BankHeatmapWidget::laneLabelStep() const {
    QFont f = font();
    f.setPixelSize(labelPx(m_cell));
    return stepFor(m_cell, QFontMetrics(f).height());
}

int BankHeatmapWidget::bankLabelStep() const {
    QFont f = font();
    f.setPixelSize(labelPx(m_cell));
    return stepFor(m_cell, QFontMetrics(f).horizontalAdvance(QStringLiteral("00")) + 2);
}

int BankHeatmapWidget::minTextPx() const { return labelPx(m_cell); }

void BankHeatmapWidget::setCellSize(int px) {
    m_cell = std::clamp(px, kMinCell, kMaxCell);
    updateGeometry();
    resize(sizeHint());
    update();
}

int BankHeatmapWidget::left() const { return labelPx(m_cell) * 2 + 12; }
// Three header rows: title, "bank →", bank numbers.
int BankHeatmapWidget::top() const { return labelPx(m_cell) * 3 + 20; }

QSize BankHeatmapWidget::sizeHint() const { return sizeForCell(m_cell); }

QSize BankHeatmapWidget::sizeForCell(int c) const {
    return {labelPx(c) * 2 + 12 + m_model.banks() * c + 8, labelPx(c) * 3 + 20 + m_model.lanes() * c + 8};
}

QColor BankHeatmapWidget::wavefrontColor(int w) {
    static const QRgb k[] = {0xffffff, 0xb7e4b0, 0xfde08b, 0xfdae61, 0xf46d43, 0xd73027, 0xa50026};
    return QColor(k[std::clamp(w, 0, 6)]);
}

void BankHeatmapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_has) return;
    const QColor text = palette().text().color();
    const QColor empty = emptyCellColor(palette().base().color());
    QColor grid = palette().mid().color();
    grid.setAlpha(160);
    const int L = left(), T = top(), px = labelPx(m_cell);
    QFont f = font();
    f.setPixelSize(px + 1);
    p.setFont(f);
    p.setPen(text);
    // Title and summary on one line when they fit the (fitted) width; else the summary moves
    // after "bank →" on the next line, each elided rather than cut at the edge.
    const QString title = QString::fromStdString(m_model.title());
    const QString summary = QString::fromStdString(m_model.summary());
    const int avail = width() - 8;
    const bool oneLine = p.fontMetrics().horizontalAdvance(title + "   " + summary) <= avail;
    p.drawText(QRect(4, 0, avail, px + 6), Qt::AlignLeft | Qt::AlignVCenter,
               oneLine ? title + "   " + summary
                       : p.fontMetrics().elidedText(title, Qt::ElideRight, avail));
    f.setPixelSize(px);
    p.setFont(f);
    const QString bankArrow = tr("bank →");
    p.drawText(QRect(L, px + 8, width() - L - 4, px + 2), Qt::AlignLeft | Qt::AlignVCenter, bankArrow);
    if (!oneLine) {
        const int x = L + p.fontMetrics().horizontalAdvance(bankArrow) + 3 * px;
        p.drawText(QRect(x, px + 8, width() - x - 4, px + 2), Qt::AlignLeft | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(summary, Qt::ElideRight, std::max(0, width() - x - 4)));
    }
    // Bank numbers: every column when they fit, else every 2nd, 4th or 8th.
    const int step = bankLabelStep(), laneStep = laneLabelStep();
    const bool digits = cellDigitsShown();
    const int numbersY = 2 * px + 14;
    for (int b = 0; b < m_model.banks(); b += step)
        p.drawText(QRect(L + b * m_cell - (step - 1) * m_cell / 2, numbersY, m_cell * step, px + 2),
                   Qt::AlignCenter, QString::number(b));
    p.drawText(QRect(0, numbersY, L - 6, px + 2), Qt::AlignRight | Qt::AlignVCenter, tr("lane"));
    const int lanes = m_model.lanes(), banks = m_model.banks();  // 32 x 32; 64 lanes on AMD
    for (int l = 0; l < lanes; ++l) {
        p.setPen(text);
        if (l % laneStep == 0)
            p.drawText(QRect(0, T + l * m_cell - (laneStep - 1) * m_cell / 2, L - 6, m_cell * laneStep),
                       Qt::AlignRight | Qt::AlignVCenter, QString::number(l));
        for (int b = 0; b < banks; ++b) {
            const int v = m_model.cell(l, b);
            QRect rc(L + b * m_cell, T + l * m_cell, m_cell, m_cell);
            const QColor fill = v ? wavefrontColor(v) : empty;
            p.fillRect(rc, fill);
            p.setPen(grid);
            p.drawRect(rc.adjusted(0, 0, -1, -1));
            if (v && digits) {
                p.setPen(contrastingText(fill));
                p.drawText(rc, Qt::AlignCenter, QString::number(v));
            }
        }
        if (l + 1 < lanes && m_model.phaseOfLane(l + 1) >= 0 &&
            m_model.phaseOfLane(l) != m_model.phaseOfLane(l + 1)) {
            p.setPen(QPen(text, 2));
            p.drawLine(L, T + (l + 1) * m_cell, L + banks * m_cell, T + (l + 1) * m_cell);
        }
    }
}

void BankHeatmapWidget::wheelEvent(QWheelEvent* e) {
    if (!(e->modifiers() & Qt::ControlModifier)) return QWidget::wheelEvent(e);
    zoomBy(e->angleDelta().y() > 0);
    e->accept();
}

void BankHeatmapWidget::keyPressEvent(QKeyEvent* e) {
    const int z = zoomForKey(e, m_cell, kDefaultCell, kMinCell, kMaxCell);
    if (z < 0) return QWidget::keyPressEvent(e);
    setCellSize(z);
    emit zoomedByUser();
    e->accept();
}

void BankHeatmapWidget::mousePressEvent(QMouseEvent* e) {
    m_pan.press(this, e->globalPosition().toPoint());
    QWidget::mousePressEvent(e);
}

void BankHeatmapWidget::mouseMoveEvent(QMouseEvent* e) {
    if (e->buttons() && m_pan.move(e->globalPosition().toPoint())) setCursor(Qt::ClosedHandCursor);
    QWidget::mouseMoveEvent(e);
}

void BankHeatmapWidget::mouseReleaseEvent(QMouseEvent* e) {
    m_pan.release();
    unsetCursor();
    QWidget::mouseReleaseEvent(e);
}

bool BankHeatmapWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && m_has) {
        auto* he = static_cast<QHelpEvent*>(e);
        const int L = left(), T = top();
        int b = (he->pos().x() - L) / m_cell, l = (he->pos().y() - T) / m_cell;
        if (he->pos().x() >= L && he->pos().y() >= T && b < m_model.banks() &&
            l < m_model.lanes()) {
            int v = m_model.cell(l, b);
            QString s =
                QStringLiteral("lane %1, bank %2: ").arg(l).arg(b) +
                (v ? QStringLiteral("wavefront %1 of phase %2").arg(v).arg(m_model.phaseOfLane(l))
                   : QStringLiteral("not touched"));
            QToolTip::showText(he->globalPos(), s, this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}

}  // namespace ts::viz
