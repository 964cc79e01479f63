// The plugin interface of the TileScope IDE (issue 3 item 10). A plugin is a Qt plugin (a shared
// library with Q_PLUGIN_METADATA) whose metadata JSON is its manifest:
//
//   { "id": "html-report", "name": "HTML pass report", "version": "1.0.0",
//     "dependencies": [ { "id": "other-plugin", "version": "1.0" } ],
//     "description": "..." }
//
// The IDE loads plugins at start from <tilescope dir>/plugins and $TILESCOPE_PLUGIN_PATH, in
// dependency order (a plugin whose dependencies are missing, too old, or cyclic is not loaded and
// Help › Plugins says why), and lists them in Help › Plugins. A plugin contributes through three
// narrow interfaces only — panels, samples, exporters — and sees compile results read-only
// (CompileResult, compiler/Compile.h): it cannot reach into the IDE's internals, so the IDE can
// change without breaking plugins that keep to this header.
#pragma once
#include <QList>
#include <QString>
#include <QtPlugin>
#include <functional>
#include <memory>

#include "compiler/Compile.h"

class QWidget;
class QObject;

namespace ts::plugin {

/// What a panel can see of the IDE: the latest compile result, the document, and a way to be
/// told when the result changes.
struct PanelContext {
    std::function<std::shared_ptr<const CompileResult>()> result;  ///< latest result (may be null)
    std::function<QString()> path, text;                           ///< the document
    /// Calls `fn` on the UI thread after every new result, for as long as `receiver` lives.
    std::function<void(QObject* receiver, std::function<void()> fn)> onResultChanged;
};

/// A dockable panel a plugin adds (shown in View › Panels).
struct PanelSpec {
    QString id;           ///< unique, e.g. "myplugin.roofline"
    QString title;        ///< dock title
    bool bottom = false;  ///< dock at the bottom (else right)
    std::function<QWidget*(const PanelContext&)> create;
};

/// A sample program a plugin offers in File › Samples.
struct SampleInfo {
    QString title;  ///< menu text
    QString path;   ///< file to open
};

/// Everything an exporter gets.
struct ExportContext {
    const CompileResult* result = nullptr;  ///< never null when export is called
    QString sourcePath, sourceText, target;
};

/// Writes a compile result somewhere (File › Export With).
class Exporter {
public:
    virtual ~Exporter() = default;
    virtual QString title() const = 0;       ///< menu text, e.g. "HTML Pass Report…"
    virtual QString fileFilter() const = 0;  ///< save-dialog filter, e.g. "HTML (*.html)"
    /// Writes to `outPath`; false with *error set on failure. Runs on the UI thread.
    virtual bool exportTo(const ExportContext& ctx, const QString& outPath, QString* error) = 0;
};

/// The interface every TileScope plugin implements (besides QObject).
class Plugin {
public:
    virtual ~Plugin() = default;
    virtual QList<PanelSpec> panels() { return {}; }
    virtual QList<SampleInfo> samples() { return {}; }
    /// Exporters are owned by the plugin and live as long as it.
    virtual QList<Exporter*> exporters() { return {}; }
};

}  // namespace ts::plugin

#define TsPlugin_iid "org.tilescope.Plugin/1"
Q_DECLARE_INTERFACE(ts::plugin::Plugin, TsPlugin_iid)
