// Zoom, pan and contrast helpers of the picture widgets (PictureView.h).
#include "visualizer/widgets/PictureView.h"

#include <QAbstractScrollArea>
#include <QKeyEvent>
#include <QScrollBar>
#include <QWidget>
#include <algorithm>
#include <cmath>

namespace ts::viz {

double relativeLuminance(const QColor& c) {
    auto lin = [](int v8) {
        const double v = v8 / 255.0;
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    const QColor rgb = c.toRgb();
    return 0.2126 * lin(rgb.red()) + 0.7152 * lin(rgb.green()) + 0.0722 * lin(rgb.blue());
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor contrastingText(const QColor& bg) {
    const QColor black(Qt::black), white(Qt::white);
    return contrastRatio(black, bg) >= contrastRatio(white, bg) ? black : white;
}

QColor emptyCellColor(const QColor& base) {
    return base.lightness() < 128 ? base.lighter(135) : QColor(Qt::white);
}

int zoomStep(int current, bool in, int lo, int hi) {
    const int step = std::max(2, current / 8);
    return std::clamp(in ? current + step : current - step, lo, hi);
}

int zoomForKey(const QKeyEvent* e, int current, int defaultSize, int lo, int hi) {
    const auto mods = e->modifiers() & ~(Qt::KeypadModifier | Qt::ShiftModifier);
    if (mods != Qt::NoModifier && mods != Qt::ControlModifier) return -1;
    switch (e->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            return zoomStep(current, true, lo, hi);
        case Qt::Key_Minus:
            return zoomStep(current, false, lo, hi);
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
