// Task workspaces and maximised views of the main window (issue 15). A workspace is a saved dock
// arrangement (QMainWindow::saveState) for one task — Author, Inspect, Layout & Banks, Debug,
// Profile & Compare. Its first arrangement shows the panels that PanelRegistry places in it
// (PanelFactory::workspaces, addPanelToWorkspace) at their factory positions, with per-task
// sizes; whatever the user changes (moving, closing, showing docks) is kept for that workspace
// when they switch away, in QSettings when the window persists its layout. Any view — a dock or
// the editor ("editor") — can be maximised to fill the window and restored to the arrangement it
// came from; switching workspace restores first.
#pragma once
#include <QByteArray>
#include <QList>
#include <QMap>
#include <QObject>
#include <QString>

class QDockWidget;
class QMainWindow;

namespace ts::gui {

/// A built-in workspace: id (PanelRegistry.h kWorkspace*), title, and its shortcut (Ctrl+1..5).
struct WorkspaceInfo {
    QString id;
    QString title;
};
/// The built-in workspaces in toolbar order.
const QList<WorkspaceInfo>& workspaceList();

/// The id of the maximisable view that is the editor (not a dock).
inline constexpr const char* kEditorViewId = "editor";

class WorkspaceManager : public QObject {
    Q_OBJECT
public:
    /// `docks`: the main window's docks by panel id; `defaultState`: the state right after the
    /// docks were created (every panel at its factory position). `persist`: read and write the
    /// arrangements in QSettings (off for tests and screenshots).
    WorkspaceManager(QMainWindow& window, QMap<QString, QDockWidget*> docks,
                     QByteArray defaultState, bool persist);

    QString current() const { return m_current; }
    /// Saves the current arrangement, then shows `id`'s saved (or default) arrangement.
    /// Unknown ids are ignored.
    void switchTo(const QString& id);
    /// Brings the current workspace back to its default arrangement (View › Reset Layout).
    void resetCurrent();
    /// Applies the current workspace's default dock sizes (needs the window's final size).
    void applyDefaultSizes();
    /// The current arrangement, remembered for the current workspace (and in QSettings when
    /// persisting). Called on close.
    void saveCurrent();
    /// Loads the saved workspace id and arrangements (persisting windows only); the window's
    /// own restoreState has already put the current one on screen. Returns false when nothing
    /// was saved.
    bool loadSaved();

    // --- maximised view --------------------------------------------------------------------
    /// Makes `viewId` (a panel id or kEditorViewId) fill the window; another maximised view is
    /// restored first. Unknown ids are ignored.
    void maximize(const QString& viewId);
    /// Back to the arrangement before maximize().
    void restoreMaximized();
    /// Maximises the view that has keyboard focus (else the editor), or restores.
    void toggleMaximizeFocused();
    QString maximizedView() const { return m_maximized; }
    /// The panel id of the dock containing `w` (kEditorViewId for anything else).
    QString viewOf(const QWidget* w) const;

signals:
    void workspaceChanged(const QString& id);
    void maximizedChanged(const QString& viewId);  ///< empty = restored

private:
    void applyDefault(const QString& id);
    QString settingsKey(const QString& id) const;

    QMainWindow& m_window;
    QMap<QString, QDockWidget*> m_docks;
    QByteArray m_defaultState;
    bool m_persist;
    QString m_current;
    QMap<QString, QByteArray> m_states;  ///< arrangements of workspaces left this session
    QString m_maximized;
    QByteArray m_beforeMaximize;
};

}  // namespace ts::gui
