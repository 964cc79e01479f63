// interpretAfterEveryPass: the pass manager with an instrument that interprets each result.
#include "compiler/debugger/Validate.h"

#include <chrono>

#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"

namespace ts::dbg {
namespace {

class InterpretEachPass : public PassInstrument {
public:
    InterpretEachPass(const std::vector<HostTensor>& args, const ValidateOptions& o,
                      std::vector<PassRun>& out, const std::vector<PassInfo>& passes,
                      const Target& target)
        : m_args(args), m_opts(o), m_out(out), m_target(target) {
        for (auto& p : passes) {
            if (p.name == o.flattenWith) m_flatten = p.run;
            if (p.name == o.syncWith) m_sync = p.run;
        }
    }

    void interpret(const std::string& pass, const ir::PrimFunc& f, bool changed) {
        PassRun r;
        r.pass = pass;
        r.changed = changed;
        if (pass == m_opts.threadLevelFrom) m_threadLevel = true;
        r.threadLevel = m_threadLevel;
        if (!changed && !m_out.empty()) {  // same IR: same result, no need to run it again
            r.outputs = m_out.back().outputs;
            r.error = m_out.back().error;
            r.errorSpan = m_out.back().errorSpan;
            m_out.push_back(std::move(r));
            return;
        }
        if (pass == m_opts.flattenWith) m_flattened = true;
        if (pass == m_opts.syncWith) m_synced = true;
        r.outputs = m_args;
        ir::PrimFunc run = f;
        if (m_threadLevel && !m_synced && m_sync) {
            DiagnosticEngine diags;
            PassContext ctx{diags, m_target};
            try {
                run = m_sync(run, ctx);
            } catch (const CompileError& e) {
                diags.add(e.diag);
            }
            if (!run || diags.hasErrors()) {
                r.error = "cannot place its barriers for the thread interpreter (" + m_opts.syncWith +
                          "): " + (diags.all().empty() ? std::string("failed") : diags.all()[0].message);
                m_out.push_back(std::move(r));
                return;
            }
        }
        if (m_threadLevel && !m_flattened && m_flatten) {
            DiagnosticEngine diags;
            PassContext ctx{diags, m_target};
            try {
                run = m_flatten(run, ctx);
            } catch (const CompileError& e) {
                diags.add(e.diag);
            }
            if (!run || diags.hasErrors()) {
                r.error = "cannot flatten its indices for the thread interpreter (" +
                          m_opts.flattenWith + "): " +
                          (diags.all().empty() ? std::string("failed") : diags.all()[0].message);
                m_out.push_back(std::move(r));
                return;
            }
        }
        interp::InterpOptions io;
        io.scalars = m_opts.scalars;
        io.maxBlocks = m_opts.maxBlocks;
        auto t0 = std::chrono::steady_clock::now();
        auto res = r.threadLevel ? interp::runLowered(run, r.outputs, io) : interp::run(run, r.outputs, io);
        r.micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        if (!res.ok) {
            r.error = res.error ? res.error->message : "the interpreter failed";
            if (res.error) r.errorSpan = res.error->span;
        }
        m_out.push_back(std::move(r));
    }
    void after(const PassInfo& p, const ir::PrimFunc& result, double, bool changed) override {
        interpret(p.name, result, changed);
    }
    void failed(const PassInfo& p, const ir::PrimFunc&, const std::vector<Diagnostic>& errors,
                double) override {
        PassRun r;
        r.pass = p.name;
        r.threadLevel = m_threadLevel;
        r.error = "the pass failed" + (errors.empty() ? std::string() : ": " + errors[0].message);
        if (!errors.empty()) r.errorSpan = errors[0].span;
        m_out.push_back(std::move(r));
    }

private:
    const std::vector<HostTensor>& m_args;
    const ValidateOptions& m_opts;
    std::vector<PassRun>& m_out;
    Target m_target;
    PassFn m_flatten, m_sync;
    bool m_threadLevel = false, m_flattened = false, m_synced = false;
};

}  // namespace

std::vector<PassRun> interpretAfterEveryPass(const ir::PrimFunc& elaborated,
                                             const std::vector<PassInfo>& passes,
                                             const Target& target,
                                             const std::vector<HostTensor>& args,
                                             const ValidateOptions& opts) {
    std::vector<PassRun> out;
    InterpretEachPass inst(args, opts, out, passes, target);
    inst.interpret("elaborated", elaborated, true);
    PassManager pm;
    for (auto& p : passes) pm.add(p);
    pm.addInstrument(&inst);
    DiagnosticEngine diags;
    PassContext ctx{diags, target};
    bool ok = false;
    try {
        pm.run(elaborated, ctx, ok);
    } catch (...) {  // the pass manager turns pass errors into diagnostics; this is a guard
        PassRun r;
        r.pass = "?";
        r.error = "internal error while running the passes";
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace ts::dbg
