// IDE latency benchmark. Issue 15 acceptance: edit -> passes refreshed p95 <= 60 ms on the dev
// box (issue 3 asked for <= 150 ms, and that the UI thread never blocks longer than 50 ms during
// a compile). Drives the real MainWindow (offscreen
// unless QT_QPA_PLATFORM says otherwise) on samples/gemm.py with N realistic edits -- typing a
// comment and deleting it, retyping a parameter default in the source, setting a parameter
// through the Parameters panel's model -- each followed by a pause longer than the debounce.
// Per edit it records the time from the edit's last keystroke (or the panel edit) to the moment
// the pass explorer's model shows the new compile's passes (PassListModel::modelReset), to the
// end of every synchronous resultChanged handler ("settled"), and to the pass list's next paint;
// and it splits the latency into debounce wait, compile (front end / passes / codegen) and
// delivery. With speculative compiles (the default, Session::setSpeculative) the compile starts
// at the keystroke and its result waits for the debounce, so "debounce wait" (edit -> compile
// start) is small and the latency is the debounce plus delivery; --no-speculation compares. A 2 ms QTimer heartbeat on the UI thread measures stalls: its largest gap and p99.
//
// Not a ctest test (timings on a shared 2-core machine are not pass/fail material): run by hand,
//   build-gui/bench/ide_latency_bench --edits 64 --json bench/results/ide-latency-DATE.json
// and note the machine's load (the JSON records /proc/loadavg before and after).
#include <QAbstractItemModel>
#include <QApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QMetaEnum>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTableView>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include <QtTest/QTest>
#include <nlohmann/json.hpp>
#include <time.h>

#include "app/gui/MainWindow.h"
#include "app/gui/ParamsPanel.h"
#include "app/gui/PassExplorer.h"
#include "app/gui/PassListModel.h"
#include "app/gui/Session.h"
#include "app/gui/SourceEditor.h"

#ifndef TS_BUILD_TYPE
#define TS_BUILD_TYPE "unknown"
#endif

using namespace ts::gui;
using Clock = std::chrono::steady_clock;

namespace {

const Clock::time_point kStart = Clock::now();
double nowMs() { return std::chrono::duration<double, std::milli>(Clock::now() - kStart).count(); }
/// CPU time of the calling thread (ms): tells a UI thread that worked through a gap from one
/// that the kernel did not schedule (2 shared cores).
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

struct Options {
    int edits = 64;
    int heartbeatMs = 2;
    int pauseMs = 300;   ///< quiet time after a refresh before the next edit (> 150 ms debounce)
    int typeGapMs = 25;  ///< between keystrokes of one edit (a fast typist; < the 40 ms debounce)
    bool speculative = true;  ///< Session::setSpeculative (--no-speculation compares)
    QString json, file;
};

/// Nearest-rank percentile of a copy of `v` (p in [0, 100]).
double pct(std::vector<double> v, double p) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    size_t k = size_t(std::ceil(p / 100.0 * double(v.size())));
    return v[std::clamp<size_t>(k, 1, v.size()) - 1];
}

nlohmann::json stats(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    auto r = [](double x) { return std::round(x * 100) / 100; };
    return {{"median", r(pct(v, 50))},
            {"p95", r(pct(v, 95))},
            {"max", r(v.empty() ? NAN : *std::max_element(v.begin(), v.end()))},
            {"min", r(v.empty() ? NAN : *std::min_element(v.begin(), v.end()))},
            {"mean", r(v.empty() ? NAN : sum / double(v.size()))}};
}

std::string readLine(const char* path, const char* key) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    for (const QByteArray& l : f.readAll().split('\n'))
        if (!key || l.startsWith(key))
            return key ? l.mid(l.indexOf(':') + 1).trimmed().toStdString() : l.toStdString();
    return {};
}

/// What the compile function saw, written on the worker thread.
struct CompileProbe {
    std::mutex mu;
    std::string text;  ///< text of the last finished compile
    double startMs = 0, endMs = 0, frontendMs = 0, passesMs = 0, codegenMs = 0;
    int passes = 0;
};

