// Task workspaces and maximised views (Workspaces.h).
#include "app/gui/Workspaces.h"

#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QSettings>

#include "app/gui/PanelRegistry.h"

namespace ts::gui {

const QList<WorkspaceInfo>& workspaceList() {
    static const QList<WorkspaceInfo> list = {
        {kWorkspaceAuthor, QObject::tr("Author")},
        {kWorkspaceInspect, QObject::tr("Inspect")},
        {kWorkspaceLayout, QObject::tr("Layout && Banks")},
        {kWorkspaceDebug, QObject::tr("Debug")},
        {kWorkspaceProfile, QObject::tr("Profile && Compare")},
    };
    return list;
}

namespace {

bool isWorkspace(const QString& id) {
    for (const auto& w : workspaceList())
        if (w.id == id) return true;
    return false;
}

/// A workspace's first sizes: right-area docks as fractions of the window width, and the first
/// open bottom dock as a fraction of its height. The editor keeps the rest.
struct DefaultSizes {
    QStringList right;
    QList<double> widths;
    double bottomHeight;
};

DefaultSizes defaultSizes(const QString& id) {
    if (id == kWorkspaceAuthor) return {{"params"}, {0.30}, 0.25};
    // Layout gets the width a 32-column shared tile needs at a legible cell size (about
    // 26 px cells at 1920 px; LayoutPanel fits the columns to whatever it gets).
    if (id == kWorkspaceLayout) return {{"layout", "banks"}, {0.48, 0.33}, 0.22};
    if (id == kWorkspaceDebug) return {{"passes"}, {0.36}, 0.33};
    if (id == kWorkspaceProfile) return {{"generated"}, {0.36}, 0.36};
    return {{"passes", "generated"}, {0.33, 0.27}, 0.22};  // inspect
}

}  // namespace

WorkspaceManager::WorkspaceManager(QMainWindow& window, QMap<QString, QDockWidget*> docks,
                                   QByteArray defaultState, bool persist)
    : QObject(&window),
      m_window(window),
      m_docks(std::move(docks)),
      m_defaultState(std::move(defaultState)),
      m_persist(persist) {}

QString WorkspaceManager::settingsKey(const QString& id) const {
    return QStringLiteral("workspaces/") + id;
}

void WorkspaceManager::switchTo(const QString& id) {
    if (!isWorkspace(id)) return;
    if (!m_maximized.isEmpty()) restoreMaximized();
    if (id == m_current) return;
    if (!m_current.isEmpty()) saveCurrent();
    m_current = id;
    const QByteArray saved = m_states.value(id);
    if (saved.isEmpty() || !m_window.restoreState(saved)) {
        applyDefault(id);
        if (m_window.isVisible()) applyDefaultSizes();
    }
    if (m_persist) QSettings().setValue("workspace", id);
    emit workspaceChanged(id);
}

void WorkspaceManager::resetCurrent() {
    if (!m_maximized.isEmpty()) restoreMaximized();
    const QString id = m_current.isEmpty() ? QString(kWorkspaceInspect) : m_current;
    m_current = id;
    m_states.remove(id);
    applyDefault(id);
    applyDefaultSizes();
    saveCurrent();
}

void WorkspaceManager::applyDefault(const QString& id) {
    m_window.restoreState(m_defaultState);
    m_window.centralWidget()->show();
    const QStringList ids = workspacePanels(id);
    for (auto it = m_docks.begin(); it != m_docks.end(); ++it)
        it.value()->setVisible(ids.contains(it.key()));
    // By membership, not isHidden(): a background tab may read as hidden on some platforms.
    auto open = [&](const char* panel) {
        return ids.contains(panel) ? m_docks.value(panel) : nullptr;
    };
    // Per-task arrangement on top of the factory positions: Parameters beside the editor while
    // authoring (all rows visible, not 4 of 10), Layout and Banks side by side.
    if (id == kWorkspaceAuthor)
        if (QDockWidget* params = open("params"))
            m_window.addDockWidget(Qt::RightDockWidgetArea, params);
    if (id == kWorkspaceLayout)
        if (QDockWidget* layout = open("layout"), *banks = open("banks"); layout && banks) {
            // Out of their tab group first: splitting a tabbed dock only adds another tab.
            m_window.removeDockWidget(layout);
            m_window.removeDockWidget(banks);
            m_window.addDockWidget(Qt::RightDockWidgetArea, layout);
            m_window.splitDockWidget(layout, banks, Qt::Horizontal);
            layout->show();
            banks->show();
        }
    for (const char* front : {"params", "generated", "layout"})
        if (QDockWidget* d = open(front)) d->raise();
    if (id == kWorkspaceAuthor)
        if (QDockWidget* d = open("problems")) d->raise();
    // The task's own panel in front of its tab group (not Problems / Parameters).
    if (id == kWorkspaceDebug)
        if (QDockWidget* d = open("debugger")) d->raise();
    if (id == kWorkspaceProfile)
        if (QDockWidget* d = open("compare")) d->raise();
}

void WorkspaceManager::applyDefaultSizes() {
    if (!m_maximized.isEmpty()) return;
    const DefaultSizes s = defaultSizes(m_current);
    QList<QDockWidget*> right;
    QList<int> widths;
    for (int i = 0; i < s.right.size(); ++i) {
        QDockWidget* d = m_docks.value(s.right[i]);
        if (!d || d->isHidden() || m_window.dockWidgetArea(d) != Qt::RightDockWidgetArea) continue;
        right << d;
        widths << int(m_window.width() * s.widths[i]);
    }
    if (!right.isEmpty()) m_window.resizeDocks(right, widths, Qt::Horizontal);
    for (QDockWidget* d : m_docks)
        if (!d->isHidden() && m_window.dockWidgetArea(d) == Qt::BottomDockWidgetArea) {
            m_window.resizeDocks({d}, {std::max(180, int(m_window.height() * s.bottomHeight))},
                                 Qt::Vertical);
            break;
        }
}

void WorkspaceManager::saveCurrent() {
    if (m_current.isEmpty()) return;
    const QByteArray state = m_maximized.isEmpty() ? m_window.saveState() : m_beforeMaximize;
    m_states[m_current] = state;
    if (m_persist) {
        QSettings s;
        s.setValue(settingsKey(m_current), state);
        s.setValue("workspace", m_current);
    }
}

bool WorkspaceManager::loadSaved() {
    if (!m_persist) return false;
    QSettings s;
    for (const auto& w : workspaceList()) {
        QByteArray state = s.value(settingsKey(w.id)).toByteArray();
        if (!state.isEmpty()) m_states[w.id] = state;
    }
    const QString id = s.value("workspace").toString();
    if (!isWorkspace(id)) return false;
    m_current = id;
    emit workspaceChanged(id);
    return true;
}

QString WorkspaceManager::viewOf(const QWidget* w) const {
    for (auto it = m_docks.begin(); it != m_docks.end(); ++it)
        if (w && (it.value() == w || it.value()->isAncestorOf(w))) return it.key();
    return kEditorViewId;
}

void WorkspaceManager::maximize(const QString& viewId) {
    if (viewId != kEditorViewId && !m_docks.contains(viewId)) return;
    if (!m_maximized.isEmpty()) restoreMaximized();
    m_beforeMaximize = m_window.saveState();
    for (auto it = m_docks.begin(); it != m_docks.end(); ++it)
        if (it.key() != viewId) it.value()->hide();
    if (QDockWidget* d = m_docks.value(viewId)) {
        // A hidden central widget leaves the whole window to the dock areas.
        if (d->isFloating()) d->setFloating(false);
        d->show();
        d->raise();
        m_window.centralWidget()->hide();
        if (QWidget* inner = d->widget()) inner->setFocus();
    }
    m_maximized = viewId;
    emit maximizedChanged(viewId);
}

void WorkspaceManager::restoreMaximized() {
    if (m_maximized.isEmpty()) return;
    m_window.centralWidget()->show();
    m_window.restoreState(m_beforeMaximize);
    m_beforeMaximize.clear();
    m_maximized.clear();
    emit maximizedChanged(QString());
}

void WorkspaceManager::toggleMaximizeFocused() {
    if (!m_maximized.isEmpty()) {
        restoreMaximized();
        return;
    }
    maximize(viewOf(QApplication::focusWidget()));
}

}  // namespace ts::gui
