// Paints a ts::viz::TimelineModel (visualizer/core/TimelineModel.h): a header with the axis
// ticks and the iteration bands (k=0, k=1, ...), then one row per warp role, per shared stage
// (occupancy: light while the bytes are in flight, solid once the tile landed) and per measured
// warp, each event a bar coloured by its category (timelineColor), a barrier-check error with a
// red frame. Zoom: wheel (at the cursor), '+'/'-', '0' or 'F' to fit; pan: drag, Shift + wheel,
// Left/Right. Hover shows the event's details; a click selects it and emits itemClicked (the
// panel moves the editor to its source line). It only paints and forwards input.
#pragma once
#include <QWidget>

#include "visualizer/core/TimelineModel.h"

namespace ts::viz {

class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget* parent = nullptr);
    /// Shows `m`; `fit` also resets zoom and pan to show all of it.
    void setModel(TimelineModel m, bool fit = true);
    const TimelineModel& model() const { return m_model; }
    TimelineView& view() { return m_view; }
    const TimelineView& view() const { return m_view; }
    /// Zoom and pan that show the whole model.
    void fitAll();
    void zoomBy(double factor);
    /// Zoom and pan that show the axis range [from, to] across the picture.
    void showRange(double from, double to);
    TimelineHit selected() const { return m_selected; }
    void setSelected(TimelineHit h);
    /// Centre of item (row, item) in widget coordinates (tests click there).
    QPointF itemCenter(int row, int item) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void itemClicked(int row, int item);
    void viewChanged();

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    double tickStep() const;
    TimelineModel m_model;
    TimelineView m_view;
    TimelineHit m_selected, m_hover;
    QPointF m_pressAt;
    double m_pressOrigin = 0;
    bool m_pressed = false, m_dragging = false, m_fitPending = true;
};

}  // namespace ts::viz
