// What the picture widgets (bank heatmap, layout grid) share to stay legible (issue 15): a zoom
// step set (Ctrl + wheel, Ctrl + '+' / '-' / '0'), drag-to-pan inside the QScrollArea their
// panel puts them in, and a text colour that contrasts with any cell colour in both themes.
#pragma once
#include <QColor>
#include <QPoint>

class QAbstractScrollArea;
class QKeyEvent;
class QWidget;

namespace ts::viz {

/// Black or white, whichever reads better on `background` (ITU-R BT.601 luma, threshold 140).
QColor contrastingText(const QColor& background);

/// The fill of a cell that holds nothing: white on a light palette, a slightly lifted base on a
/// dark one (a white grid in the dark theme glares and hides the coloured cells).
QColor emptyCellColor(const QColor& base);

/// Zoom key handling: Ctrl + '+'/'=' grows, Ctrl + '-' shrinks, Ctrl + '0' resets. Returns the
/// new cell size for `current` (clamped to [lo, hi]), or -1 when the key is not a zoom key.
int zoomForKey(const QKeyEvent* e, int current, int defaultSize, int lo, int hi);

/// Drag-to-pan: press, then move with the button held scrolls the nearest QAbstractScrollArea
/// ancestor of the widget. A drag shorter than a few pixels is a click (move() returns false).
class PanDrag {
public:
    void press(const QWidget* w, QPoint globalPos);
    /// Scrolls when dragging; true once the drag is a pan (not a click).
    bool move(QPoint globalPos);
    void release() { m_area = nullptr; }
    bool panning() const { return m_panning; }

private:
    QAbstractScrollArea* m_area = nullptr;
    QPoint m_start, m_startScroll;
    bool m_panning = false;
};

}  // namespace ts::viz
