// The zoom buttons of a picture panel (issue 15): "−", "+", "100%" and a checkable "Fit" that
// fits the picture to the view. It only reports clicks; the panel applies them to its picture
// (BankHeatmapWidget, LayoutGridWidget) and unchecks Fit when the user zooms by hand.
#pragma once
#include <QWidget>

class QToolButton;

namespace ts::viz {

class ZoomBar : public QWidget {
    Q_OBJECT
public:
    explicit ZoomBar(QWidget* parent = nullptr);
    bool fit() const;
    /// Checks or unchecks Fit (fitToggled is emitted when it changes).
    void setFit(bool on);
    QToolButton* zoomInButton() const { return m_in; }
    QToolButton* zoomOutButton() const { return m_out; }
    QToolButton* resetButton() const { return m_reset; }
    QToolButton* fitButton() const { return m_fit; }

signals:
    void zoomIn();
    void zoomOut();
    /// "100%": the picture's default cell size.
    void zoomReset();
    void fitToggled(bool on);

private:
    QToolButton *m_out, *m_in, *m_reset, *m_fit;
};

}  // namespace ts::viz
