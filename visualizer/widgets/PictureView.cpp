// Zoom, pan and contrast helpers of the picture widgets (PictureView.h).
#include "visualizer/widgets/PictureView.h"

#include <QAbstractScrollArea>
#include <QKeyEvent>
#include <QScrollBar>
#include <QWidget>
#include <algorithm>

namespace ts::viz {

QColor contrastingText(const QColor& bg) {
    const double luma = 0.299 * bg.red() + 0.587 * bg.green() + 0.114 * bg.blue();
    return luma < 140 ? QColor(Qt::white) : QColor(Qt::black);
}

QColor emptyCellColor(const QColor& base) {
    return base.lightness() < 128 ? base.lighter(135) : QColor(Qt::white);
}

int zoomForKey(const QKeyEvent* e, int current, int defaultSize, int lo, int hi) {
    if (!(e->modifiers() & Qt::ControlModifier)) return -1;
    int step = std::max(2, current / 8);
    switch (e->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            return std::clamp(current + step, lo, hi);
        case Qt::Key_Minus:
            return std::clamp(current - step, lo, hi);
        case Qt::Key_0:
            return std::clamp(defaultSize, lo, hi);
        default:
            return -1;
    }
}

void PanDrag::press(const QWidget* w, QPoint globalPos) {
    m_area = nullptr;
    m_panning = false;
    for (QWidget* p = w ? w->parentWidget() : nullptr; p; p = p->parentWidget())
        if (auto* a = qobject_cast<QAbstractScrollArea*>(p)) {
            m_area = a;
            break;
        }
    m_start = globalPos;
    if (m_area)
        m_startScroll = {m_area->horizontalScrollBar()->value(),
                         m_area->verticalScrollBar()->value()};
}

bool PanDrag::move(QPoint globalPos) {
    if (!m_area) return false;
    const QPoint d = globalPos - m_start;
    if (!m_panning && d.manhattanLength() < 5) return false;
    m_panning = true;
    m_area->horizontalScrollBar()->setValue(m_startScroll.x() - d.x());
    m_area->verticalScrollBar()->setValue(m_startScroll.y() - d.y());
    return true;
}

}  // namespace ts::viz
