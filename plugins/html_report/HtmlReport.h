// The bundled "HTML pass report" plugin: File › Export With › HTML Pass Report writes one
// self-contained HTML page of a compile — source, parameters, diagnostics, the pass table, and
// for every pass its unified diff against the previous pass (intra-line highlights) and its full
// IR — plus the generated CUDA. Something to attach to a bug report or a code review.
// The page and the exporter (no Qt plugin machinery here, so tests can link them directly); the
// plugin class is HtmlReportPlugin.h.
#pragma once
#include <QObject>

#include "plugins/api/PluginApi.h"

namespace ts::plugin {

/// The page for `ctx` (exposed for tests).
QString htmlReport(const ExportContext& ctx);

class HtmlReportExporter : public Exporter {
public:
    QString title() const override { return QObject::tr("HTML Pass Report…"); }
    QString fileFilter() const override { return QObject::tr("HTML (*.html)"); }
    bool exportTo(const ExportContext& ctx, const QString& outPath, QString* error) override;
};

}  // namespace ts::plugin
