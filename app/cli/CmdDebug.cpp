// `tilec debug`: the step debugger (compiler/debugger/Debugger.h) driven by flags, so that a
// debugging session is a command line and its printout a test: compile, seed inputs as
// `tilec run` does, run the focused block to a breakpoint, step, print values of a thread.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <set>
#include <sstream>

#include "app/cli/CommaLists.h"
#include "app/cli/Commands.h"
#include "app/cli/RunSupport.h"
#include "compiler/LaunchArgs.h"
#include "compiler/debugger/Debugger.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Printer.h"

namespace ts::cli {
namespace {

std::optional<dbg::Command> commandNamed(const std::string& s) {
    if (s == "tile-op" || s == "line") return dbg::Command::StepTileOp;
    if (s == "into") return dbg::Command::StepInto;
    if (s == "over") return dbg::Command::StepOver;
    if (s == "out") return dbg::Command::StepOut;
    if (s == "barrier") return dbg::Command::ToBarrier;
    if (s == "iteration") return dbg::Command::ToIteration;
    if (s == "continue") return dbg::Command::Continue;
    return std::nullopt;
}

const char* reasonText(dbg::Stop::Reason r) {
    switch (r) {
        case dbg::Stop::Reason::Step: return "step";
        case dbg::Stop::Reason::Breakpoint: return "breakpoint";
        case dbg::Stop::Reason::Barrier: return "barrier";
        case dbg::Stop::Reason::Iteration: return "next iteration";
        case dbg::Stop::Reason::Paused: return "paused";
        case dbg::Stop::Reason::Finished: return "finished";
        case dbg::Stop::Reason::Error: return "stopped by a checker";
    }
    return "";
}

std::string blockText(const std::vector<int64_t>& b) {
    std::string s = "(";
    for (size_t i = 0; i < b.size(); ++i) s += (i ? ", " : "") + std::to_string(b[i]);
    return s + ")";
}

/// First line of the statement as the IR printer writes it.
std::string stmtText(const ir::StmtNode* s) {
    if (!s) return {};
    // toString takes a Stmt (shared_ptr); the node outlives this non-owning alias.
    std::string t = ir::toString(ir::Stmt(std::shared_ptr<const ir::StmtNode>{}, s));
    auto nl = t.find('\n');
    if (nl != std::string::npos) t = t.substr(0, nl);
    t.erase(0, t.find_first_not_of(' '));
    return t.size() > 140 ? t.substr(0, 137) + "..." : t;
}

std::string lineText(const Span& s) { return s.valid() ? std::to_string(s.line) : "-"; }

/// "mbarrier tma_bar[0]: phase 0 (parity 0), arrivals 1/1, tx bytes 4096/8192, ...": arrivals
/// so far / per phase, transaction bytes delivered / announced in the current phase.
std::string mbarrierText(const interp::MbarrierInfo& m) {
    return "mbarrier " + m.buffer + "[" + std::to_string(m.index) + "]: phase " + std::to_string(m.phase) +
           " (parity " + std::to_string(m.phase % 2) + "), arrivals " + std::to_string(m.arrived) + "/" +
           std::to_string(m.expected) + ", tx bytes " + std::to_string(m.txDelivered) + "/" +
           std::to_string(m.txExpected) + ", " + std::to_string(m.pending) + " elements pending; init line " +
           lineText(m.init) + ", arrive line " + lineText(m.arrive) +
           ", TMA load line " + lineText(m.load) + ", wait line " + lineText(m.wait);
}

void printStop(const dbg::Debugger& d, const CompileResult& r, const std::string& label) {
    const dbg::Stop& s = d.stop();
    std::cout << label << ": ";
    if (s.reason == dbg::Stop::Reason::Finished) {
        std::cout << "finished (block " << blockText(s.block) << ", " << s.event << " events)\n";
        return;
    }
    std::cout << r.source->path() << ":" << s.span.line << " (" << reasonText(s.reason)
              << ") block " << blockText(s.block);
    if (s.reason == dbg::Stop::Reason::Error) {
        std::cout << "\n  " << s.error << "\n";
        if (s.finding) {
            const auto& f = *s.finding;
            std::cout << "  " << f.kind;
            if (!f.buffer.empty()) std::cout << " on " << f.buffer << "[" << f.index << "]";
            std::cout << ": line " << f.at.line;
            if (f.other.valid()) std::cout << " and line " << f.other.line;
            std::cout << "\n";
            for (auto& b : f.barriers)
                std::cout << "  barrier " << b.id << " at line " << b.at.line << ": expects "
                          << b.expected << " arrivals, " << b.arrived << " arrived\n";
            for (auto& m : f.mbarriers) std::cout << "  " << mbarrierText(m) << "\n";
        }
        return;
    }
    std::cout << ", " << s.active.size() << " active threads, event " << s.event << "\n";
    std::string line(r.source->lineText(s.span.line));
    line.erase(0, line.find_first_not_of(' '));
    std::cout << "  source | " << line << "\n  ir     | " << stmtText(s.stmt) << "\n";
    for (auto& l : d.loops())
        std::cout << "  loop " << l.loop->var->name << " = " << l.value
                  << (l.pipelined ? " (pipelined)" : "") << "\n";
}

}  // namespace

int runDebug(const DebugCommand& c) {
    auto rOpt = compileFile(c.flags, CompileOptions{});
    if (!rOpt) return 1;
    CompileResult& r = *rOpt;
    if (printDiagnostics(r) || !r.ok) return 1;
    if (!oneLaunchOrReport(r, "debug")) return 1;
    auto kind = commandNamed(c.stepKind);
    if (!kind) {
        std::cerr << "tilec: error: unknown --step-kind '" << c.stepKind
                  << "' (tile-op, into, over, out, barrier, iteration, continue)\n";
        return 2;
    }
    const int64_t threads = int64_t(r.kernel.block[0]) * r.kernel.block[1] * r.kernel.block[2];
    if ((!c.prints.empty() || !c.holds.empty()) && (c.thread < 0 || c.thread >= threads)) {
        // A usage error, reported before the block runs (it used to print after the run, exit 0).
        std::cerr << "tilec: error: --thread " << c.thread << " is not in the block (0.."
                  << threads - 1 << ")\n";
        return 2;
    }
    dbg::DebugOptions opts;
    if (!c.block.empty()) {
        opts.block.clear();
        if (hasEmptyCommaItem(c.block)) {  // "0," was read as (0, 0)
            std::cerr << "tilec: error: --block " << c.block << ": an empty item in the comma-separated list (a stray comma?)\n";
            return 2;
        }
        std::stringstream ss(c.block);
        std::string part;
        while (std::getline(ss, part, ',')) {
            size_t used = 0;
            try {
                opts.block.push_back(std::stoll(part, &used));
            } catch (...) {
                used = 0;
            }
            if (used == 0 || used != part.size() || opts.block.back() < 0) {
                std::cerr << "tilec: error: --block takes up to three non-negative indices like 0,0 (got '" << c.block << "')\n";
                return 2;
            }
        }
        if (opts.block.empty() || opts.block.size() > 3) {
            std::cerr << "tilec: error: --block takes one to three indices bx[,by[,bz]] (got '" << c.block << "')\n";
            return 2;
        }
    }
    std::string error;
    if (!r.kernel.scalars.empty()) {
        auto lv = resolveLaunch(r.kernel, r.lowered, error);
        if (!lv) {
            std::cerr << "tilec: error: " << error << "\n";
            return 1;
        }
        for (size_t i = 0; i < r.kernel.args.size(); ++i) r.kernel.args[i].shape = lv->shapes[i];
        opts.scalars = lv->scalars;
    }
    rt::InputOptions io;
    io.seed = c.seed;
    rt::InputSet set;
    if (!makeInputsOrReport(signatureOf(r), io, set, c.flags.inputRules)) return 1;
    for (size_t i = 0; i < set.tensors.size(); ++i)
        if (!set.tensors[i].hasData())
            set.tensors[i].data.assign(static_cast<size_t>(set.tensors[i].numel()), std::nan(""));
    std::cout << "inputs: seed " << set.seed << "\n";

    if (!c.breakLines.empty()) {
        // A breakpoint on a line without a statement (blank, comment, a decorator) would never
        // stop: say so and name the nearest lines that can stop, instead of running to the end.
        std::set<uint32_t> lines;
        if (r.lowered)
            ir::walk(r.lowered->body, [&](const ir::Stmt& st) {
                if (st && st->span.valid()) lines.insert(st->span.line);
            });
        for (int line : c.breakLines) {
            if (lines.count(uint32_t(line))) continue;
            auto after = lines.lower_bound(uint32_t(std::max(line, 0)));
            std::cerr << r.source->path() << ":" << line
                      << ": error: --break: no statement of the kernel is on this line";
            if (after != lines.begin()) std::cerr << "; previous line with code: " << *std::prev(after);
            if (after != lines.end()) std::cerr << "; next line with code: " << *after;
            std::cerr << "\n";
            return 2;
        }
    }
    // A tile-op breakpoint on an op the kernel does not have would never stop: say so up front.
    if (!c.breakOps.empty()) {
        std::set<std::string> ops;
        ir::walk(r.elaborated->body, [&](const ir::Stmt& s) {
            if (auto* t = ir::as<ir::TileOpNode>(s)) ops.insert(ir::tileOpName(t->op));
        }, [](const ir::Expr&) {});
        for (auto& op : c.breakOps)
            if (!ops.count(op)) {
                std::string have;
                for (auto& o : ops) have += (have.empty() ? "" : ", ") + o;
                std::cerr << "tilec: error: --break-op " << op << ": the kernel has no T." << op
                          << (have.empty() ? std::string(" (it has no tile ops)") : "; its tile ops are: " + have) << "\n";
                return 2;
            }
    }
    dbg::Debugger d(r.lowered, r.elaborated, std::move(set.tensors), opts);
    for (int line : c.breakLines) d.addBreakpoint(dbg::Breakpoint::atLine(uint32_t(line)));
    for (auto& op : c.breakOps) {
        dbg::Breakpoint b;
        b.kind = dbg::Breakpoint::Kind::TileOp;
        b.op = op;
        d.addBreakpoint(b);
    }
    if (c.breakBarrier) d.addBreakpoint(dbg::Breakpoint::atBarriers());
    using Clock = std::chrono::steady_clock;
    d.start();
    if (d.stop().reason == dbg::Stop::Reason::Finished && d.stop().event == 0) {
        std::cerr << "tilec: error: block " << blockText(opts.block)
                  << " is not in the kernel's grid (" << r.kernel.grid[0] << ", "
                  << r.kernel.grid[1] << ", " << r.kernel.grid[2] << "): give --block bx,by inside it\n";
        return 2;
    }
    if (!c.breakLines.empty() || !c.breakOps.empty() || c.breakBarrier) {
        if (d.stop().reason != dbg::Stop::Reason::Breakpoint) d.run(dbg::Command::Continue);
    }
    printStop(d, r, "stopped");
    double worst = 0, total = 0;
    for (int i = 0; i < c.steps && !d.stop().finished(); ++i) {
        auto t0 = Clock::now();
        d.run(*kind);
        double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        worst = std::max(worst, ms), total += ms;
        printStop(d, r, "step " + std::to_string(i + 1) + " (" + c.stepKind + ")");
    }
    for (int i = 0; i < c.back; ++i) {
        if (!d.stepBack()) {  // said, not silent: the stops printed are all there were
            std::printf("back %d: no earlier stop (--back %d went back %d); this is the first stop\n", i + 1, c.back, i);
            break;
        }
        printStop(d, r, "back " + std::to_string(i + 1));
    }
    if (c.steps > 0)
        std::printf("step time: %.3f ms mean, %.3f ms max\n", total / c.steps, worst);
    bool printFailed = false;  // a --print that cannot be answered fails the command (exit 2)
    for (auto& e : c.prints) {
        std::string why;
        auto v = d.watch(e, c.thread, why);
        if (v) {
            std::printf("thread %d: %s = %.17g%s\n", c.thread, e.c_str(), *v, why.empty() ? "" : ("  (" + why + ")").c_str());
        } else {
            std::fflush(stdout);
            std::cerr << "tilec: error: --print " << e << " (thread " << c.thread << "): " << why << "\n";
            printFailed = true;
        }
    }
    if (c.printBarriers) {
        auto named = d.barriers();
        auto mbars = d.mbarriers();
        if (named.empty() && mbars.empty()) std::cout << "no barrier used yet\n";
        for (auto& b : named)
            std::cout << "barrier " << b.id << ": phase " << b.phase << ", arrivals " << b.arrived << "/"
                      << b.expected << ", line " << lineText(b.at) << "\n";
        for (auto& m : mbars) std::cout << mbarrierText(m) << "\n";
    }
    for (auto& b : c.holds) {
        std::string h = d.holds(b, c.thread);
        if (h.empty()) {  // an unknown name is a usage error, as --print's is (exit 2)
            std::fflush(stdout);
            std::cerr << "tilec: error: --holds " << b << ": not a fragment with a layout in this kernel\n";
            printFailed = true;
            continue;
        }
        std::cout << h << "\n";
    }
    if (d.stop().reason == dbg::Stop::Reason::Error) return 3;
    return printFailed ? 2 : 0;
}

}  // namespace ts::cli
