#include "visualizer/core/VariantCompare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "compiler/Compile.h"
#include "profiler/Profile.h"

namespace ts::viz {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string labelOf(const nlohmann::json& r) {
    if (r.value("kind", std::string()) == "baseline" && r.contains("baseline")) {
        // "cuBLAS 13.1.0 (cublasGemmEx)": a library, named by what it is, not by parameters.
        const auto& b = r["baseline"];
        const std::string v = b.value("version", std::string());
        return b.value("library", std::string("library")) + (v.empty() ? "" : " " + v) + " (" +
               b.value("api", std::string("baseline")) + ")";
    }
    const nlohmann::json* m = nullptr;
    if (r.contains("tune") && r["tune"].contains("config")) m = &r["tune"]["config"];
    else if (r.contains("params")) m = &r["params"];
    std::string s;
    if (m)
        for (auto it = m->begin(); it != m->end(); ++it)
            s += (s.empty() ? "" : " ") + it.key() + "=" +
                 (it->is_string() ? it->get<std::string>() : it->dump());
    if (s.empty()) s = r.value("id", std::string("?"));
    return s;
}

}  // namespace

VariantCompare::VariantCompare(std::vector<nlohmann::json> records) {
    // Interpreter sessions (tune --interp) time the CPU interpreter: say so in the column.
    bool interp = false;
    for (const auto& r : records) interp |= r.value("interp", false);
    m_columns.push_back({"time_ms", interp ? "interpreter time (ms)" : "time (ms)", "ms", true});
    // Metric keys: the default set first (its order and units), then any other key.
    std::set<std::string> keys;
    for (const auto& r : records)
        if (r.contains("metrics") && r["metrics"].is_object())
            for (auto it = r["metrics"].begin(); it != r["metrics"].end(); ++it)
                if (it->is_number()) keys.insert(it.key());
    static const std::vector<CompareColumn> kDerived = {
        {"activity_ms", "CUPTI duration (ms)", "ms", true},
        {"event_ms", "event time (ms)", "ms", true},
        {"tflops", "TFLOP/s", "", false},
        {"gbps", "GB/s", "", false},
        {"registers", "registers", "", true},
        {"smem_bytes", "shared mem (B)", "", true},
        {"threads", "threads", "", true},
        {"blocks", "blocks", "", true},
        {"predicted_ld_conflicts", "predicted ld conflicts", "", true},
        {"predicted_st_conflicts", "predicted st conflicts", "", true},
    };
    for (const auto& d : kDerived)
        if (keys.erase(d.key)) m_columns.push_back(d);
    for (const auto& spec : rt::defaultMetrics())
        if (keys.erase(spec.key))
            m_columns.push_back({spec.key, spec.label, spec.unit, spec.lowerIsBetter});
    for (const auto& k : keys) m_columns.push_back({k, k, "", true});

    // Library baselines first: the row every variant is measured against stays in view.
    std::stable_partition(records.begin(), records.end(), [](const nlohmann::json& r) {
        return r.value("kind", std::string()) == "baseline";
    });
    for (auto& r : records) {
        CompareRow row;
        row.label = labelOf(r);
        row.status = r.value("status", std::string("ok"));
        row.reason = r.value("reason", std::string());
        for (const auto& c : m_columns) {
            double v = kNaN;
            if (c.key == "time_ms" && r.contains("time_ms") && r["time_ms"].is_number())
                v = r["time_ms"].get<double>();
            else if (r.contains("metrics") && r["metrics"].contains(c.key) &&
                     r["metrics"][c.key].is_number())
                v = r["metrics"][c.key].get<double>();
            row.values.push_back(row.ok() ? v : kNaN);
        }
        row.record = std::move(r);
        m_rows.push_back(std::move(row));
    }
}

int VariantCompare::column(const std::string& key) const {
    for (size_t i = 0; i < m_columns.size(); ++i)
        if (m_columns[i].key == key) return static_cast<int>(i);
    return -1;
}

