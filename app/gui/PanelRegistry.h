// Panel factories (DESIGN.md §4): every dockable panel is described once — a stable id (the
// QSettings key of its dock, and its name in View menus and the command palette), a title, the
// dock area it starts in, and a function that builds it over the Session. The main window creates
// the docks from this list, so plugins can add panels by registering a factory before it is built.
#pragma once
#include <QString>
#include <functional>
#include <vector>

class QWidget;

namespace ts::gui {

class Session;

struct PanelFactory {
    QString id;     ///< "passes", "generated", ...
    QString title;  ///< "Pass Explorer"
    Qt::DockWidgetArea area = Qt::RightDockWidgetArea;
    /// Panels in the same area with the same group are tabbed together ("" = own dock space).
    QString tabGroup;
    std::function<QWidget*(Session&)> create;
};

/// Optional interface of panels whose refresh is expensive: the main window tells them whether
/// their dock is actually on screen (its tab in front, not closed), so they can skip work on
/// every edit while hidden behind another tab and catch up when shown. Panels start as shown
/// (standalone use, tests).
class LazyPanel {
public:
    virtual ~LazyPanel() = default;
    virtual void setPanelShown(bool shown) = 0;
};

/// The registered panels in registration order (built-ins first).
std::vector<PanelFactory>& panelFactories();
/// Registers a panel (replacing one with the same id).
void registerPanel(PanelFactory f);
/// Registers the built-in panels once (idempotent).
void registerBuiltinPanels();

}  // namespace ts::gui
