// The front end's entry points (Elaborate.h): runFrontend (module analysis, the meta-evaluator,
// elaboration and the work counts of a kernel) and writtenTensorParams. The elaboration itself
// is Elaborate.cpp.
#include "compiler/frontend/Elaborate.h"

#include <algorithm>
#include <set>

#include "compiler/frontend/ElaborateParamSources.h"
#include "compiler/frontend/Elaborator.h"
#include "compiler/frontend/MetaAutoTuner.h"
#include "compiler/frontend/MetaDevice.h"
#include "compiler/frontend/MetaBuiltins.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/PointerTensors.h"
#include "compiler/ir/ViewBases.h"
#include "compiler/ops/Registry.h"

namespace ts::fe {

// ---- public API ---------------------------------------------------------------------------------

std::vector<int> writtenTensorParams(const ir::PrimFuncNode& f) {
    std::set<const ir::BufferNode*> written;
    ir::walk(f.body, [&](const ir::Stmt& s) {
        if (auto* st = ir::as<ir::StoreNode>(s)) written.insert(st->buffer.get());
        if (auto* t = ir::as<ir::TileOpNode>(s)) {
            const ops::TileOp& op = ops::get(t->op);
            for (size_t i = 0; i < t->args.size(); ++i)
                if (t->isRegion(i) && (op.access(*t, i) & ops::kWrite)) written.insert(t->region(i).buffer.get());
        }
    }, [&](const ir::Expr& e) {  // T.atomic_*(..., return_prev=True) writes its element
        if (auto* c = ir::as<ir::CallNode>(e); c && c->op == ir::intrin::kAtomicPrev && c->args.size() >= 3)
            if (auto* l = ir::as<ir::LoadNode>(c->args[1])) written.insert(l->buffer.get());
    });
    ir::addViewBases(f, written);  // a write through a view writes its tensor
    std::vector<int> out;
    for (size_t i = 0; i < f.params.size(); ++i)
        if (written.count(f.params[i].get())) out.push_back(static_cast<int>(i));
    return out;
}

namespace {
const char* const kFlopsNames[] = {"flops", "total_flops"};
const char* const kBytesNames[] = {"bytes", "total_bytes"};

/// The flop (bytes) site of kernel `e`: a `flops = ...` / `total_flops = ...` assignment
/// (`bytes` / `total_bytes`) among the statements of e's own factory body, else the file's site
/// (Module::flops/bytes). Files with several kernels (preprocess + main + postprocess) count each
/// kernel's work where it is defined; the local is unused Python, so TileLang runs them too. Only
/// factories: the body of an eager function or a bare prim_func is kernel code.
std::optional<MetaSite> workSite(const Module& mod, const KernelEntry& e, const char* const (&names)[2]) {
    if (e.pattern == EntryPattern::Factory && e.func) {
        const ast::Block& b = e.func->body;
        for (size_t i = 0; i < b.size(); ++i) {
            const ast::Expr* target = nullptr;
            const ast::Expr* value = nullptr;
            if (auto a = ast::as<ast::Assign>(b[i]); a && a->targets.size() == 1)
                target = a->targets[0], value = a->value;
            if (auto a = ast::as<ast::AnnAssign>(b[i]); a && a->value) target = a->target, value = a->value;
            auto n = ast::as<ast::Name>(target);
            if (!n) continue;
            for (const char* k : names)
                if (n->id == k) return MetaSite{n->id, value, &b, i, e.func};
        }
    }
    return &names == &kFlopsNames ? mod.flops() : mod.bytes();
}
}  // namespace

ir::PrimFunc elaborate(const Module& mod, const KernelEntry& entry, const ParamBindings& params,
                       DiagnosticEngine& diags, std::vector<MacroCall>* macroCalls) {
    DiagnosticEngine warnings;
    elab::Elaborator el(warnings, mod);
    ir::PrimFunc f;
    try {
        f = el.run(entry, params);
    } catch (const CompileError& e) {
        Diagnostic d = e.diag;
        if (d.origin.empty()) d.origin = "elaborate";
        diags.add(d);
        f = nullptr;
    }
    for (const auto& w : warnings.all()) diags.add(w);
    if (macroCalls) *macroCalls = el.macroCalls();
    return f;
}

FrontendResult runFrontend(SourcePtr src, const std::map<std::string, std::string>& overrides,
                           DiagnosticEngine& diags, std::string_view entryName) {
    FrontendResult r;
    size_t before = diags.all().size();
    auto mod = Module::analyze(std::move(src), diags);
    r.module = mod;
    auto failed = [&] {
        for (size_t i = before; i < diags.all().size(); ++i)
            if (diags.all()[i].severity == Severity::Error) return true;
        return false;
    };
    if (failed()) return r;
    const KernelEntry* entry = mod->selectEntry(entryName, diags);
    if (!entry) return r;
    return runFrontend(mod, *entry, overrides, diags);
}

namespace {
/// Whether the text of `f` has a string literal holding `name` as a word (`T.dynamic("N")`,
/// `T.const("M N")`): a size the factory declares, known by name only once it has run.
bool namesSizeInText(const Module& mod, const ast::FunctionDef& f, const std::string& name) {
    const SourceFile& src = *mod.source();
    for (uint32_t line = f.span.line; line <= f.span.endLine && line != 0; ++line) {
        const std::string_view t = src.lineText(line);
        for (size_t q = t.find_first_of("\"'"); q != std::string_view::npos; q = t.find_first_of("\"'", q + 1)) {
            const size_t end = t.find(t[q], q + 1);
            if (end == std::string_view::npos) break;
            std::string_view lit = t.substr(q + 1, end - q - 1);
            for (size_t w = 0; w <= lit.size();) {
                size_t e = lit.find_first_of(" ,", w);
                if (e == std::string_view::npos) e = lit.size();
                if (lit.substr(w, e - w) == name) return true;
                w = e + 1;
            }
            q = end;
        }
    }
    return false;
}
}  // namespace

FrontendResult runFrontend(std::shared_ptr<const Module> mod, const KernelEntry& entry,
                           const std::map<std::string, std::string>& overrides,
                           DiagnosticEngine& diags) {
    FrontendResult r;
    r.module = mod;
    r.entry = &entry;
    std::vector<std::pair<std::string, std::string>> ov(overrides.begin(), overrides.end());
    // The call's values before the tuner's first config: TileLang's AutoTuner skips tuning and
    // compiles the call's values when the call passes a tunable parameter (tuner.py, "Tunable
    // parameters ... already provided"); before, the first config replaced them without a word.
    takeCallSiteValues(*r.entry, ov, diags);
    if (!r.entry->callSite.problems.empty()) return r;  // reported: the file's call cannot run
    takeAutotuneConfigValues(*mod, *r.entry, ov, diags);
    // Names that are not factory parameters may be scalar kernel arguments (T.dynamic sizes,
    // `n: T.int32`), known only after elaboration: set them aside and check them then.
    std::vector<std::pair<std::string, std::string>> launchOv;
    for (auto it = ov.begin(); it != ov.end();)
        if (!r.entry->param(it->first)) {
            launchOv.push_back(*it);
            it = ov.erase(it);
        } else {
            ++it;
        }
    auto bound = mod->bindParams(*r.entry, ov, diags);
    if (!bound) return r;
    r.params = *bound;
    DiagnosticEngine elabDiags;
    r.func = elaborate(*mod, *r.entry, r.params, elabDiags, &r.macroCalls);
    auto reportUnknown = [&](const std::vector<std::pair<std::string, std::string>>& unknown) {
        auto all = ov;
        all.insert(all.end(), unknown.begin(), unknown.end());
        mod->bindParams(*r.entry, all, diags);  // reports them as unknown parameters
    };
    if (!r.func) {
        // A misspelt parameter explains a failing factory better than its own error does (the
        // factory ran without the value meant for it). A name of the prim_func's own signature
        // (`n: T.int64`, a launch value) is no misspelling: the factory's error is the news.
        std::vector<std::pair<std::string, std::string>> misspelt;
        for (const auto& o : launchOv) {
            bool own = false;
            if (r.entry->primFunc)
                for (const auto& p : r.entry->primFunc->params) own |= p.name == o.first;
            // A T.dynamic / T.symbolic / T.const size named in the factory (`N = T.dynamic("N")`)
            // is a launch value too (helper-127 D6: its --param hid the factory's own error).
            own = own || namesSizeInText(*mod, *r.entry->func, o.first);
            if (!own) misspelt.push_back(o);
        }
        if (!misspelt.empty())
            reportUnknown(misspelt);
        else
            for (const auto& d : elabDiags.all()) diags.add(d);
        return r;
    }
    for (const auto& d : elabDiags.all()) diags.add(d);
    std::vector<std::pair<std::string, std::string>> unknown;
    for (auto& [name, text] : launchOv) {
        bool scalar = false;
        for (const auto& v : r.func->scalars) scalar |= v->name == name;
        if (scalar)
            r.scalarValues[name] = text;
        else
            unknown.emplace_back(name, text);
    }
    if (!unknown.empty()) {
        reportUnknown(unknown);
        r.func = nullptr;
        return r;
    }
    for (auto [site, out] : {std::pair{workSite(*mod, entry, kFlopsNames), &r.flops},
                             std::pair{workSite(*mod, entry, kBytesNames), &r.bytes}}) {
        if (!site) continue;
        DiagnosticEngine scratch;
        *out = mod->evalSite(*site, r.params, scratch);
        for (auto d : scratch.all()) {
            d.severity = Severity::Warning;
            diags.add(d);
        }
    }
    return r;
}

}  // namespace ts::fe

