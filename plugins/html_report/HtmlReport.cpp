// HTML pass report (HtmlReport.h).
#include "plugins/html_report/HtmlReport.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include "visualizer/core/LineDiff.h"

namespace ts::plugin {
namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

// One line with byte ranges wrapped in <mark>.
QString markedLine(const std::string& line, const std::vector<viz::ByteRange>& ranges) {
    QString out;
    uint32_t pos = 0;
    for (const viz::ByteRange& r : ranges) {
        if (r.begin > line.size()) break;
        out += esc(line.substr(pos, r.begin - pos));
        out += "<mark>" +
               esc(line.substr(r.begin, std::min<size_t>(r.end, line.size()) - r.begin)) +
               "</mark>";
        pos = std::min<uint32_t>(r.end, uint32_t(line.size()));
    }
    out += esc(line.substr(pos));
    return out;
}

QString numbered(const std::string& text) {
    QString out;
    int n = 0;
    for (const std::string& l : viz::splitLines(text))
        out += QString("<span class=ln>%1</span>%2\n").arg(++n, 4).arg(esc(l));
    return out;
}

const char* kStyle = R"(
body { font: 14px/1.45 "DejaVu Sans", system-ui, sans-serif; margin: 2em auto; max-width: 1100px;
       color: #1f2328; padding: 0 1em; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #d0d7de; padding-bottom: 0.2em; }
pre { font: 12.5px/1.4 "DejaVu Sans Mono", monospace; background: #f6f8fa; padding: 0.8em;
      overflow-x: auto; border-radius: 6px; }
table { border-collapse: collapse; } td, th { padding: 3px 10px; border-bottom: 1px solid #eaeef2;
      text-align: left; } th { background: #f6f8fa; }
.ln { color: #8c959f; user-select: none; margin-right: 1em; }
.add { background: #e6ffec; display: block; } .del { background: #ffebe9; display: block; }
.add mark { background: #abf2bc; } .del mark { background: #ffb3ad; }
.muted { color: #8c959f; } .changed { color: #0969da; font-weight: bold; }
.error { color: #d1242f; } .warning { color: #9a6700; }
details { margin: 0.4em 0; } summary { cursor: pointer; }
)";

}  // namespace

QString htmlReport(const ExportContext& ctx) {
    const CompileResult& r = *ctx.result;
    QString name = ctx.sourcePath.isEmpty() ? QStringLiteral("untitled.py")
                                            : QFileInfo(ctx.sourcePath).fileName();
    QString h = "<!doctype html>\n<html><head><meta charset=utf-8><title>TileScope report: " +
                name.toHtmlEscaped() + "</title><style>" + kStyle + "</style></head><body>\n";
    h += "<h1>" + name.toHtmlEscaped() + "</h1>\n<p class=muted>TileScope pass report · target " +
         ctx.target.toHtmlEscaped() +
         QString(" · front end %1 ms, passes %2 ms, codegen %3 ms</p>\n")
             .arg(r.frontendMicros / 1000, 0, 'f', 2)
             .arg(r.passesMicros / 1000, 0, 'f', 2)
             .arg(r.codegenMicros / 1000, 0, 'f', 2);
    if (!r.kernel.name.empty())
        h += QString(
                 "<p>Kernel <code>%1</code>: grid (%2, %3, %4), block (%5, %6, %7), dynamic "
                 "shared memory %8 bytes.</p>\n")
                 .arg(esc(r.kernel.name))
                 .arg(r.kernel.grid[0])
                 .arg(r.kernel.grid[1])
                 .arg(r.kernel.grid[2])
                 .arg(r.kernel.block[0])
                 .arg(r.kernel.block[1])
                 .arg(r.kernel.block[2])
                 .arg(qulonglong(r.kernel.dynamicSmemBytes));

    h += "<h2>Parameters</h2>\n<table><tr><th>name</th><th>value</th><th>default</th></tr>\n";
    for (const FactoryParam& p : r.params)
        h += "<tr><td>" + esc(p.name) + "</td><td>" +
             (p.overridden ? "<b>" + esc(p.value) + "</b>" : esc(p.value)) +
             "</td><td class=muted>" + esc(p.defaultValue) + "</td></tr>\n";
    h += "</table>\n";

    h += "<h2>Diagnostics</h2>\n";
    if (r.diagnostics.empty()) h += "<p class=muted>None.</p>\n";
    for (const Diagnostic& d : r.diagnostics) {
        const char* cls = d.severity == Severity::Error ? "error" : "warning";
        h += QString("<p class=%1>%2:%3: %4%5</p>\n")
                 .arg(cls)
                 .arg(d.span.line)
                 .arg(d.span.col)
                 .arg(esc(d.message))
                 .arg(d.hint.empty() ? QString()
                                     : " <span class=muted>(hint: " + esc(d.hint) + ")</span>");
    }

    h += "<h2>Passes</h2>\n<table><tr><th>#</th><th>pass</th><th>what it "
         "does</th><th>time</th><th>IR</th></tr>\n";
    for (size_t i = 0; i < r.passes.size(); ++i) {
        const PassSnapshot& p = r.passes[i];
        h += QString(
                 "<tr><td>%1</td><td><a href='#pass-%1'>%2</a></td><td>%3</td><td>%4 "
                 "µs</td><td>%5</td></tr>\n")
                 .arg(i + 1)
                 .arg(esc(p.name))
                 .arg(esc(p.summary))
                 .arg(p.micros, 0, 'f', 0)
                 .arg(p.failed    ? "<span class=error>failed</span>"
                      : p.changed ? "<span class=changed>changed</span>"
                                  : "<span class=muted>unchanged</span>");
    }
    h += "</table>\n";

    std::string previous;
    for (size_t i = 0; i < r.passes.size(); ++i) {
        const PassSnapshot& p = r.passes[i];
        h += QString("<section id='pass-%1'><h3>%1. %2</h3><p class=muted>%3</p>\n")
                 .arg(i + 1)
                 .arg(esc(p.name))
                 .arg(esc(p.summary));
        if (i > 0) {
            viz::TextDiff d = viz::diffTexts(previous, p.ir);
            if (d.identical()) {
                h += "<p class=muted>No change to the IR.</p>\n";
            } else {
                h += QString("<details open><summary>Diff against %1: +%2 −%3 ~%4</summary><pre>")
                         .arg(esc(r.passes[i - 1].name))
                         .arg(d.inserted)
                         .arg(d.deleted)
                         .arg(d.changed);
                for (const viz::UnifiedLine& u : d.unified()) {
                    if (u.op == viz::EditOp::Equal)
                        h += esc(d.newLines[u.line]) + "\n";
                    else if (u.op == viz::EditOp::Delete)
                        h += "<span class=del>" + markedLine(d.oldLines[u.line], u.ranges) +
                             "</span>";
                    else
                        h += "<span class=add>" + markedLine(d.newLines[u.line], u.ranges) +
                             "</span>";
                }
                h += "</pre></details>\n";
            }
        }
        h += "<details><summary>IR after " + esc(p.name) + "</summary><pre>" + numbered(p.ir) +
             "</pre></details></section>\n";
        previous = p.ir;
    }

    h += "<h2>Generated CUDA</h2>\n";
    h += r.cuda.empty() ? QString("<p class=muted>No code generated.</p>\n")
                        : "<details><summary>kernel.cu</summary><pre>" + numbered(r.cuda) +
                              "</pre></details>\n";
    h += "<h2>Source</h2>\n<pre>" + numbered(ctx.sourceText.toStdString()) + "</pre>\n";
    h += "</body></html>\n";
    return h;
}

bool HtmlReportExporter::exportTo(const ExportContext& ctx, const QString& outPath,
                                  QString* error) {
    QSaveFile f(outPath);
    if (!f.open(QIODevice::WriteOnly) || f.write(htmlReport(ctx).toUtf8()) < 0 || !f.commit()) {
        if (error) *error = QObject::tr("Cannot write %1: %2").arg(outPath, f.errorString());
        return false;
    }
    return true;
}

}  // namespace ts::plugin
