// The bundled HTML report plugin's entry point: a Qt plugin whose manifest is html_report.json and
// whose only contribution is the HtmlReportExporter (HtmlReport.h).
#pragma once
#include <QObject>

#include "plugins/html_report/HtmlReport.h"

namespace ts::plugin {

class HtmlReportPlugin : public QObject, public Plugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID TsPlugin_iid FILE "html_report.json")
    Q_INTERFACES(ts::plugin::Plugin)
public:
    QList<Exporter*> exporters() override { return {&m_exporter}; }

private:
    HtmlReportExporter m_exporter;
};

}  // namespace ts::plugin
