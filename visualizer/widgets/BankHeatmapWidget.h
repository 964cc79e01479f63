// Paints a ts::viz::BankHeatmapModel (visualizer/core/BankMap.h): lane rows (32; 64 on AMD) x 32
// bank columns; a cell is filled when that lane's access touches that bank, its colour and number
// the wavefront that serves it (1 = first; a column with numbers up to n is an n-way conflict).
// Thick lines separate the phases (half/quarter warps, ldmatrix matrices). Legible at 100% (issue
// 15): 11 px or larger text, digits black or white by the cell's colour, untouched cells and lines
// from the palette so both themes keep contrast; Ctrl + wheel or Ctrl + '+'/'-'/'0' zooms, dragging
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
    QSize sizeHint() const override;
    /// Colour of wavefront w (0 = untouched in a light theme).
    static QColor wavefrontColor(int w);
    static constexpr int kMinCell = 10, kDefaultCell = 22, kMaxCell = 64;

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
