// Plugins (plugins/api/PluginApi.h, app/gui/PluginManager.h): the bundled HTML report plugin is
// found and loaded from its manifest, a plugin with an unmet dependency is refused with a reason,
// versions compare numerically, and the report holds every pass with its diff.
#include <QtTest>

#include "app/gui/PluginManager.h"
#include "plugins/html_report/HtmlReport.h"

using namespace ts;
using namespace ts::gui;

class PluginTest : public QObject {
    Q_OBJECT
private slots:
    void versions() {
        QVERIFY(PluginManager::compareVersions("1.10", "1.2") > 0);
        QCOMPARE(PluginManager::compareVersions("1.0", "1"), 0);
        QVERIFY(PluginManager::compareVersions("0.9.9", "1.0") < 0);
    }

    void loadsBundledAndRefusesUnmetDependencies() {
        PluginManager& pm = PluginManager::instance();
        pm.loadAll({TS_PLUGIN_DIR, TS_TEST_PLUGIN_DIR});
        const PluginRecord* html = nullptr;
        const PluginRecord* dep = nullptr;
        for (const PluginRecord& r : pm.records()) {
            if (r.id == "html-report") html = &r;
            if (r.id == "dep-fixture") dep = &r;
        }
        QVERIFY(html);
        QVERIFY2(html->loaded, qPrintable(html->error));
        QCOMPARE(html->version, QString("1.0.0"));
        QVERIFY(dep);
        QVERIFY(!dep->loaded);
        QVERIFY2(dep->error.contains("no-such-plugin"), qPrintable(dep->error));
        QCOMPARE(pm.exporters().size(), 1);
        // Loading again does not duplicate.
        int n = pm.records().size();
        pm.loadAll({TS_PLUGIN_DIR, TS_TEST_PLUGIN_DIR});
        QCOMPARE(pm.records().size(), n);
    }

    void htmlReportHasPassesAndDiffs() {
        CompileResult r;
        r.ok = true;
        PassSnapshot a, b;
        a.name = "simplify";
        a.ir = "for i in range(16):\n    x = 1 + 2\n";
        a.changed = true;
        b.name = "lower-tile-ops";
        b.ir = "for i in range(16):\n    x = 3\n";
        b.changed = true;
        r.passes = {a, b};
        r.cuda = "__global__ void k() {}\n";
        plugin::ExportContext ctx;
        ctx.result = &r;
        ctx.sourcePath = "/tmp/k.py";
        ctx.sourceText = "x = 1 < 2\n";
        ctx.target = "cuda:sm_80";
        QString html = plugin::htmlReport(ctx);
        QVERIFY(html.contains("<h3>1. simplify</h3>"));
        QVERIFY(html.contains("<h3>2. lower-tile-ops</h3>"));
        QVERIFY(html.contains("<mark>"));        // intra-line highlight of the changed line
        QVERIFY(html.contains("x = 1 &lt; 2"));  // source is escaped
        QVERIFY(html.contains("__global__ void k()"));
    }
};

QTEST_MAIN(PluginTest)
#include "PluginTest.moc"
