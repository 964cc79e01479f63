// Paints a ts::viz::BankHeatmapModel (visualizer/core/BankMap.h): 32 lane rows x 32 bank columns;
// a cell is filled when that lane's access touches that bank, its colour and number the wavefront
// that serves it (1 = first; a column with numbers up to n is an n-way conflict). Thick lines
// separate the phases (half/quarter warps, ldmatrix matrices); the bottom row shows each bank's
// load per phase. Only paints; hover gives lane/bank/wavefront.
#pragma once
#include <QWidget>

#include "visualizer/core/BankMap.h"

namespace ts::viz {

class BankHeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit BankHeatmapWidget(QWidget* parent = nullptr);
    void setModel(const BankHeatmapModel& m);
    const BankHeatmapModel& model() const { return m_model; }
    QSize sizeHint() const override;
    /// Colour of wavefront w (0 = untouched).
    static QColor wavefrontColor(int w);

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;

private:
    static constexpr int kLeft = 34, kTop = 34, kCell = 16;
    BankHeatmapModel m_model;
    bool m_has = false;
};

}  // namespace ts::viz
