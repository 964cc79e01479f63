// The Layout panel (issue 4 §5): picks a buffer of the shown compile result that has a layout
// (fragments: thread/local per element; shared tiles: physical offset and bank, swizzle
// included), a pipeline stage for multi-buffered tiles, a warp to highlight; paints it with
// viz::LayoutGridWidget in a scroll area (Ctrl+wheel zooms); exports SVG (visualizer/core/Svg.h)
// and PNG. The grid comes from viz::LayoutGridModel over CompileResult::lowered, i.e. the exact
// layouts codegen used. When the session focus lands on a source line that names a buffer with a
// layout, that buffer is selected (editor -> layout view cross-selection). After the buffers the
// list offers the hardware layouts of compiler/analysis/HwLayouts.h (mma.sync A/B/C, wgmma D,
// MFMA A/B/C, ldmatrix), one warp/warpgroup/wave atom each.
#pragma once
#include <QWidget>

#include "app/gui/PanelRegistry.h"

class QComboBox;
class QLabel;
class QSpinBox;
class QScrollArea;
class QToolButton;

namespace ts::viz {
class LayoutGridWidget;
class ZoomBar;
}

namespace ts::gui {

class Session;

class LayoutPanel : public QWidget, public LazyPanel {
    Q_OBJECT
public:
    explicit LayoutPanel(Session& session, QWidget* parent = nullptr);
    /// Selects a buffer by name; false if it has no layout in the shown result.
    bool selectBuffer(const QString& name);
    /// The selected buffer, or empty when a hardware layout (or nothing) is shown.
    QString currentBuffer() const;
    /// Buffers of the shown result that have a layout (hardware entries excluded).
    QStringList buffers() const;
    /// The hardware layout entries listed after the buffers, as specs of
    /// analysis::makeBuiltinLayout ("mma_a", "wgmma_c:64", ...); always present, even before
    /// the first compile, so the tensor-core fragments can be studied without a program.
    QStringList hardwareLayouts() const;
    /// Shows a hardware layout entry; false if `spec` is not in hardwareLayouts().
    bool selectHardwareLayout(const QString& spec);
    viz::LayoutGridWidget* grid() const { return m_grid; }
    /// Writes the current picture as SVG / PNG; false on failure.
    bool exportSvg(const QString& path) const;
    bool exportPng(const QString& path) const;

    /// LazyPanel: the main window says whether the dock is on screen.
    void setPanelShown(bool shown) override;
    /// Fit-to-view zoom (the default): the cell size follows the panel's width so that every
    /// column shows (viz::LayoutGridWidget::cellSizeToFit); zooming by hand turns it off, the
    /// Fit button back on.
    bool fitToView() const;
    void setFitToView(bool on);

protected:
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    /// In fit-to-view mode: the cell size for the scroll area's current width.
    void fit();
    void updateCaption();  ///< m_caption, and whether the cells carry their labels at this size
    void refreshBuffers();
    /// Draws hardware layout `spec` (rebuild() for a hardware entry).
    void rebuildHardware(const QString& spec);
    /// File name stem for exports: the buffer or the hardware spec.
    QString exportStem() const;
    /// Recomputes the picture (fragment layouts take ~100 ms for gemm.py's accumulator); skipped
    /// while the panel is a hidden tab of a shown window, and redone when it is shown, so edits
    /// do not pay for a picture nobody sees.
    void rebuild();
    bool m_stale = false;
    bool m_shown = true;
    void onFocus();
    Session& m_session;
    QComboBox* m_buffer;
    QSpinBox *m_tile, *m_warp;
    QLabel* m_info;
    QString m_caption;  ///< the buffer's description and what the cells show (updateCaption)
    QScrollArea* m_scroll;
    viz::LayoutGridWidget* m_grid;
    viz::ZoomBar* m_zoom;
};

}  // namespace ts::gui
