// The main window's workspace toolbar, View › Workspace / Panel / Maximise commands (issue 15),
// and showing panels (MainWindow.h, Workspaces.h).
#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QMenu>
#include <QStatusBar>
#include <QToolBar>

#include "app/gui/MainWindow.h"
#include "app/gui/PanelRegistry.h"
#include "app/gui/Workspaces.h"

namespace ts::gui {

void MainWindow::createWorkspaceUi() {
    // One click (or Ctrl+1..5) per workspace, on a toolbar at the top.
    auto* bar = new QToolBar(tr("Workspaces"), this);
    bar->setObjectName("toolbar.workspaces");
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    addToolBar(Qt::TopToolBarArea, bar);
    auto* group = new QActionGroup(this);
    QMenu* menu = new QMenu(tr("&Workspace"), this);
    int n = 0;
    for (const WorkspaceInfo& w : workspaceList()) {
        QAction* a = addAction("workspace." + w.id, w.title, tr("View › Workspace"),
                               QKeySequence(QStringLiteral("Ctrl+%1").arg(++n)));
        a->setCheckable(true);
        a->setProperty("paletteName",
                       tr("View › Workspace › %1").arg(QString(w.title).replace("&&", "&")));
        a->setToolTip(tr("%1 workspace (%2)")
                          .arg(QString(w.title).replace("&&", "&"), a->shortcut().toString()));
        group->addAction(a);
        bar->addAction(a);
        menu->addAction(a);
        connect(a, &QAction::triggered, this, [this, id = w.id] { m_workspaces->switchTo(id); });
    }
    auto sync = [this](const QString& id) {
        if (QAction* a = action("workspace." + id)) a->setChecked(true);
    };
    connect(m_workspaces, &WorkspaceManager::workspaceChanged, this, sync);
    sync(m_workspaces->current());

    // Panels: show / bring to front / close (replaces the docks' own toggle actions, which
    // closed a panel that was only a background tab).
    QList<QAction*> panelActions;
    for (const PanelFactory& f : panelFactories()) {
        QDockWidget* d = m_docks.value(f.id);
        QAction* a = addAction("view.panel." + f.id, tr("Panel: %1").arg(f.title), tr("View"));
        a->setCheckable(true);
        a->setChecked(!d->isHidden());
        connect(a, &QAction::triggered, this, [this, id = f.id] { togglePanel(id); });
        connect(d->toggleViewAction(), &QAction::toggled, a, &QAction::setChecked);
        panelActions << a;
    }

    // Maximise / restore: the focused view (keyboard), or a named one (palette, title bars).
    QAction* maxFocused = addAction("view.maximize", tr("Ma&ximise / Restore View"), tr("View"),
                                    QKeySequence("Ctrl+Shift+M"));
    maxFocused->setShortcutContext(Qt::ApplicationShortcut);
    connect(maxFocused, &QAction::triggered, m_workspaces,
            &WorkspaceManager::toggleMaximizeFocused);
    QMenu* maxMenu = new QMenu(tr("Maximise"), this);
    QStringList views{kEditorViewId};
    for (const PanelFactory& f : panelFactories()) views << f.id;
    for (const QString& id : views) {
        QString title = id == kEditorViewId ? tr("Editor") : m_docks.value(id)->windowTitle();
        QAction* a = addAction("view.maximize." + id, tr("Maximise: %1").arg(title), tr("View"));
        connect(a, &QAction::triggered, this, [this, id] { m_workspaces->maximize(id); });
        maxMenu->addAction(a);
    }
    connect(m_workspaces, &WorkspaceManager::maximizedChanged, this, [this](const QString& id) {
        statusBar()->showMessage(
            id.isEmpty() ? QString()
                         : tr("Maximised %1 — Ctrl+Shift+M restores")
                               .arg(id == kEditorViewId ? tr("the editor")
                                                        : m_docks.value(id)->windowTitle()),
            id.isEmpty() ? 1 : 0);
    });

    QAction* first = m_viewMenu->actions().value(0);
    m_viewMenu->insertMenu(first, menu);
    m_viewMenu->insertActions(first, panelActions);
    m_viewMenu->insertSeparator(first);
    m_viewMenu->insertAction(first, maxFocused);
    m_viewMenu->insertMenu(first, maxMenu);
    m_viewMenu->insertSeparator(first);
}

void MainWindow::showPanel(const QString& id) {
    if (QDockWidget* d = m_docks.value(id)) {
        if (!m_workspaces->maximizedView().isEmpty() && m_workspaces->maximizedView() != id)
            m_workspaces->restoreMaximized();
        d->show();
        d->raise();
    }
}

bool MainWindow::panelOnScreen(const QString& id) const {
    QDockWidget* d = m_docks.value(id);
    // A background tab's dock is hidden by its tab group without being closed.
    return d && d->isVisible() && !d->visibleRegion().isEmpty();
}

void MainWindow::togglePanel(const QString& id) {
    QDockWidget* d = m_docks.value(id);
    if (!d) return;
    if (panelOnScreen(id))
        d->hide();
    else
        showPanel(id);
    if (QAction* a = action("view.panel." + id)) a->setChecked(!d->isHidden());
}

}  // namespace ts::gui
