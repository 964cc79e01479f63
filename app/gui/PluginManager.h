// Loads the IDE's plugins (plugins/api/PluginApi.h): finds Qt plugins in <tilescope dir>/plugins
// and $TILESCOPE_PLUGIN_PATH, reads each manifest (id, name, version, dependencies), loads them in
// dependency order, and keeps a record of every candidate — loaded or not, and why not — for
// Help › Plugins. Loaded plugins' panels are registered as PanelFactory entries (so they become
// docks like the built-in panels); their samples and exporters are offered by the main window.
#pragma once
#include <QList>
#include <QString>
#include <QStringList>

#include "plugins/api/PluginApi.h"

class QPluginLoader;

namespace ts::gui {

class Session;

/// One plugin candidate and its fate.
struct PluginRecord {
    QString file, id, name, version, description;
    QStringList dependencies;  ///< "id" or "id>=version"
    bool loaded = false;
    QString error;  ///< why it was not loaded
    plugin::Plugin* instance = nullptr;
};

class PluginManager {
public:
    static PluginManager& instance();
    /// Folders searched: $TILESCOPE_PLUGIN_PATH (':'-separated), then <app dir>/plugins.
    static QStringList searchPath();
    /// Scans `dirs` (default: searchPath()) and loads what can be loaded. Idempotent per file.
    void loadAll(const QStringList& dirs = {});
    const QList<PluginRecord>& records() const { return m_records; }
    /// Registers the loaded plugins' panels with the PanelRegistry (before the main window is
    /// built), adapting Session to plugin::PanelContext.
    void registerPanels();
    QList<plugin::Exporter*> exporters() const;
    QList<plugin::SampleInfo> samples() const;
    /// Compares dotted versions ("1.2.0" vs "1.10"): <0, 0, >0.
    static int compareVersions(const QString& a, const QString& b);

private:
    QList<PluginRecord> m_records;
};

/// The PanelContext of a Session (for plugin panels).
plugin::PanelContext panelContextFor(Session& s);

}  // namespace ts::gui
