// Paints a ts::viz::LayoutGridModel (visualizer/core/LayoutGrid.h): one cell per logical element,
// coloured by owning thread (fragments; a warp is one hue family) or by bank (shared tiles, the
// "physical" picture), labelled thread/local or offset/bank when cells are large enough. Ctrl +
// wheel, '+'/'-'/'0' or the owner's ZoomBar zoom (the owner puts it in a QScrollArea; dragging pans); hovering shows the cell's description
// as a tooltip; clicking a cell selects its thread (or bank) and outlines all its cells. It only
// paints the model and reports clicks.
#pragma once
#include <QWidget>
#include <optional>

#include "visualizer/core/LayoutGrid.h"
#include "visualizer/widgets/PictureView.h"

namespace ts::viz {

class LayoutGridWidget : public QWidget {
    Q_OBJECT
public:
    explicit LayoutGridWidget(QWidget* parent = nullptr);

    void setModel(std::optional<LayoutGridModel> m);
    const std::optional<LayoutGridModel>& model() const { return m_model; }
    /// Cell size in pixels (4..64).
    void setCellSize(int px);
    /// One zoom step in or out / back to the default size (100%), as the user's: zoomedByUser.
    void zoomBy(bool in);
    void resetZoom();
    static constexpr int kDefaultCell = 28;
    int cellSize() const { return m_cell; }
    /// The cell size that shows all `cols` columns in `widthPx` pixels (the row header
    /// included): at most the default size (28), at least kMinFitCell. Below 18 px the cells
    /// lose their labels and the picture is the colour pattern of banks / threads -- what a
    /// 64-column swizzled tile needs to be seen whole (at 16, the floor until 2026-12-06, Fit
    /// showed 44 of K_s's 64 columns in a 1600 px window). The panels' fit-to-view zoom.
    static constexpr int kMinFitCell = 8;
    static int cellSizeToFit(int widthPx, int64_t cols);
    /// Whether cells carry their two text labels at the current size (the widest label fits
    /// in 9 px text or larger).
    bool labelsShown() const;
    /// Outlines the cells of this thread (-1 = none) / this warp (-1 = none).
    void setSelectedThread(int64_t t);
    void setSelectedWarp(int64_t w);
    int64_t selectedThread() const { return m_thread; }
    /// (row, col) under a widget position, or {-1, -1}.
    std::pair<int64_t, int64_t> cellAt(QPoint p) const;
    QSize sizeHint() const override;

signals:
    void cellClicked(qint64 row, qint64 col);
    /// The user zoomed (Ctrl + wheel, Ctrl + '+' / '-' / '0'): a fit-to-view owner stops fitting.
    void zoomedByUser();

protected:
    void paintEvent(QPaintEvent*) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    bool event(QEvent* e) override;

private:
    /// The cell labels' pixel size at the current cell size: the largest from 9 px up to 2/5 of
    /// the cell at which the widest label fits; 0 when even 9 px does not fit.
    int labelPixelSize() const;
    static constexpr int kLeft = 32, kTop = 18;
    std::optional<LayoutGridModel> m_model;
    int m_cell = kDefaultCell;
    PanDrag m_pan;
    int64_t m_thread = -1, m_warp = -1;
};

}  // namespace ts::viz
