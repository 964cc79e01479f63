// Listing a program's kernels and routing parameter overrides to the selected one
// (ProgramKernels.h).
#include "compiler/ProgramKernels.h"

#include <algorithm>

#include "compiler/support/ParamPragma.h"

namespace ts {

namespace {
const char* patternName(fe::EntryPattern p) {
    switch (p) {
        case fe::EntryPattern::Factory:
            return "factory";
        case fe::EntryPattern::Eager:
            return "eager";
        case fe::EntryPattern::PrimFunc:
            return "prim_func";
    }
    return "factory";
}
}  // namespace

std::vector<ProgramKernel> programKernels(const fe::Module& mod) {
    std::vector<const fe::KernelEntry*> entries;
    for (const auto& e : mod.entries()) entries.push_back(&e);
    // entries() is best first; users read a file top to bottom.
    std::stable_sort(entries.begin(), entries.end(),
                     [](auto* a, auto* b) { return a->func->span.line < b->func->span.line; });
    std::vector<ProgramKernel> out;
    for (const fe::KernelEntry* e : entries) {
        ProgramKernel k;
        k.name = e->name();
        if (e->primFunc && e->primFunc != e->func) k.primFuncName = e->primFunc->name;
        k.pattern = patternName(e->pattern);
        k.span = e->func->nameSpan;
        for (const auto& p : e->params)
            if (p.settable()) k.params.push_back(p.name);
        k.isJit = e->isJit;
        k.isAutotune = e->isAutotune;
        k.isDefault = e == mod.entry();
        out.push_back(std::move(k));
    }
    return out;
}

int programKernelIndex(const std::vector<ProgramKernel>& kernels, const fe::KernelEntry& e) {
    for (size_t i = 0; i < kernels.size(); ++i)
        if (kernels[i].span == e.func->nameSpan && kernels[i].name == e.name())
            return static_cast<int>(i);
    return -1;
}

std::map<std::string, std::string> overridesFor(const fe::Module& mod,
                                                const fe::KernelEntry& selected,
                                                const std::map<std::string, std::string>& params,
                                                const std::string& text) {
    std::map<std::string, std::string> out;
    std::map<std::string, std::string> pragma;
    bool scanned = false;
    for (const auto& [name, value] : params) {
        if (!name.empty() && name.front() == '@') continue;  // @kernel / @ref: not parameters
        const fe::KernelParam* p = selected.param(name);
        if (!p || !p->settable()) {
            if (!scanned) pragma = parseParamPragma(text), scanned = true;
            auto it = pragma.find(name);
            if (it != pragma.end() && it->second == value &&
                !mod.otherEntriesWithParam(selected, name).empty())
                continue;  // another kernel's value, kept in the pragma for when it is selected
        }
        out.emplace(name, value);
    }
    return out;
}

Span kernelNameSpan(const std::string& text, const std::string& name) {
    for (const PragmaParam& p : paramPragmaEntries(text))
        if (p.name == kPragmaKernel && p.value == name) return p.span;
    return Span{};  // a command-line name: the message names no place in the file
}

}  // namespace ts
