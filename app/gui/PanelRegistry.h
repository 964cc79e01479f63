// Panel factories (DESIGN.md §4): every dockable panel is described once — a stable id (the
// QSettings key of its dock, and its name in View menus and the command palette), a title, the
// dock area it starts in, and a function that builds it over the Session. The main window creates
// the docks from this list, so plugins can add panels by registering a factory before it is built.
//
// Workspaces (issue 15): the main window offers task workspaces — kWorkspaceAuthor ("author"),
// kWorkspaceInspect ("inspect"), kWorkspaceLayout ("layout": Layout & Banks), kWorkspaceDebug
// ("debug"), kWorkspaceProfile ("profile": Profile & Compare). Each is a saved dock arrangement
// the user can change; a panel is placed in a workspace by id, in one of two ways:
//   registerPanel({"debugger", tr("Debugger"), Qt::BottomDockWidgetArea, "bottom",
//                  [](Session& s) { return new DebugPanel(s); }, {kWorkspaceDebug}});
// or, for a panel registered elsewhere, addPanelToWorkspace(kWorkspaceProfile, "compare").
// A panel with no workspace is shown in every workspace's default arrangement (plugins). Register
// before the MainWindow is constructed (registerBuiltinPanels() runs first, so a later
// registerPanel with a built-in id replaces it).
#pragma once
#include <QString>
#include <QStringList>
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
    /// The workspaces whose default arrangement shows this panel (kWorkspace* ids); empty = all.
    /// The user may still show it anywhere (View menu) and that is remembered per workspace.
    QStringList workspaces;
};

/// Workspace ids (stable: QSettings keys, test names, `--workspace` of the screenshot tool).
inline constexpr const char* kWorkspaceAuthor = "author";
inline constexpr const char* kWorkspaceInspect = "inspect";
inline constexpr const char* kWorkspaceLayout = "layout";
inline constexpr const char* kWorkspaceDebug = "debug";
inline constexpr const char* kWorkspaceProfile = "profile";

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
/// Adds `panelId` to the default arrangement of `workspace` (for a panel registered elsewhere;
/// the panel may be registered before or after this call).
void addPanelToWorkspace(const QString& workspace, const QString& panelId);
/// The panel ids in `workspace`'s default arrangement, in registration order.
QStringList workspacePanels(const QString& workspace);
/// Registers the built-in panels once (idempotent).
void registerBuiltinPanels();

}  // namespace ts::gui
