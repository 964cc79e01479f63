#include "compiler/PassManager.h"

#include <chrono>

namespace ts {

ir::PrimFunc PassManager::run(ir::PrimFunc f, PassContext& ctx, bool& ok, const std::string& stopAfter) {
    ok = true;
    unsigned facts = kFactNone;
    for (auto& p : m_passes) {
        for (auto* i : m_instruments) i->before(p, f);
        size_t nDiags = ctx.diags.all().size();
        auto t0 = std::chrono::steady_clock::now();
        ir::PrimFunc out;
        std::vector<Diagnostic> errors;
        try {
            out = p.run(f, ctx);
        } catch (const CompileError& e) {
            Diagnostic d = e.diag;
            if (d.origin.empty()) d.origin = p.name;
            ctx.diags.add(d);
        } catch (const std::exception& e) {
            // An escaped C++ exception is a compiler bug; it still reaches the user as a
            // diagnostic naming the pass, never as a crash.
            ctx.diags.error({}, "internal compiler error in pass '" + p.name + "': " + e.what(),
                            "please report this with the input file", p.name);
        }
        double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        bool changed = out && out != f;
        facts |= p.establishes;
        bool invalid = false;
        if (out && changed && m_verifier && !ctx.diags.hasErrors()) {
            try {
                for (auto& problem : m_verifier(out, facts)) {
                    invalid = true;
                    Span at = out->span;
                    ctx.diags.error(at, "internal compiler error: pass '" + p.name + "' produced invalid IR: " + problem,
                                    "please report this with the input file", p.name);
                }
            } catch (const std::exception& e) {
                invalid = true;
                ctx.diags.error({}, "internal compiler error: verifying the IR after pass '" + p.name + "' failed: " + e.what(),
                                "please report this with the input file", p.name);
            }
        }
        for (size_t i = nDiags; i < ctx.diags.all().size(); ++i)
            if (ctx.diags.all()[i].severity == Severity::Error) errors.push_back(ctx.diags.all()[i]);
        if (!out || !errors.empty()) {
            for (auto* i : m_instruments) i->failed(p, invalid ? out : f, errors, us);
            ok = false;
            return f;
        }
        for (auto* i : m_instruments) i->after(p, out, us, changed);
        f = out;
        if (!stopAfter.empty() && p.name == stopAfter) break;
    }
    return f;
}

}  // namespace ts