/// One measured edit.
struct Sample {
    std::string kind;
    double t0 = 0;  ///< last keystroke / panel edit
    double launch = -1, compileStart = 0, compileEnd = 0, model = -1, settled = -1, painted = -1;
    double frontend = 0, passes = 0, codegen = 0;
    int debounce = 0, passCount = 0;
    double maxGapMs = 0;  ///< largest heartbeat gap from the edit's first key to settled
    bool textMatches = false;
    /// UI-thread CPU time (ms): last keystroke -> model reset (key handling, delivery, the
    /// resultChanged observers before the list), model -> settled (the other observers), and
    /// settled -> end of the pause (paints and relayouts of the changed views).
    double cpuT0 = 0, cpuModel = 0, cpuSettled = 0, cpuEnd = 0;
};

/// Times every top-level event dispatch on the UI thread (wall and CPU), by receiver class and
/// event type: where the UI thread spends its time (paints arrive as UpdateRequest on the main
/// window, compile results as MetaCall on the CompileWorker).
class TimedApp : public QApplication {
public:
    using QApplication::QApplication;
    struct Cost {
        int count = 0;
        double wallMs = 0, cpuMs = 0, maxWallMs = 0, maxCpuMs = 0;
    };
    bool recording = false;
    std::map<std::string, Cost> costs;
    std::map<std::string, Cost> paints;  ///< Paint events by widget class (nested)
    bool notify(QObject* o, QEvent* e) override {
        if (recording && m_depth > 0 && e->type() == QEvent::Paint) {
            // Paints nested in a repaint: which widgets the UpdateRequest time goes to (a plain
            // QWidget is a scroll area's viewport: named after the scroll area and its object).
            std::string cls = o->metaObject()->className();
            if (cls == "QWidget" && o->parent()) {
                QObject* area = o->parent();
                cls = std::string(area->metaObject()->className()) + " viewport";
                for (QObject* up = area->parent(); up; up = up->parent())
                    if (std::string(up->metaObject()->className()).rfind("ts::", 0) == 0) {
                        cls += std::string(" in ") + up->metaObject()->className();
                        break;
                    }
            }
            const double t = nowMs(), c = threadCpuMs();
            bool r = QApplication::notify(o, e);
            const double dt = nowMs() - t, dc = threadCpuMs() - c;
            Cost& k = paints[cls];
            ++k.count;
            k.wallMs += dt, k.cpuMs += dc;
            k.maxWallMs = std::max(k.maxWallMs, dt), k.maxCpuMs = std::max(k.maxCpuMs, dc);
            return r;
        }
        if (!recording || m_depth > 0) return QApplication::notify(o, e);
        ++m_depth;
        const double t = nowMs(), c = threadCpuMs();
        const QEvent::Type type = e->type();  // `e` may be deleted by the receiver
        const char* cls = o->metaObject()->className();
        bool r = QApplication::notify(o, e);
        --m_depth;
        const double dt = nowMs() - t, dc = threadCpuMs() - c;
        if (dc >= 0.5) {
            Cost& k = costs[std::string(cls) + " / " +
                            QMetaEnum::fromType<QEvent::Type>().valueToKey(type)];
            ++k.count;
            k.wallMs += dt, k.cpuMs += dc;
            k.maxWallMs = std::max(k.maxWallMs, dt), k.maxCpuMs = std::max(k.maxCpuMs, dc);
        }
        return r;
    }

private:
    int m_depth = 0;
};

/// Records the first paint of the pass list after a refresh.
class PaintProbe : public QObject {
public:
    std::function<void()> onPaint;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::Paint && onPaint) onPaint();
        return QObject::eventFilter(o, e);
    }
};

