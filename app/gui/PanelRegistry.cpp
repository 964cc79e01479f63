// Panel factories and the built-in panels (PanelRegistry.h).
#include "app/gui/PanelRegistry.h"

#include "app/gui/BankPanel.h"
#include "app/gui/DebuggerPanel.h"
#include "app/gui/DiagnosticsPanel.h"
#include "app/gui/GeneratedPanel.h"
#include "app/gui/LayoutPanel.h"
#include "app/gui/ParamsPanel.h"
#include "app/gui/PassExplorer.h"
#include "app/gui/RunPanel.h"

namespace ts::gui {

std::vector<PanelFactory>& panelFactories() {
    static std::vector<PanelFactory> list;
    return list;
}

void registerPanel(PanelFactory f) {
    auto& list = panelFactories();
    for (auto& existing : list)
        if (existing.id == f.id) {
            existing = std::move(f);
            return;
        }
    list.push_back(std::move(f));
}

void registerBuiltinPanels() {
    static bool done = false;
    if (done) return;
    done = true;
    registerPanel(
        {"passes", QObject::tr("Pass Explorer"), Qt::RightDockWidgetArea, {}, [](Session& s) {
             return new PassExplorer(s);
         }});
    registerPanel(
        {"generated", QObject::tr("Generated code"), Qt::RightDockWidgetArea, {}, [](Session& s) {
             return new GeneratedPanel(s);
         }});
    registerPanel({"params", QObject::tr("Parameters"), Qt::BottomDockWidgetArea, "bottom",
                   [](Session& s) { return new ParamsPanel(s); }});
    registerPanel({"problems", QObject::tr("Problems"), Qt::BottomDockWidgetArea, "bottom",
                   [](Session& s) { return new DiagnosticsPanel(s); }});
    registerPanel({"run", QObject::tr("Run"), Qt::BottomDockWidgetArea, "bottom",
                   [](Session& s) { return new RunPanel(s); }});
    registerPanel({"layout", QObject::tr("Layout"), Qt::RightDockWidgetArea, "views",
                   [](Session& s) { return new LayoutPanel(s); }});
    registerPanel({"banks", QObject::tr("Banks"), Qt::RightDockWidgetArea, "views",
                   [](Session& s) { return new BankPanel(s); }});
    registerPanel({"debugger", QObject::tr("Debugger"), Qt::BottomDockWidgetArea, "bottom",
                   [](Session& s) { return new DebuggerPanel(s); }});
}

}  // namespace ts::gui
