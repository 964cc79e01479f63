#include "compiler/frontend/ElaborateParamSources.h"

#include <algorithm>
#include <optional>

#include "compiler/frontend/MetaValue.h"

namespace ts::fe {

void takeAutotuneConfigValues(const Module& mod, const KernelEntry& entry,
                              std::vector<std::pair<std::string, std::string>>& values, DiagnosticEngine& diags) {
    auto given = [&](const std::string& name) {
        return std::any_of(values.begin(), values.end(), [&](const auto& o) { return o.first == name; });
    };
    if (entry.isAutotune && entry.configs) {
        DiagnosticEngine scratch;
        if (auto cfg = mod.evalInGlobals(*entry.configs, nullptr, scratch);
            cfg && cfg->isSequence() && !cfg->items().empty())
            if (const Value& first = cfg->items()[0]; first.is(ValueKind::Dict))
            {
                // TileLang's AutoTuner: a call that passes a tunable parameter skips tuning and
                // compiles the call's values with the other defaults (tuner.py "already provided");
                // otherwise a config's values are what it compiles, defaults or not. A note names
                // them (helper-123: where block_M came from was not said anywhere).
                std::string callPasses;
                for (const auto& [k, v] : first.dictObj().entries)
                    for (const auto& cv : entry.callSite.values)
                        if (k.is(ValueKind::Str) && cv.first == k.asStr()) callPasses += (callPasses.empty() ? "" : ", ") + cv.first;
                if (!callPasses.empty()) {
                    diags.add({Severity::Note, entry.configs->span,
                               "'" + entry.name() + "': the file's call passes " + callPasses +
                                   ", so (as TileLang's AutoTuner) none of its @autotune configs is used; the other parameters keep their defaults",
                               "--param NAME=VALUE sets them", "params"});
                    return;
                }
                std::string taken;
                for (const auto& [k, v] : first.dictObj().entries) {
                    if (!k.is(ValueKind::Str) || given(k.asStr())) continue;
                    if (entry.param(k.asStr())) {
                        values.emplace_back(k.asStr(), repr(v));
                        taken += (taken.empty() ? "" : ", ") + k.asStr() + "=" + repr(v);
                    }
                }
                if (!taken.empty())
                    diags.add({Severity::Note, entry.configs->span,
                               "'" + entry.name() + "' takes " + taken + " from the first of its " +
                                   std::to_string(cfg->items().size()) + " @autotune configs (TileScope does not tune)",
                               "--param NAME=VALUE compiles another config; `tilec tune` times them on a GPU",
                               "params"});
            }
    }
}

namespace {
/// The same kernel either way: 0 and False, 1.0 and 1, T.float32 and "float32" (helper-120: the
/// note listed "dtype=float32 (the call passes 'float32')" as a difference).
bool sameParamValue(const Value& a, const Value& b) {
    if (repr(a) == repr(b)) return true;
    auto number = [](const Value& v) -> std::optional<double> {
        if (v.is(ValueKind::Float)) return v.asFloat();
        if (v.isIntLike()) return static_cast<double>(v.asInt());
        return std::nullopt;
    };
    if (auto x = number(a), y = number(b); x && y) return *x == *y;
    auto dtypeOf = [](const Value& v) -> std::optional<ir::DType> {
        if (v.is(ValueKind::DType)) return v.asDType();
        if (v.is(ValueKind::Str)) return ir::parseDType(v.asStr());
        return std::nullopt;
    };
    auto x = dtypeOf(a), y = dtypeOf(b);
    return x && y && *x == *y;
}

/// NAME=VALUE as one shell word: single-quoted when it holds anything the shell reads.
std::string shellWord(const std::string& s) {
    if (s.find_first_of(" \t'\"()[]{}$`\\;&|<>*?!#~") == std::string::npos) return s;
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}
}  // namespace

void takeCallSiteValues(const KernelEntry& entry, std::vector<std::pair<std::string, std::string>>& values,
                        DiagnosticEngine& diags) {
    // Parameters still without a value take what the file's own call of the kernel passes
    // (TileLang's quickstart: `matmul.compile(M=M, ..., block_K=block_K)` at module level;
    // most examples: `matmul(M, N, K, 128, 128, 32)` in main()). A note says where from.
    // A call Python would reject is no source of values (helper-125: a misspelt keyword was
    // ignored and the default compiled; a second tensor disagreeing on a size was not looked at).
    for (const auto& pr : entry.callSite.problems)
        diags.error(pr.span, pr.message, pr.hint, "params");
    if (!entry.callSite.problems.empty()) return;
    std::string fromCall, keptDefault, asTheCall;
    for (const auto& nameValue : entry.callSite.values) {
        // Not a structured binding: clang before 16 (the fuzz build) rejects capturing one.
        const std::string& name = nameValue.first;
        const auto& v = nameValue.second;
        const KernelParam* p = entry.param(name);
        bool given = std::any_of(values.begin(), values.end(), [&](const auto& o) { return o.first == name; });
        bool hasDefault = p && p->defaultValue && !p->defaultValue->isNone() &&
                          !p->defaultValue->is(ValueKind::Poison);
        if (!p || given) continue;
        if (hasDefault) {
            // The file's call passes another value than the default the kernel keeps: say so, or
            // a user who ran the example's main() gets a different kernel without a word.
            if (!sameParamValue(v, *p->defaultValue)) {
                keptDefault += (keptDefault.empty() ? "" : ", ") + name + "=" + paramText(*p->defaultValue) +
                               " (the call passes " + paramText(v) + ")";
                asTheCall += " --param " + shellWord(name + "=" + paramText(v));
            }
            continue;
        }
        values.emplace_back(name, paramText(v));
        fromCall += (fromCall.empty() ? "" : ", ") + name + "=" + paramText(v);
    }
    // A parameter with a default that the call passes something unreadable for keeps its
    // default: say so at that argument (helper-122: `k(lambda ...)` compiled the default op).
    for (const auto& u : entry.callSite.unread) {
        const KernelParam* p = entry.param(u.param);
        bool given = std::any_of(values.begin(), values.end(), [&](const auto& o) { return o.first == u.param; });
        if (!p || given || !p->defaultValue || p->defaultValue->is(ValueKind::Poison)) continue;
        diags.add({Severity::Note, u.span,
                   "'" + entry.name() + "' keeps its default " + u.param + "=" + paramText(*p->defaultValue) +
                       ": this argument is " + u.what + ", which TileScope does not evaluate outside a kernel",
                   "pass --param " + u.param + "=<value> to compile what this call compiles", "params"});
    }
    if (!fromCall.empty() || !keptDefault.empty()) {
        std::string msg = "'" + entry.name() + "'";
        if (!fromCall.empty()) msg += " takes " + fromCall + " from this call (" + entry.callSite.where + ")";
        if (!keptDefault.empty())
            msg += std::string(fromCall.empty() ? " keeps" : "; it keeps") + " its defaults " + keptDefault +
                   (fromCall.empty() ? " rather than the values of this call (" + entry.callSite.where + ")" : "");
        diags.add({Severity::Note, entry.callSite.span, msg,
                   keptDefault.empty() ? "--param NAME=VALUE overrides them"
                                       : "a parameter with a default takes the call's value only when you pass "
                                         "it: add" + asTheCall + " to compile what the call compiles",
                   "params"});
    }
}

}  // namespace ts::fe
