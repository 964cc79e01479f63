// The IDE's main window: the editor in the centre (with its find bar), the panels of the
// PanelRegistry as docks (layout persisted with QSettings), File/Edit/View/Run/Help menus, recent
// files, a Samples menu over samples/, light/dark themes, the command palette, and the status bar
// (compile state, pass count, caret position). It owns the Session; panels only see the Session.
// Menu and action set-up lives in MainWindowActions.cpp.
#pragma once
#include <QMainWindow>
#include <QMap>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;

namespace ts::plugin {
class Exporter;
}

namespace ts::gui {

class FindBar;
class Recovery;
class Session;
class SourceEditor;
class WorkspaceManager;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// `restoreLayout`: apply the saved geometry/dock layout (off for screenshots and tests).
    explicit MainWindow(bool restoreLayout = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    Session& session() { return *m_session; }
    SourceEditor* editor() const { return m_editor; }
    FindBar* findBar() const { return m_findBar; }
    /// The dock / panel widget of a registered panel id ("passes", "generated", ...).
    QDockWidget* dock(const QString& id) const { return m_docks.value(id); }
    QWidget* panel(const QString& id) const;
    /// Every command (for the palette and tests).
    QList<QAction*> commands() const;
    QAction* action(const QString& id) const { return m_actions.value(id); }

    /// Opens `path` (asking to save unsaved changes first unless `force`); false on failure.
    bool openFile(const QString& path, bool force = false);
    bool save();
    bool saveAs();
    void newFile();
    /// File › Export: asks for a folder and writes the nvcc project (ProjectExport.h).
    void exportProjectInteractive();
    /// File › Export With › <plugin exporter>.
    void exportWithPlugin(plugin::Exporter* ex);
    /// Help › Plugins: every plugin found, loaded or not (and why).
    void showPlugins();
    /// The samples folder: $TS_SOURCE_DIR/samples, next to/above the executable, or the source
    /// tree this build came from; empty if none is found.
    static QString samplesDir();
    /// Applies and remembers a theme ("light" | "dark").
    void setTheme(const QString& name);
    void showCommandPalette();
    /// Back to the current workspace's default dock arrangement.
    void resetLayout();
    /// Task workspaces and the maximised view (Workspaces.h).
    WorkspaceManager* workspaces() const { return m_workspaces; }
    /// Opens panel `id`'s dock and brings it to the front of its tab group.
    void showPanel(const QString& id);
    /// View › Panel: X — closes the panel when it is on screen, else shows it in front (a
    /// background tab comes to the front instead of being closed).
    void togglePanel(const QString& id);
    /// True when the panel's dock is open and not a background tab.
    bool panelOnScreen(const QString& id) const;
    /// Offers unsaved documents of crashed sessions back (a dialog per document); returns how
    /// many were recovered.
    int offerRecovery();
    Recovery* recovery() const { return m_recovery; }

protected:
    void closeEvent(QCloseEvent* e) override;
    void showEvent(QShowEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    bool event(QEvent* e) override;

private:
    void createDocks();
    void createActions();  // MainWindowActions.cpp
    void createMenus();    // MainWindowActions.cpp
    void createStatusBar();
    void createWorkspaceUi();  // MainWindowWorkspaces.cpp: toolbar, View › Workspace, maximise
    void applyDefaultDockSizes();
    QAction* addAction(const QString& id, const QString& text, const QString& menuPath,
                       const QKeySequence& shortcut = {});
    void rebuildRecentMenu();
    void rebuildSamplesMenu();
    void addRecent(const QString& path);
    bool maybeSave();
    void updateTitle();
    void updateStatus();
    void loadSettings(bool restoreLayout);
    void saveSettings();

    Session* m_session;
    SourceEditor* m_editor;
    Recovery* m_recovery;
    WorkspaceManager* m_workspaces = nullptr;
    FindBar* m_findBar;
    QMap<QString, QDockWidget*> m_docks;
    QMap<QString, QAction*> m_actions;
    QList<QAction*> m_commandOrder;
    QMenu *m_recentMenu = nullptr, *m_samplesMenu = nullptr, *m_viewMenu = nullptr;
    QActionGroup *m_themeGroup = nullptr, *m_targetGroup = nullptr;
    QLabel *m_compileLabel, *m_caretLabel, *m_targetLabel;
    QByteArray m_defaultState;
    bool m_sized = false, m_layoutRestored = false;
    /// The start workspace's default dock sizes follow the window (shown at 1440x900, then
    /// maximised) until the user arranges anything: press on a separator, move a dock, switch.
    bool m_sizesFollowWindow = false;
};

}  // namespace ts::gui