Options parseArgs(const QStringList& args) {
    Options o;
    for (int i = 1; i < args.size(); ++i) {
        auto next = [&] { return i + 1 < args.size() ? args[++i] : QString(); };
        const QString& a = args[i];
        if (a == "--edits")
            o.edits = std::max(8, next().toInt());
        else if (a == "--json")
            o.json = next();
        else if (a == "--heartbeat-ms")
            o.heartbeatMs = std::max(1, next().toInt());
        else if (a == "--pause-ms")
            o.pauseMs = next().toInt();
        else if (a == "--type-gap-ms")
            o.typeGapMs = next().toInt();
        else if (a == "--file")
            o.file = next();
        else if (a == "--no-speculation")
            o.speculative = false;
        else {
            std::fprintf(stderr,
                         "usage: ide_latency_bench [--edits N] [--json FILE] [--file PY] "
                         "[--heartbeat-ms 2] [--pause-ms 300] [--type-gap-ms 25] "
                         "[--no-speculation]\n");
            std::exit(a == "--help" ? 0 : 2);
        }
    }
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    // The offscreen platform warns about every window-manager request (raise, size hints).
    static QtMessageHandler previous =
        qInstallMessageHandler([](QtMsgType t, const QMessageLogContext& c, const QString& m) {
            if (!m.startsWith("This plugin does not support") && previous) previous(t, c, m);
        });
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        qputenv("QT_LOGGING_RULES", "qt.qpa.*=false");
    TimedApp app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);  // never touch the user's settings
    const Options opt = parseArgs(app.arguments());
    const QString file = opt.file.isEmpty() ? MainWindow::samplesDir() + "/gemm.py" : opt.file;
    if (!QFile::exists(file)) {
        std::fprintf(stderr, "ide_latency_bench: %s not found\n", qPrintable(file));
        return 2;
    }
    const std::string loadBefore = readLine("/proc/loadavg", nullptr);

    MainWindow w(false);
    w.resize(1440, 900);
    w.show();
    Session& s = w.session();
    s.setSpeculative(opt.speculative);
    auto* explorer = qobject_cast<PassExplorer*>(w.panel("passes"));
    auto* params = qobject_cast<ParamsPanel*>(w.panel("params"));
    if (!explorer || !params) return std::fprintf(stderr, "panels missing\n"), 2;

    auto probe = std::make_shared<CompileProbe>();
    s.worker().setCompileFunction(
        [probe](const std::string& path, const std::string& text, const ts::CompileOptions& o) {
            double t0 = nowMs();
            ts::CompileResult r = ts::compile(path, text, o);
            double t1 = nowMs();
            std::lock_guard lock(probe->mu);
            probe->text = text;
            probe->startMs = t0, probe->endMs = t1;
            probe->frontendMs = r.frontendMicros / 1000, probe->passesMs = r.passesMicros / 1000;
            probe->codegenMs = r.codegenMicros / 1000;
            probe->passes = int(r.passes.size());
            return r;
        });

    // Heartbeat: gaps between ticks of a precise 2 ms timer on the UI thread.
    std::vector<std::pair<double, double>> gaps;  // (time of tick, gap before it)
    std::vector<double> gapCpu;                   // UI-thread CPU time spent in each gap
    double lastTick = -1, lastCpu = 0;
    QTimer beat;
    beat.setTimerType(Qt::PreciseTimer);
    QObject::connect(&beat, &QTimer::timeout, [&] {
        double t = nowMs(), c = threadCpuMs();
        if (lastTick >= 0) gaps.emplace_back(t, t - lastTick), gapCpu.push_back(c - lastCpu);
        lastTick = t, lastCpu = c;
    });

    Sample* cur = nullptr;
    QObject::connect(&s, &Session::compileStarted, [&] {
        if (cur && cur->launch < 0) cur->launch = nowMs();
    });
    QObject::connect(explorer->model(), &QAbstractItemModel::modelReset, [&] {
        if (!cur || cur->model >= 0) return;
        cur->model = nowMs();
        cur->cpuModel = threadCpuMs();
        Sample* mine = cur;
        // Queued: runs once every other resultChanged observer has returned.
        QMetaObject::invokeMethod(
            &app, [mine] { mine->settled = nowMs(), mine->cpuSettled = threadCpuMs(); },
            Qt::QueuedConnection);
    });
    PaintProbe paint;
    paint.onPaint = [&] {
        if (cur && cur->model >= 0 && cur->painted < 0) cur->painted = nowMs();
    };
    explorer->listView()->viewport()->installEventFilter(&paint);

    if (!w.openFile(file, true)) return 2;
    QElapsedTimer wait;
    wait.start();
    while (!(s.result() && !s.compiling()) && wait.elapsed() < 30000) QTest::qWait(10);
    if (!s.result() || !s.result()->ok) return std::fprintf(stderr, "gemm.py did not compile\n"), 2;
    QTest::qWait(500);

    SourceEditor* ed = w.editor();
    auto lineOf = [&](const QString& needle) {
        const QString t = ed->text();
        return int(t.left(t.indexOf(needle)).count('\n'));
    };
    auto typeKeys = [&](const QString& keys, Sample& smp) {
        for (int i = 0; i < keys.size(); ++i) {
            if (i) QTest::qWait(opt.typeGapMs);
            if (i + 1 == keys.size()) smp.t0 = nowMs(), smp.cpuT0 = threadCpuMs();
            if (keys[i] == '\b')
                QTest::keyClick(ed, Qt::Key_Backspace);
            else
                QTest::keyClick(ed, keys[i].toLatin1());
        }
    };
    // Selects `value` after `prefix` on its line and types `repl` over it.
    auto retype = [&](const QString& prefix, const QString& value, const QString& repl,
                      Sample& smp) {
        int line = lineOf(prefix);
        int col = int(ed->text(line).indexOf(prefix)) + int(prefix.size());
        ed->setFocus();
        ed->setSelection(line, col, line, col + int(value.size()));
        typeKeys(repl, smp);
    };
    auto setParam = [&](const char* name, const QString& value, Sample& smp) {
        ParamsModel* m = params->model();
        for (int r = 0; r < m->rowCount(); ++r)
            if (m->params()[size_t(r)].name == name) {
                smp.t0 = nowMs(), smp.cpuT0 = threadCpuMs();
                m->setData(m->index(r, ParamsModel::Value), value, Qt::EditRole);
                return;
            }
        std::fprintf(stderr, "no parameter %s\n", name);
        std::exit(2);
    };
    const QString comment = "  # zero the accumulator";
    using EditFn = std::function<void(Sample&)>;
    const std::vector<std::pair<const char*, EditFn>> script = {
        {"type-comment",
         [&](Sample& smp) {
             int line = lineOf("T.clear(C_local)");
             ed->setFocus();
             ed->setCursorPosition(
                 line, int(ed->text(line).trimmed().size()) + int(ed->text(line).indexOf('T')));
             typeKeys(comment, smp);
         }},
        {"delete-comment", [&](Sample& smp) { typeKeys(QString(comment.size(), '\b'), smp); }},
        {"retype-block_K", [&](Sample& smp) { retype("block_K=", "32", "64", smp); }},
        {"retype-block_K", [&](Sample& smp) { retype("block_K=", "64", "32", smp); }},
        {"panel-num_stages", [&](Sample& smp) { setParam("num_stages", "3", smp); }},
        {"panel-num_stages", [&](Sample& smp) { setParam("num_stages", "", smp); }},
        {"retype-threads", [&](Sample& smp) { retype("threads=", "128", "256", smp); }},
        {"retype-threads", [&](Sample& smp) { retype("threads=", "256", "128", smp); }},
    };

    std::vector<Sample> samples;
    samples.reserve(size_t(opt.edits));
    int failures = 0;
    beat.start(opt.heartbeatMs);
    QTest::qWait(200);
    app.recording = true;
    for (int i = 0; i < opt.edits; ++i) {
        samples.emplace_back();
        Sample& smp = samples.back();
        smp.kind = script[size_t(i) % script.size()].first;
        smp.debounce = s.effectiveDebounceMs();
        const double firstKey = nowMs();
        cur = &smp;
        script[size_t(i) % script.size()].second(smp);
        QElapsedTimer tw;
        tw.start();
        while (smp.settled < 0 && tw.elapsed() < 10000) QTest::qWait(1);
        QTest::qWait(opt.pauseMs);  // quiet: paints, lazy panels, the next debounce expires
        smp.cpuEnd = threadCpuMs();
        cur = nullptr;
        if (smp.settled < 0) {
            ++failures;
            std::fprintf(stderr, "edit %d (%s): no refresh within 10 s\n", i, smp.kind.c_str());
            continue;
        }
        {
            std::lock_guard lock(probe->mu);
            smp.compileStart = probe->startMs, smp.compileEnd = probe->endMs;
            smp.frontend = probe->frontendMs, smp.passes = probe->passesMs;
            smp.codegen = probe->codegenMs, smp.passCount = probe->passes;
            smp.textMatches = probe->text == s.text().toStdString();
        }
        if (!smp.textMatches) ++failures;
        for (auto it = gaps.rbegin(); it != gaps.rend() && it->first >= firstKey; ++it)
            if (it->first <= smp.settled + opt.heartbeatMs * 2)
                smp.maxGapMs = std::max(smp.maxGapMs, it->second);
    }
    beat.stop();
    app.recording = false;
    const std::string loadAfter = readLine("/proc/loadavg", nullptr);

    // --- summary ------------------------------------------------------------------------------
    std::vector<double> cpuBefore, cpuObs, cpuAfter;
    std::vector<double> lat, settled, painted, dwait, compile, fe, ps, cg, deliver, apply, dbs;
    std::map<std::string, std::vector<double>> byKind;
    for (const Sample& x : samples) {
        if (x.settled < 0) continue;
        lat.push_back(x.model - x.t0);
        settled.push_back(x.settled - x.t0);
        if (x.painted >= 0) painted.push_back(x.painted - x.t0);
        dwait.push_back(x.compileStart - x.t0);
        compile.push_back(x.compileEnd - x.compileStart);
        fe.push_back(x.frontend), ps.push_back(x.passes), cg.push_back(x.codegen);
        deliver.push_back(x.model - x.compileEnd);
        apply.push_back(x.settled - x.model);
        cpuBefore.push_back(x.cpuModel - x.cpuT0);
        cpuObs.push_back(x.cpuSettled - x.cpuModel);
        cpuAfter.push_back(x.cpuEnd - x.cpuSettled);
        dbs.push_back(x.debounce);
        byKind[x.kind].push_back(x.model - x.t0);
    }
    std::vector<double> allGaps, compileGaps;
    for (auto& g : gaps) allGaps.push_back(g.second);
    for (const Sample& x : samples) compileGaps.push_back(x.maxGapMs);
    // Where the largest gaps fell, relative to their edit: what the UI thread was doing.
    nlohmann::json largest = nlohmann::json::array();
    {
        std::vector<size_t> order(gaps.size());
        for (size_t g = 0; g < order.size(); ++g) order[g] = g;
        std::sort(order.begin(), order.end(),
                  [&](size_t a, size_t b) { return gaps[a].second > gaps[b].second; });
        for (size_t o = 0; o < std::min<size_t>(8, order.size()); ++o) {
            const size_t g = order[o];
            double end = gaps[g].first, start = end - gaps[g].second;
            std::string phase = "between edits", kind;
            for (const Sample& x : samples) {
                if (x.settled < 0 || end < x.t0 - 2000 || start > x.settled + opt.pauseMs) continue;
                kind = x.kind;
                phase = start < x.t0             ? "typing"
                        : start < x.compileStart ? "debounce"
                        : start < x.compileEnd   ? "compiling"
                        : start < x.model        ? "compiled: result held for the debounce, or "
                                                   "delivering (resultChanged before the list)"
                        : start < x.settled      ? "resultChanged observers"
                                                 : "after settled (paint, lazy panels)";
                if (end >= x.t0 - opt.typeGapMs * 30) break;
            }
            largest.push_back({{"gap_ms", std::round(gaps[g].second * 10) / 10},
                               {"ui_thread_cpu_ms", std::round(gapCpu[g] * 10) / 10},
                               {"at_ms", std::round(start)},
                               {"edit", kind},
                               {"phase", phase}});
        }
    }
    const double maxGap = allGaps.empty() ? 0 : *std::max_element(allGaps.begin(), allGaps.end());
    int over50 = 0;
    for (double g : allGaps) over50 += g > 50;

    nlohmann::json j;
    j["benchmark"] = "ide-latency";
    j["date"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    j["machine"] = {{"nproc", std::thread::hardware_concurrency()},
                    {"cpu_model", readLine("/proc/cpuinfo", "model name")},
                    {"kernel", QSysInfo::kernelVersion().toStdString()},
                    {"loadavg_before", loadBefore},
                    {"loadavg_after", loadAfter}};
    j["build_type"] = TS_BUILD_TYPE;
    j["qt"] = qVersion();
    j["qpa_platform"] = QGuiApplication::platformName().toStdString();
    j["file"] = QFileInfo(file).fileName().toStdString();
    j["target"] = s.target().toStdString();
    j["edits"] = int(lat.size());
    j["failed_edits"] = failures;
    j["edit_mix"] = nlohmann::json::object();
    for (auto& [k, v] : byKind) j["edit_mix"][k] = {{"n", v.size()}, {"latency_ms", stats(v)}};
    j["pause_ms"] = opt.pauseMs;
    j["type_gap_ms"] = opt.typeGapMs;
    j["debounce_ms"] = {{"bound", 150}, {"effective_median", pct(dbs, 50)}};
    j["latency_ms"] = stats(lat);
    j["latency_definition"] =
        "last keystroke (or Parameters-panel edit) -> PassListModel reset with the new compile";
    j["settled_ms"] = stats(settled);
    j["list_painted_ms"] = stats(painted);
    j["split_ms"] = {{"debounce_wait", stats(dwait)},   {"compile", stats(compile)},
                     {"compile_frontend", stats(fe)},   {"compile_passes", stats(ps)},
                     {"compile_codegen", stats(cg)},    {"deliver_to_model", stats(deliver)},
                     {"model_to_settled", stats(apply)}};
    j["ui_thread_cpu_ms"] = {{"edit_to_model", stats(cpuBefore)},
                             {"model_to_settled", stats(cpuObs)},
                             {"settled_to_pause_end_paint_layout", stats(cpuAfter)}};
    j["ui_stall_ms"] = {{"heartbeat_ms", opt.heartbeatMs},
                        {"max_gap", std::round(maxGap * 100) / 100},
                        {"p99_gap", std::round(pct(allGaps, 99) * 100) / 100},
                        {"gaps_over_50ms", over50},
                        {"ticks", allGaps.size()},
                        {"per_edit_max_gap", stats(compileGaps)},
                        {"largest", largest}};
    // UI-thread event dispatches that cost >= 0.5 ms CPU, costliest (by max CPU) first.
    std::vector<std::pair<std::string, TimedApp::Cost>> events(app.costs.begin(), app.costs.end());
    std::sort(events.begin(), events.end(),
              [](auto& a, auto& b) { return a.second.maxCpuMs > b.second.maxCpuMs; });
    auto r1 = [](double x) { return std::round(x * 10) / 10; };
    nlohmann::json ev = nlohmann::json::array();
    for (size_t e = 0; e < std::min<size_t>(10, events.size()); ++e) {
        const auto& [name, k] = events[e];
        ev.push_back({{"event", name},
                      {"count", k.count},
                      {"cpu_total_ms", r1(k.cpuMs)},
                      {"cpu_max_ms", r1(k.maxCpuMs)},
                      {"wall_max_ms", r1(k.maxWallMs)}});
    }
    j["ui_thread_events"] = ev;
    std::vector<std::pair<std::string, TimedApp::Cost>> paintList(app.paints.begin(),
                                                                  app.paints.end());
    std::sort(paintList.begin(), paintList.end(),
              [](auto& a, auto& b) { return a.second.cpuMs > b.second.cpuMs; });
    nlohmann::json pv = nlohmann::json::array();
    for (size_t e = 0; e < std::min<size_t>(8, paintList.size()); ++e) {
        const auto& [name, k] = paintList[e];
        pv.push_back({{"widget", name},
                      {"paints", k.count},
                      {"cpu_total_ms", r1(k.cpuMs)},
                      {"cpu_max_ms", r1(k.maxCpuMs)}});
    }
    j["ui_thread_paints"] = pv;
    const double p95 = pct(lat, 95);
    j["speculative_compiles"] = opt.speculative;
    j["acceptance"] = {{"p95_le_60ms", p95 <= 60},
                       {"p95_le_150ms", p95 <= 150},
                       {"max_stall_le_50ms", maxGap <= 50}};

    std::printf("%s, %zu edits (%d failed), build %s, %u cores, load before %s\n",
                j["file"].get<std::string>().c_str(), lat.size(), failures, TS_BUILD_TYPE,
                std::thread::hardware_concurrency(), loadBefore.c_str());
    auto line = [](const char* name, const std::vector<double>& v) {
        std::printf("  %-30s median %7.1f  p95 %7.1f  max %7.1f ms\n", name, pct(v, 50), pct(v, 95),
                    v.empty() ? NAN : *std::max_element(v.begin(), v.end()));
    };
    line("edit -> passes refreshed", lat);
    line("edit -> all views settled", settled);
    line("edit -> pass list painted", painted);
    line("  debounce wait", dwait);
    line("  compile (worker thread)", compile);
    line("    front end", fe);
    line("    passes", ps);
    line("    codegen", cg);
    line("  compile end -> model", deliver);
    line("  model -> settled", apply);
    line("  UI CPU edit -> model", cpuBefore);
    line("  UI CPU model -> settled", cpuObs);
    line("  UI CPU after (paint, layout)", cpuAfter);
    for (auto& [k, v] : byKind) line(("  [" + k + "]").c_str(), v);
    std::printf("  UI-thread heartbeat %d ms: max gap %.1f ms, p99 %.1f ms, %d gaps > 50 ms\n",
                opt.heartbeatMs, maxGap, pct(allGaps, 99), over50);
    for (auto& g : largest)
        std::printf("    gap %6.1f ms (UI thread busy %5.1f ms) at %6.0f ms: %s, %s\n",
                    g["gap_ms"].get<double>(), g["ui_thread_cpu_ms"].get<double>(),
                    g["at_ms"].get<double>(), g["edit"].get<std::string>().c_str(),
                    g["phase"].get<std::string>().c_str());
    std::printf("  costliest UI-thread events (>= 0.5 ms CPU), by max CPU:\n");
    for (auto& e : ev)
        std::printf("    %-58s n=%4d  CPU max %5.1f total %7.1f ms, wall max %5.1f ms\n",
                    e["event"].get<std::string>().c_str(), e["count"].get<int>(),
                    e["cpu_max_ms"].get<double>(), e["cpu_total_ms"].get<double>(),
                    e["wall_max_ms"].get<double>());
    std::printf("  paints by widget class, by total CPU:\n");
    for (auto& e : pv)
        std::printf("    %-40s n=%5d  CPU total %7.1f max %5.1f ms\n",
                    e["widget"].get<std::string>().c_str(), e["paints"].get<int>(),
                    e["cpu_total_ms"].get<double>(), e["cpu_max_ms"].get<double>());
    std::printf("  acceptance: p95 %.1f ms %s 60 (issue 15; issue 3: 150), max stall %.1f ms %s 50"
                "%s\n",
                p95, p95 <= 60 ? "<=" : ">", maxGap, maxGap <= 50 ? "<=" : ">",
                opt.speculative ? "" : " (no speculative compiles)");
    if (!opt.json.isEmpty()) {
        QFile out(opt.json);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return std::fprintf(stderr, "cannot write %s\n", qPrintable(opt.json)), 2;
        out.write(QByteArray::fromStdString(j.dump(2) + "\n"));
        std::printf("wrote %s\n", qPrintable(opt.json));
    }
    s.setModified(false);  // no "save changes?" dialog on the way out
    return failures ? 1 : 0;
}
