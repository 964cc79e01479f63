// The pass manager: runs registered passes in order over a PrimFunc and calls instruments
// before/after/failed each one. Passes never print; snapshots, timers, printers and the
// verifier are instruments (DESIGN.md §2 "Instruments").
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compiler/target/Target.h"
#include "compiler/ir/Stmt.h"
#include "compiler/support/Diagnostic.h"

namespace ts {

/// What a pass may read besides the function: the target and the diagnostics sink.
struct PassContext {
    DiagnosticEngine& diags;
    Target target;
};

/// A pass: returns the rewritten function (the same pointer when nothing changed). Reports user
/// errors with ctx.diags or by throwing CompileError; any error stops the pipeline.
using PassFn = std::function<ir::PrimFunc(const ir::PrimFunc&, PassContext&)>;

/// What a pass establishes for the passes after it, as the verifier checks it
/// (ir::VerifyFacts): set once by the pass that produces the fact.
enum PassFact : unsigned {
    kFactNone = 0,
    kFactLayoutsInferred = 1u << 0,  ///< every fragment has a layout
    kFactTileOpsLowered = 1u << 1,   ///< no tile op or T.Parallel loop is left
};

struct PassInfo {
    std::string name;     ///< kebab-case, unique: "infer-layouts"
    std::string summary;  ///< one line for the pass viewer
    PassFn run;
    unsigned establishes = kFactNone;  ///< PassFact bits that hold after this pass
};

/// Checks the IR a pass returned, given the facts of the passes so far (PassFact bits); returns
/// problems (empty = valid). A problem fails the pass (see PassManager::run).
using IrVerifier = std::function<std::vector<std::string>(const ir::PrimFunc&, unsigned facts)>;

/// Observer of the pipeline (snapshot recorder, printer, verifier, timer).
class PassInstrument {
public:
    virtual ~PassInstrument() = default;
    virtual void before(const PassInfo&, const ir::PrimFunc&) {}
    /// `micros`: wall time of the pass alone; `changed`: result pointer differs from input.
    virtual void after(const PassInfo&, const ir::PrimFunc& result, double micros, bool changed) {}
    /// The pass reported errors (`shown` is its input), or it returned IR the verifier rejected
    /// (`shown` is that invalid result, so the pass viewer shows what went wrong).
    virtual void failed(const PassInfo&, const ir::PrimFunc& shown, const std::vector<Diagnostic>& errors, double micros) {}
};

class PassManager {
public:
    void add(PassInfo p) { m_passes.push_back(std::move(p)); }
    void addInstrument(PassInstrument* i) { m_instruments.push_back(i); }
    /// Verifies each changed result; a problem is an internal-error diagnostic naming the pass,
    /// the pass is reported failed and the pipeline stops (invalid IR never reaches the next pass).
    void setVerifier(IrVerifier v) { m_verifier = std::move(v); }
    const std::vector<PassInfo>& passes() const { return m_passes; }
    /// Runs passes in order until one fails or `stopAfter` (a pass name) has run.
    /// Returns the last successful result; `ok` is false if a pass failed.
    ir::PrimFunc run(ir::PrimFunc f, PassContext& ctx, bool& ok, const std::string& stopAfter = {});

private:
    std::vector<PassInfo> m_passes;
    std::vector<PassInstrument*> m_instruments;
    IrVerifier m_verifier;
};

}  // namespace ts
