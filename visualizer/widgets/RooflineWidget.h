// The roofline of the compare view (issue 12 item 5): each correct variant as a point at (FLOP per
// DRAM byte, achieved TFLOP/s) on log-log axes, under the device's bandwidth and compute roofs
// when its peaks are known (visualizer/core/Roofline.h). Painted with QPainter like
// BarChartWidget (no QtCharts). Filled points: traffic measured by the DRAM counters; hollow: the
// sample's ideal traffic. The best variant is green; a click on a point selects its variant.
#pragma once
#include <QPointF>
#include <QString>
#include <QWidget>
#include <optional>

#include "visualizer/core/Roofline.h"

namespace ts::viz {

class RooflineWidget : public QWidget {
    Q_OBJECT
public:
    explicit RooflineWidget(QWidget* parent = nullptr);
    /// Shows `roofline`; `bestRow` (a VariantCompare row, or -1) is highlighted.
    void setRoofline(Roofline roofline, int bestRow);
    const Roofline& roofline() const { return m_roofline; }
    /// Widget position of point `i` (tests; valid after a resize).
    QPointF pointPosition(int i) const;
    QSize sizeHint() const override;

signals:
    /// The VariantCompare row of the clicked point.
    void pointClicked(int row);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;

private:
    /// Log10 ranges of the axes: points, and the ridge point when the roofs are known.
    void computeRanges();
    QRectF plotRect() const;
    QPointF toWidget(double intensity, double tflops) const;

    Roofline m_roofline;
    int m_bestRow = -1;
    double m_x0 = 0, m_x1 = 1, m_y0 = 0, m_y1 = 1;  ///< log10 FLOP/B, log10 TFLOP/s
};

}  // namespace ts::viz
