// Predicted vs measured bank counters (BankCompare.h).
#include "visualizer/core/BankCompare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ts::viz {
using namespace ts::analysis;

const std::vector<CounterSpec>& comparedCounters() {
    static const std::vector<CounterSpec> specs = {
        {"ld_conflicts", "ld bank conflicts (excess wavefronts)",
         "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"},
        {"st_conflicts", "st bank conflicts (excess wavefronts)",
         "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"},
        {"ld_wavefronts", "ld wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
        {"st_wavefronts", "st wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
        {"ldsm_wavefronts", "ldmatrix wavefronts",
         "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"},
    };
    return specs;
}

std::string sourceHash(const std::string& text) {
    uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a 64-bit offset basis; prime 0x100000001b3
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        end = end == std::string::npos ? text.size() : end + 1;
        std::string_view line(text.data() + pos, end - pos);
        size_t first = line.find_first_not_of(" \t");
        // The IDE's parameter pragma (app/gui/ParamPragma.h) is left out: parameter values are
        // compared one by one, and tilec takes them as --param on a file without the line.
        if (first == std::string_view::npos || line.substr(first).rfind("# tilescope:", 0) != 0)
            for (unsigned char c : line) h = (h ^ c) * 0x100000001b3ull;
        pos = end;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::optional<MeasuredBanks> parseMeasuredBanks(const std::string& text, std::string* why) {
    auto fail = [&](const std::string& w) -> std::optional<MeasuredBanks> {
        if (why) *why = w;
        return std::nullopt;
    };
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return fail("not a JSON object");
    if (!j.contains("predicted") || !j.contains("kernel"))
        return fail("not a tilec banks file (no \"kernel\" / \"predicted\")");
    if (!j.contains("measured") || !j["measured"].is_object())
        return fail("no measured counters: the file was written without --measure");
    MeasuredBanks m;
    auto str = [](const nlohmann::json& o, const char* k) {
        return o.contains(k) && o[k].is_string() ? o[k].get<std::string>() : std::string();
    };
    m.file = str(j, "file");
    m.kernel = str(j, "kernel");
    m.target = str(j, "target");
    m.sourceHash = str(j, "source_hash");
    m.blocks = j.value("blocks", int64_t(0));
    m.threads = j.value("threads", int64_t(0));
    if (j.contains("params") && j["params"].is_object()) {
        m.hasParams = true;
        for (auto& [k, v] : j["params"].items())
            m.params[k] = v.is_string() ? v.get<std::string>() : v.dump();
    }
    for (auto& [k, v] : j["predicted"].items())
        if (v.is_number()) m.predictedThen[k] = v.get<double>();
    const nlohmann::json& meas = j["measured"];
    m.device = str(meas, "device");
    m.chip = str(meas, "chip");
    m.error = str(meas, "error");
    if (meas.contains("dropped_metrics"))
        for (auto& d : meas["dropped_metrics"])
            if (d.is_string()) m.dropped.push_back(d.get<std::string>());
    for (const CounterSpec& c : comparedCounters()) {
        if (meas.contains("counters") && meas["counters"].contains(c.key) &&
            meas["counters"][c.key].is_number())
            m.measured[c.key] = meas["counters"][c.key].get<double>();
        else if (meas.contains("metrics") && meas["metrics"].contains(c.metric) &&
                 meas["metrics"][c.metric].is_number())
            m.measured[c.key] = meas["metrics"][c.metric].get<double>();
    }
    if (m.measured.empty() && m.error.empty()) return fail("the measured section has no counters");
    return m;
}

bool countersAgree(double p, double m, double opWavefronts) {
    return m >= 0 && (p == m || std::abs(p - m) <= 0.005 * std::max(0.0, opWavefronts));
}

std::vector<CounterComparison> compareCounters(const KernelBankReport& r, const MeasuredBanks& m) {
    const auto pred = analysis::kernelCounters(r);
    std::vector<CounterComparison> rows;
    for (const CounterSpec& c : comparedCounters()) {
        CounterComparison row;
        row.key = c.key, row.label = c.label, row.metric = c.metric;
        row.predicted = pred.at(c.key);
        if (auto it = m.measured.find(c.key); it != m.measured.end()) {
            row.measured = it->second;
            auto wf =
                m.measured.find(row.key.rfind("st", 0) == 0 ? "st_wavefronts" : "ld_wavefronts");
            const double scale = wf == m.measured.end() ? 0 : wf->second;
            bool ok = countersAgree(row.predicted, it->second, scale);
            // The ld counters of some chips leave ldmatrix out: the LDS-only prediction counts.
            if (!ok && row.key == "ld_conflicts")
                ok = countersAgree(pred.at("lds_conflicts"), it->second, scale);
            if (!ok && row.key == "ld_wavefronts")
                ok = countersAgree(pred.at("lds_wavefronts"), it->second, scale);
            row.agree = ok;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

MatchReport matchMeasured(const MeasuredBanks& m, const std::string& kernel, int64_t blocks,
                          const std::map<std::string, std::string>& params,
                          const std::string& target, const std::string& sourceText) {
    MatchReport rep;
    auto differs = [&](const std::string& what, const std::string& then, const std::string& now) {
        rep.reasons.push_back(what + " = " + then + " when measured, " + now + " now");
    };
    if (!m.kernel.empty() && m.kernel != kernel) differs("kernel", m.kernel, kernel);
    if (m.blocks > 0 && m.blocks != blocks)
        differs("grid blocks", std::to_string(m.blocks), std::to_string(blocks));
    if (m.hasParams) {
        for (const auto& [k, v] : m.params) {
            auto it = params.find(k);
            if (it == params.end())
                rep.reasons.push_back("parameter " + k + " was measured but is gone");
            else if (it->second != v)
                differs(k, v, it->second);
        }
        for (const auto& [k, v] : params)
            if (!m.params.count(k)) rep.reasons.push_back("parameter " + k + " was not measured");
    }
    if (!m.target.empty() && m.target != target) differs("target", m.target, target);
    if (!m.sourceHash.empty() && m.sourceHash != sourceHash(sourceText))
        rep.reasons.push_back("the source text differs from the measured one (edited since?)");
    if (!rep.reasons.empty())
        rep.status = MeasuredMatch::Mismatch;
    else if (!m.hasParams || m.sourceHash.empty())
        rep.status = MeasuredMatch::Unknown;
    else
        rep.status = MeasuredMatch::Matches;
    if (rep.status == MeasuredMatch::Unknown)
        rep.reasons.push_back(
            "the file does not record the parameter values and source it was measured with");
    return rep;
}

}  // namespace ts::viz
