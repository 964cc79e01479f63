// Tile operators as objects (DESIGN.md §2a). Each tile op (T.copy, T.gemm, T.fill/clear,
// T.reduce_*, T.cumsum, T.atomic_*) is one TileOp subclass in its own file under compiler/ops/,
// registered once (Registry.h), and answers every question the pipeline asks about it: its
// T.* names, which arguments it reads and writes (plan-pipelines, output detection, the
// debugger), its op-specific checks (check-bounds), its layout requirements (infer-layouts), its
// lowering for a Target (lower-tile-ops) and its tile-level meaning (the CPU interpreter). Passes look the op of a
// TileOpNode up (ops::get(node.op)) and call these instead of switching on ir::TileOpKind, so
// a new op or a new gemm variant is one op file plus its tests.
//
// The op objects are stateless and shared by every compile (they may run on several threads).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/Layout.h"
#include "compiler/ir/Stmt.h"
#include "compiler/target/Target.h"

namespace ts {
class DiagnosticEngine;
}
namespace ts::xform::lower {
struct Ctx;
}
namespace ts::interp::detail {
class Machine;
}

namespace ts::ops {

/// How a tile op touches one of its arguments: a bit set.
enum AccessBits : uint8_t {
    kNoAccess = 0,
    kRead = 1,    ///< the op reads the region (gemm C without clear_accum reads and writes)
    kWrite = 2,   ///< the op writes the region
    kAtomic = 4,  ///< the writes are atomic read-modify-writes (T.atomic_*: order-independent)
};

/// What the front end and the IDE know an op by (the rows of frontend/LanguageRegistry.h).
struct Signature {
    std::vector<std::string_view> names;       ///< T.* spellings elaborated into this op
    std::vector<std::string_view> valueNames;  ///< other T.* names that are argument values (T.GemmWarpPolicy)
    std::string_view arguments;                ///< the IR arguments, for the reader: "src Region, dst Region"
};

/// One region argument the op touches in shared memory (tile level): what the bank analysis and
/// the debugger's shared-memory view attribute to the op.
struct SharedAccess {
    size_t arg = 0;                  ///< argument index in TileOpNode::args
    const ir::Region* region = nullptr;
    uint8_t access = kNoAccess;      ///< AccessBits
};

/// What check() may use: the diagnostics sink (errors name the pass "check-bounds").
struct CheckContext {
    DiagnosticEngine& diags;
};

/// The rounds of infer-layouts in which ops state layout requirements, strongest first (a
/// requirement stated earlier wins; a different later one for the same buffer is a conflict).
enum class LayoutRound : uint8_t {
    Hardware,  ///< layouts an instruction fixes (gemm accumulators, operand tiles), in program order
    Derived,   ///< layouts derived from Hardware ones (a reduction's row companion), after all of them
};

/// What infer-layouts offers the ops (implemented in transforms/InferLayouts.cpp). Layouts are
/// ir::LayoutNode values built by compiler/analysis/ (Layouts.h, HwLayouts.h).
class LayoutSolver {
public:
    virtual ~LayoutSolver() = default;
    virtual const Target& target() const = 0;
    /// The function being solved, for an op whose choice depends on more than its node (the
    /// sm_90a gemm checks the copies feeding its operands and the loop around it: Hopper.h).
    virtual const ir::PrimFuncNode& func() const = 0;
    /// Threads per block of the kernel.
    virtual int64_t threads() const = 0;
    /// The layout required of `b` so far (and in `by`, by whom: "T.gemm at line 12"), or null.
    virtual ir::Layout placed(const ir::Buffer& b, std::string* by = nullptr) const = 0;
    /// Requires layout `l` for `b`. A different earlier requirement (compared element by
    /// element) is a diagnostic at `at` naming both requirers.
    virtual void require(const ir::Buffer& b, ir::Layout l, const std::string& by, Span at) = 0;
    /// Element bytes that set the vector width of a default block fragment for `b`: the
    /// narrowest dtype among same-shaped fragments sharing a T.Parallel nest with it (RMSNorm's
    /// fp32 squares follow its bf16 row, whose global accesses then get 16 bytes). Default: b's own.
    virtual int vectorEltBytes(const ir::Buffer& b) const { return ir::dtypeBytes(b->dtype); }
    /// Adds attributes to the node in the pass's output (gemm's warp grid for its lowering).
    virtual void annotate(const ir::TileOpNode& n, ir::Attrs attrs) = 0;
    /// A layout error at `at` (reported by the pass "infer-layouts").
    virtual void error(Span at, const std::string& msg, const std::string& hint) = 0;
    /// A note at `at` (reported by "infer-layouts"): a choice the user may not expect, such as
    /// a gemm kept off the target's preferred path, with why. Default: dropped.
    virtual void note(Span /*at*/, const std::string& /*msg*/, const std::string& /*hint*/) {}
    /// Whether the sm_90a gemm `gemm` may lay its accumulator (and register A operand) out in
    /// warpgroup order (the wgmma fragment path beyond 16 rows per warp:
    /// analysis::WarpPartition::byWarpgroup). infer-layouts solves again without it for the
    /// fragments whose order had a layout conflict, keeping it for the others.
    virtual bool wgmmaWarpgroupOrder(const ir::TileOpNode& /*gemm*/) const { return true; }
    /// Why `gemm` may not take the warpgroup order (the op that needed another layout of its
    /// fragment in the solve that tried it), or "" when unknown or allowed.
    virtual std::string wgmmaOrderConflict(const ir::TileOpNode& /*gemm*/) const { return {}; }
    /// "line 12", or "an earlier op" for a node without a location: how requirers are named.
    static std::string lineOf(Span s) { return s.valid() ? "line " + std::to_string(s.line) : "an earlier op"; }
};

class TileOp {
public:
    virtual ~TileOp() = default;

