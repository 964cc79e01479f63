// The Layout panel (issue 4 §5): picks a buffer of the shown compile result that has a layout
// (fragments: thread/local per element; shared tiles: physical offset and bank, swizzle
// included), a pipeline stage for multi-buffered tiles, a warp to highlight; paints it with
// viz::LayoutGridWidget in a scroll area (Ctrl+wheel zooms); exports SVG (visualizer/core/Svg.h)
// and PNG. The grid comes from viz::LayoutGridModel over CompileResult::lowered, i.e. the exact
// layouts codegen used. When the session focus lands on a source line that names a buffer with a
// layout, that buffer is selected (editor -> layout view cross-selection).
#pragma once
#include <QWidget>

#include "app/gui/PanelRegistry.h"

class QComboBox;
class QLabel;
class QSpinBox;
class QScrollArea;

namespace ts::viz {
class LayoutGridWidget;
}

namespace ts::gui {

class Session;

class LayoutPanel : public QWidget, public LazyPanel {
    Q_OBJECT
public:
    explicit LayoutPanel(Session& session, QWidget* parent = nullptr);
    /// Selects a buffer by name; false if it has no layout in the shown result.
    bool selectBuffer(const QString& name);
    QString currentBuffer() const;
    QStringList buffers() const;
    viz::LayoutGridWidget* grid() const { return m_grid; }
    /// Writes the current picture as SVG / PNG; false on failure.
    bool exportSvg(const QString& path) const;
    bool exportPng(const QString& path) const;

    /// LazyPanel: the main window says whether the dock is on screen.
    void setPanelShown(bool shown) override;

private:
    void refreshBuffers();
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
    QScrollArea* m_scroll;
    viz::LayoutGridWidget* m_grid;
};

}  // namespace ts::gui
