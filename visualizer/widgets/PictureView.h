// What the picture widgets (bank heatmap, layout grid) share to stay legible (issue 15): a zoom
// step set (Ctrl + wheel; '+' / '-' / '0' with or without Ctrl; the ZoomBar's buttons),
// drag-to-pan inside the QScrollArea their panel puts them in, and a text colour chosen by its
// WCAG 2 contrast ratio against the cell colour (black or white, whichever is higher: never
// below 4.58:1 for any colour), the same rule in both themes.
#pragma once
#include <QColor>
#include <QPoint>

class QAbstractScrollArea;
class QKeyEvent;
class QWidget;

namespace ts::viz {

/// WCAG 2 relative luminance of an sRGB colour (0 black .. 1 white).
double relativeLuminance(const QColor& c);

/// WCAG 2 contrast ratio of two colours (1 .. 21; 4.5 is the minimum for normal text).
double contrastRatio(const QColor& a, const QColor& b);

/// Black or white, whichever has the higher WCAG contrast ratio on `background` (>= 4.58:1).
QColor contrastingText(const QColor& background);

/// The fill of a cell that holds nothing: white on a light palette, a slightly lifted base on a
/// dark one (a white grid in the dark theme glares and hides the coloured cells).
QColor emptyCellColor(const QColor& base);

/// Zoom key handling: '+'/'=' grows, '-' shrinks, '0' resets to `defaultSize` (100%), with or
/// without Ctrl (keypad too). Returns the new cell size for `current` (clamped to [lo, hi]), or
/// -1 when the key is not a zoom key.
int zoomForKey(const QKeyEvent* e, int current, int defaultSize, int lo, int hi);

/// One zoom step from `current` (in: grow, else shrink), clamped to [lo, hi]: the wheel's, the
/// keys' and the ZoomBar buttons' step.
int zoomStep(int current, bool in, int lo, int hi);

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