    /// The IR name, printed after "T." when no spelling applies: "copy", "gemm", ...
    virtual std::string_view name() const = 0;
    virtual Signature signature() const = 0;
    /// The T.* name of this node as the user wrote it ("reduce_max", "clear", "atomic_add"),
    /// for diagnostics. Default: name().
    virtual std::string spelling(const ir::TileOpNode& n) const;

    /// AccessBits of argument `arg` (0 for expression arguments and indices past the end).
    virtual uint8_t access(const ir::TileOpNode& n, size_t arg) const = 0;
    /// True for a global -> shared copy that plan-pipelines may issue iterations early as an
    /// asynchronous producer (cp.async now, TMA later: the Target picks the engine).
    virtual bool asyncProducer(const ir::TileOpNode&) const { return false; }
    /// True when the node works on one element and is lowered where it stands inside a
    /// T.Parallel nest (T.atomic_add(Y[i], x[i])); other tile ops there are an error.
    virtual bool elementwise(const ir::TileOpNode&) const { return false; }

    /// Op-specific static checks after elaboration (check-bounds already reported regions that
    /// leave on-chip buffers). Default: none.
    virtual void check(CheckContext&, const ir::TileOpNode&) const {}
    /// Layout requirements of this node in round `round` (infer-layouts). Default: none; every
    /// buffer no op or T.Parallel nest places gets the default layout of its scope.
    virtual void layoutConstraints(LayoutRound, LayoutSolver&, const ir::TileOpNode&) const {}
    /// Gives an unplaced buffer the layout of a placed one when nothing stronger decided it
    /// (a fragment -> fragment copy); true if it placed something. Default: nothing.
    virtual bool propagateLayouts(LayoutSolver&, const ir::TileOpNode&) const { return false; }
    /// Thread-level IR for `target` (lower-tile-ops): nullptr after reporting an error through
    /// the context. Arguments already have their fragment reads rewritten to registers.
    virtual ir::Stmt lower(xform::lower::Ctx& c, const ir::TileOpNode& n, const Target& target) const = 0;
    /// Tile-level semantics on the CPU interpreter (whole regions at once); errors through
    /// Machine::fail.
    virtual void interpret(interp::detail::Machine& m, const ir::TileOpNode& n) const = 0;

    /// Region arguments in shared memory with their access (from access()).
    std::vector<SharedAccess> sharedAccesses(const ir::TileOpNode& n) const;
};

}  // namespace ts::ops
