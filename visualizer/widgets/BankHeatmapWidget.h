// Paints a ts::viz::BankHeatmapModel (visualizer/core/BankMap.h): lane rows (32; 64 on AMD) x 32
// bank columns; a cell is filled when that lane's access touches that bank, its colour and number
// the wavefront that serves it (1 = first; a column with numbers up to n is an n-way conflict).
// Thick lines separate the phases (half/quarter warps, ldmatrix matrices). Legible at 100% (issue
// 15): text never below 11 px -- when cells get smaller than that text, the digits in the cells
// are left out and the lane / bank numbers thin to every 2nd, 4th or 8th (the hover tooltip still
// names every cell); digits black or white by WCAG contrast against the cell's colour, untouched
// cells and lines from the palette so both themes keep contrast. Ctrl + wheel, '+'/'-'/'0' or
// the panel's ZoomBar zoom; the panel fits it to its view by default (cellSizeToFit); dragging
// pans the QScrollArea the panel puts it in; hover gives lane/bank/wavefront.
#pragma once
#include <QWidget>

#include "visualizer/core/BankMap.h"
#include "visualizer/widgets/PictureView.h"

namespace ts::viz {

class BankHeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit BankHeatmapWidget(QWidget* parent = nullptr);
    void setModel(const BankHeatmapModel& m);
    /// Shows nothing (no access selected, or no result for the program).
    void clear();
    bool hasModel() const { return m_has; }
    const BankHeatmapModel& model() const { return m_model; }
    /// Cell size in pixels (kMinCell..kMaxCell); the default is kDefaultCell.
    void setCellSize(int px);
    int cellSize() const { return m_cell; }
    /// One zoom step in or out / back to the default size (100%), as the user's: zoomedByUser.
    void zoomBy(bool in);
    void resetZoom();
    /// The cell size at which the picture fits `view` (width x height, px): every bank across;
    /// all lanes too unless that would make cells smaller than kReadableCell (then the lanes
    /// scroll). At most kDefaultCell, at least kMinCell.
    int cellSizeToFit(QSize view) const;
    /// Whether the cells carry their wavefront digits at the current size.
    bool cellDigitsShown() const;
    /// Every n-th lane / bank is numbered at the current size (1, 2, 4 or 8).
    int laneLabelStep() const;
    int bankLabelStep() const;
    /// The smallest pixel size of any text the widget paints (never below kMinTextPx).
    int minTextPx() const;
    /// The digit colour on a cell of wavefront w >= 1 (contrastingText of its fill).
    static QColor digitColor(int w);
    QSize sizeHint() const override;
    /// The widget's size at cell size `c` (sizeHint() is sizeForCell(cellSize())).
    QSize sizeForCell(int c) const;
    /// Colour of wavefront w (0 = untouched in a light theme).
    static QColor wavefrontColor(int w);
    static constexpr int kMinCell = 6, kReadableCell = 14, kDefaultCell = 22, kMaxCell = 64;
    static constexpr int kMinTextPx = 11;

signals:
    /// The user zoomed (wheel, keys, buttons): a fit-to-view owner stops fitting.
    void zoomedByUser();

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;

private:
    int left() const;
    int top() const;
    BankHeatmapModel m_model;
    bool m_has = false;
    int m_cell = kDefaultCell;
    PanDrag m_pan;
};

}  // namespace ts::viz
