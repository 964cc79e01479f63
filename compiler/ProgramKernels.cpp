// Listing a program's kernels and routing parameter overrides to the selected one
// (ProgramKernels.h).
#include "compiler/ProgramKernels.h"

#include <algorithm>

#include "compiler/frontend/Ast.h"
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

/// `with T.Kernel(...)` (or `tilelang.language.Kernel`): the callee's last name is Kernel.
bool isKernelWith(const fe::ast::With& w) {
    for (const auto& item : w.items)
        if (auto* call = fe::ast::as<fe::ast::Call>(item.context))
            if (auto* attr = fe::ast::as<fe::ast::Attribute>(call->func); attr && attr->attr == "Kernel")
                return true;
    return false;
}

/// Lines of the T.Kernel blocks in `body`, outside nested function definitions (macros are
/// expanded where they are called; their blocks are not the function's).
void kernelBlockLines(const fe::ast::Block& body, std::vector<uint32_t>& out) {
    for (const fe::ast::Stmt* s : body) {
        if (auto* w = fe::ast::as<fe::ast::With>(s)) {
            if (isKernelWith(*w)) {
                out.push_back(w->span.line);
                continue;  // a nested T.Kernel is an error elaboration reports
            }
            kernelBlockLines(w->body, out);
        } else if (auto* i = fe::ast::as<fe::ast::If>(s)) {
            kernelBlockLines(i->body, out);
            kernelBlockLines(i->orelse, out);
        } else if (auto* f = fe::ast::as<fe::ast::For>(s)) {
            kernelBlockLines(f->body, out);
        }
    }
}
/// What an autotune driver does, for `tilec kernels` and the IDE's kernel list.
std::string autotunerText(const fe::KernelEntry& e) {
    const fe::TunerSite& t = e.tuner;
    std::string s = "autotune driver, not a kernel itself: ";
    if (t.fromKernel) {
        s += "builds an AutoTuner over " +
             (t.kernelText.empty() ? std::string("a tunable function") : "'" + t.kernelText + "'") +
             " (AutoTuner.from_kernel, line " + std::to_string(t.fromKernel->span.line) + ")" +
             (t.runs ? " and runs it" : "");
    } else {
        s += "runs the AutoTuner that '" + e.tunerBuilder->name + "' (line " +
             std::to_string(e.tunerBuilder->span.line) + ") builds";
    }
    return s + "; TileScope compiles the tuned kernel at the tuner's first config";
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
        if (e->isAutotuneDriver()) {
            k.pattern = "autotuner";
            k.autotuner = autotunerText(*e);
            for (const fe::ast::FunctionDef* r : e->tunerRunners)
                k.tunerRunners.push_back(r->name + " (line " + std::to_string(r->span.line) + ")");
        }
        k.span = e->func->nameSpan;
        for (const auto& p : e->params)
            if (p.settable()) k.params.push_back(p.name);
        k.isJit = e->isJit;
        k.isAutotune = e->isAutotune;
        k.isDefault = e == mod.entry();
        if (const fe::ast::FunctionDef* body = e->primFunc ? e->primFunc : e->func)
            kernelBlockLines(body->body, k.kernelBlockLines);
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
