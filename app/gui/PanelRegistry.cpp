// Panel factories and the built-in panels (PanelRegistry.h).
#include "app/gui/PanelRegistry.h"

#include <QMap>

#include "app/gui/BankPanel.h"
#include "app/gui/BarrierPanel.h"
#include "app/gui/ComparePanel.h"
#include "app/gui/DebuggerPanel.h"
#include "app/gui/DiagnosticsPanel.h"
#include "app/gui/GeneratedPanel.h"
#include "app/gui/LayoutPanel.h"
#include "app/gui/ParamsPanel.h"
#include "app/gui/PassExplorer.h"
#include "app/gui/RunPanel.h"
#include "app/gui/TimelinePanel.h"

namespace ts::gui {

std::vector<PanelFactory>& panelFactories() {
    static std::vector<PanelFactory> list;
    return list;
}

namespace {
// Workspace additions made before the panel itself was registered (addPanelToWorkspace).
QMap<QString, QStringList>& pendingWorkspaceAdds() {
    static QMap<QString, QStringList> adds;
    return adds;
}
}  // namespace

void registerPanel(PanelFactory f) {
    auto& list = panelFactories();
    for (const QString& w : pendingWorkspaceAdds().take(f.id))
        if (!f.workspaces.contains(w)) f.workspaces << w;
    for (auto& existing : list)
        if (existing.id == f.id) {
            existing = std::move(f);
            return;
        }
    list.push_back(std::move(f));
}

void addPanelToWorkspace(const QString& workspace, const QString& panelId) {
    for (auto& f : panelFactories())
        if (f.id == panelId) {
            if (!f.workspaces.contains(workspace)) f.workspaces << workspace;
            return;
        }
    pendingWorkspaceAdds()[panelId] << workspace;
}

QStringList workspacePanels(const QString& workspace) {
    QStringList ids;
    for (const auto& f : panelFactories())
        if (f.workspaces.isEmpty() || f.workspaces.contains(workspace)) ids << f.id;
    return ids;
}

void registerBuiltinPanels() {
    static bool done = false;
    if (done) return;
    done = true;
    registerPanel({"passes",
                   QObject::tr("Pass Explorer"),
                   Qt::RightDockWidgetArea,
                   {},
                   [](Session& s) { return new PassExplorer(s); },
                   {kWorkspaceInspect, kWorkspaceDebug}});
    registerPanel({"generated",
                   QObject::tr("Generated CUDA"),
                   Qt::RightDockWidgetArea,
                   {},
                   [](Session& s) { return new GeneratedPanel(s); },
                   {kWorkspaceInspect, kWorkspaceProfile}});
    registerPanel({"params",
                   QObject::tr("Parameters"),
                   Qt::BottomDockWidgetArea,
                   "bottom",
                   [](Session& s) { return new ParamsPanel(s); },
                   {kWorkspaceAuthor, kWorkspaceInspect, kWorkspaceLayout, kWorkspaceProfile}});
    registerPanel({"problems",
                   QObject::tr("Problems"),
                   Qt::BottomDockWidgetArea,
                   "bottom",
                   [](Session& s) { return new DiagnosticsPanel(s); },
                   {kWorkspaceAuthor, kWorkspaceInspect, kWorkspaceDebug}});
    registerPanel({"run",
                   QObject::tr("Run"),
                   Qt::BottomDockWidgetArea,
                   "bottom",
                   [](Session& s) { return new RunPanel(s); },
                   {kWorkspaceAuthor, kWorkspaceDebug, kWorkspaceProfile}});
    registerPanel({"layout",
                   QObject::tr("Layout"),
                   Qt::RightDockWidgetArea,
                   "views",
                   [](Session& s) { return new LayoutPanel(s); },
                   {kWorkspaceLayout}});
    registerPanel({"banks",
                   QObject::tr("Banks"),
                   Qt::RightDockWidgetArea,
                   "views",
                   [](Session& s) { return new BankPanel(s); },
                   {kWorkspaceLayout}});
    registerPanel({"debugger",
                   QObject::tr("Debugger"),
                   Qt::BottomDockWidgetArea,
                   "bottom",
                   [](Session& s) { return new DebuggerPanel(s); },
                   {kWorkspaceDebug}});
    // Issue 9: the static pipeline plan (and a measured trace) on one axis; its barriers.
    registerPanel({"timeline",
                   QObject::tr("Timeline"),
                   Qt::BottomDockWidgetArea,
                   "bottom",
                   [](Session& s) { return new TimelinePanel(s); },
                   {kWorkspaceInspect, kWorkspaceProfile}});
    registerPanel({"barriers",
                   QObject::tr("Barrier Schedule"),
                   Qt::BottomDockWidgetArea,
                   "bottom",
                   [](Session& s) { return new BarrierPanel(s); },
                   {kWorkspaceDebug}});
    // Issue 12: stored tune/profile variants side by side (reads the results store on demand).
    registerPanel({"compare",
                   QObject::tr("Compare Variants"),
                   Qt::BottomDockWidgetArea,
                   "bottom",
                   [](Session& s) {
                       auto* p = new ComparePanel(s);
                       p->loadStore();
                       return p;
                   },
                   {kWorkspaceProfile}});
}

}  // namespace ts::gui