int VariantCompare::bestRow(int col) const {
    if (col < 0 || col >= static_cast<int>(m_columns.size())) return -1;
    const bool lower = m_columns[static_cast<size_t>(col)].lowerIsBetter;
    int best = -1;
    for (size_t i = 0; i < m_rows.size(); ++i) {
        const double v = m_rows[i].values[static_cast<size_t>(col)];
        if (!m_rows[i].ok() || std::isnan(v)) continue;
        // A variant whose result was wrong never counts as best (check "fail" keeps status).
        if (m_rows[i].record.value("check", std::string("pass")) == "fail") continue;
        // Nor does one nothing checked (no reference): it may be fast because it is wrong.
        if (m_rows[i].unchecked()) continue;
        // Nor a library baseline: the best is the variant to pick.
        if (m_rows[i].library()) continue;
        const double b = best < 0 ? 0 : m_rows[static_cast<size_t>(best)].values[static_cast<size_t>(col)];
        if (best < 0 || (lower ? v < b : v > b)) best = static_cast<int>(i);
    }
    return best;
}

int VariantCompare::libraryRow() const {
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].library()) return static_cast<int>(i);
    return -1;
}

std::optional<double> VariantCompare::relativeDelta(int row, int baseline, int col) const {
    if (row < 0 || baseline < 0 || col < 0 || row >= static_cast<int>(m_rows.size()) ||
        baseline >= static_cast<int>(m_rows.size()) || col >= static_cast<int>(m_columns.size()))
        return std::nullopt;
    const double v = m_rows[static_cast<size_t>(row)].values[static_cast<size_t>(col)];
    const double b = m_rows[static_cast<size_t>(baseline)].values[static_cast<size_t>(col)];
    if (std::isnan(v) || std::isnan(b) || b == 0) return std::nullopt;
    return (v - b) / b;
}

std::vector<std::pair<std::string, size_t>> VariantCompare::sessions(
    const std::vector<nlohmann::json>& records) {
    std::vector<std::pair<std::string, size_t>> out;
    for (const auto& r : records) {
        if (!r.contains("tune") || !r["tune"].contains("session")) continue;
        const std::string s = r["tune"]["session"].get<std::string>();
        bool found = false;
        for (auto& [name, n] : out)
            if (name == s) ++n, found = true;
        if (!found) out.push_back({s, 1});
    }
    return out;
}

std::vector<nlohmann::json> VariantCompare::sessionRecords(
    const std::vector<nlohmann::json>& records, const std::string& session) {
    std::vector<nlohmann::json> out;
    for (const auto& r : records)
        if (r.contains("tune") && r["tune"].value("session", std::string()) == session)
            out.push_back(r);
    return out;
}

CompileResult compileVariant(const nlohmann::json& record, const std::string& sourceText) {
    CompileOptions opts;
    opts.recordSnapshots = true;
    if (record.contains("params"))
        for (auto it = record["params"].begin(); it != record["params"].end(); ++it)
            opts.params[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
    opts.kernel = record.value("program_kernel", std::string());
    const std::string arch = record.value("target", std::string("sm_80"));
    opts.target = arch.rfind("cuda:", 0) == 0 ? arch : "cuda:" + arch;
    if (!parseTarget(opts.target)) opts.target = "cuda:sm_80";
    return compile(record.value("file", std::string("variant.py")), sourceText, opts);
}

VariantDiff diffVariants(const CompileResult& a, const CompileResult& b) {
    VariantDiff d;
    if (!a.ok || !b.ok) {
        d.error = !a.ok ? "the first variant does not compile" : "the second variant does not compile";
        return d;
    }
    const size_t n = std::min(a.passes.size(), b.passes.size());
    for (size_t i = 0; i < n; ++i) {
        if (a.passes[i].name != b.passes[i].name) break;
        PassDiff p;
        p.pass = a.passes[i].name;
        p.diff = diffTexts(a.passes[i].ir, b.passes[i].ir);
        p.changedLines = p.diff.deleted + p.diff.inserted + p.diff.changed;
        d.passes.push_back(std::move(p));
    }
    d.cuda = diffTexts(a.cuda, b.cuda);
    return d;
}

std::string formatMetric(double v, const std::string& unit) {
    if (std::isnan(v)) return "-";
    char buf[64];
    if (unit == "%")
        std::snprintf(buf, sizeof buf, "%.1f %%", v);
    else if (unit == "ms")
        std::snprintf(buf, sizeof buf, "%.4f", v);
    else if (unit == "B")
        std::snprintf(buf, sizeof buf, "%.2f MB", v / 1e6);
    else if (unit == "ns")
        std::snprintf(buf, sizeof buf, "%.4f ms", v * 1e-6);
    else if (std::fabs(v) >= 100 || v == std::floor(v))
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

}  // namespace ts::viz
