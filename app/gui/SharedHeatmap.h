// A shared-memory buffer of the paused kernel as a 2-D heatmap (DebuggerPanel, issue 11): one
// cell per stored element (rows = all leading dimensions, columns = the innermost one, physical
// i.e. swizzled order as the interpreter stores it), coloured blue (low) .. white .. red (high);
// never-written elements grey, elements with a cp.async in flight yellow, and the elements the
// focused thread wrote last outlined. It only paints the data it is given.
#pragma once
#include <QWidget>
#include <vector>

#include "compiler/debugger/Debugger.h"

namespace ts::gui {

class SharedHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit SharedHeatmap(QWidget* parent = nullptr);
    /// Shows `cells` as rows x cols; `focusThread` outlines its last writes.
    void setData(std::vector<dbg::SharedElement> cells, int rows, int cols, int focusThread);
    int rows() const { return m_rows; }
    int cols() const { return m_cols; }
    /// Cells whose last writer is the focused thread (tests).
    int focusCells() const;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;  // tooltips: element, value, last writer

private:
    QRect cellRect(int r, int c) const;
    std::vector<dbg::SharedElement> m_cells;
    int m_rows = 0, m_cols = 0, m_focus = -1;
    double m_lo = 0, m_hi = 0;
};

}  // namespace ts::gui
