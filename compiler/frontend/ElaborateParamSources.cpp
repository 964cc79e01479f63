#include "compiler/frontend/ElaborateParamSources.h"

#include <algorithm>

#include "compiler/frontend/MetaValue.h"

namespace ts::fe {

void takeAutotuneConfigValues(const Module& mod, const KernelEntry& entry,
                              std::vector<std::pair<std::string, std::string>>& values) {
    auto given = [&](const std::string& name) {
        return std::any_of(values.begin(), values.end(), [&](const auto& o) { return o.first == name; });
    };
    if (entry.isAutotune && entry.configs) {
        DiagnosticEngine scratch;
        if (auto cfg = mod.evalInGlobals(*entry.configs, nullptr, scratch);
            cfg && cfg->isSequence() && !cfg->items().empty())
            if (const Value& first = cfg->items()[0]; first.is(ValueKind::Dict))
                for (const auto& [k, v] : first.dictObj().entries) {
                    if (!k.is(ValueKind::Str) || given(k.asStr())) continue;
                    const KernelParam* p = entry.param(k.asStr());
                    if (p && (!p->defaultValue || p->defaultValue->isNone()))
                        values.emplace_back(k.asStr(), repr(v));
                }
    }
}

void takeCallSiteValues(const KernelEntry& entry, std::vector<std::pair<std::string, std::string>>& values,
                        DiagnosticEngine& diags) {
    // Parameters still without a value take what the file's own call of the kernel passes
    // (TileLang's quickstart: `matmul.compile(M=M, ..., block_K=block_K)` at module level;
    // most examples: `matmul(M, N, K, 128, 128, 32)` in main()). A note says where from.
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
            if (repr(v) != repr(*p->defaultValue)) {
                keptDefault += (keptDefault.empty() ? "" : ", ") + name + "=" + repr(*p->defaultValue) +
                               " (the call passes " + repr(v) + ")";
                const std::string arg = name + "=" + repr(v);
                asTheCall += " --param " + (arg.find(' ') == std::string::npos ? arg : "\"" + arg + "\"");
            }
            continue;
        }
        values.emplace_back(name, repr(v));
        fromCall += (fromCall.empty() ? "" : ", ") + name + "=" + repr(v);
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
