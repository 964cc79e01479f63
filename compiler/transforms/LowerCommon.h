// Shared state and helpers of the lower-tile-ops pass: LowerTileOps.cpp and LowerParallel.cpp,
// and the tile ops' lowerings under compiler/ops/ (each op's TileOp::lower gets this Ctx).
#pragma once
#include "compiler/ir/NonNegative.h"
#include <map>
#include <string>
#include <vector>

#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform::lower {

/// A fragment after lowering: a per-thread register array plus the layout that maps it.
struct LoweredFragment {
    ir::Buffer regs;     ///< Local buffer of shape (localSize,)
    ir::Layout layout;   ///< the fragment's layout (analysis/Layouts.h)
};

/// The fragments' registers by their buffer. at() names a missing fragment (a compiler bug: the
/// fragment reached a tile op without being allocated in this kernel) instead of std::map's
/// bare "map::at", so an internal error from a fuzz run says which buffer.
struct FragmentMap : std::map<const ir::BufferNode*, LoweredFragment> {
    LoweredFragment& at(const ir::BufferNode* b);
    const LoweredFragment& at(const ir::BufferNode* b) const;
};

struct Ctx {
    PassContext& pass;
    const ir::PrimFuncNode& func;
    /// Linear thread index in [0, threads): the kernel's thread variable, or inside a warp role
    /// (WarpRoles.h) that variable minus the role's first thread.
    ir::Expr tx{};
    int64_t threads = 1;        ///< threads the current op is lowered for (the block's, or its role's)
    FragmentMap frags{};
    int counter = 0;            ///< for unique names of helper buffers/vars
    int64_t roleFirst = 0;      ///< first thread of the current warp role (0 outside roles)
    int64_t blockThreads = 0;   ///< the block's thread count (0: same as threads)
    int loopDepth = 0;          ///< serial/unrolled loops around the statement being lowered
    std::vector<const ir::ForNode*> loops{};  ///< those loops, outermost first
    int condInLoop = 0;         ///< `if`s inside one of those loops around the statement
    /// Statements the pass puts at the start of the kernel body, followed by one block barrier
    /// (mbarrier setup of plain TMA copies, CopyTma.cpp).
    std::vector<ir::Stmt> prelude{};
    /// Statements the pass puts at the end of the kernel body (the elected wait for the TMA
    /// stores' global writes before the kernel exits, CopyTma.cpp); storeExitWait: it is there.
    std::vector<ir::Stmt> epilogue{};
    bool storeExitWait = false;
    /// PrimFunc attrs the lowering adds (tensor maps "tma_maps" / "tma_map.<i>" of plain TMA copies).
    ir::Attrs funcAttrs{};

    std::string fresh(const std::string& base) { return base + "_" + std::to_string(counter++); }
    ir::Layout layoutOf(const std::string& name) const;
    void error(Span s, const std::string& msg, const std::string& hint = {});
};

/// Effective (squeezed) extents of a region: dims of extent 1 dropped; constant extents only.
std::optional<std::vector<int64_t>> squeezedExtents(const ir::Region& r);
/// Full index into r's buffer for a squeezed multi-index (extent-1 dims use their min).
std::vector<ir::Expr> regionIndex(const ir::Region& r, const std::vector<ir::Expr>& squeezedIdx);
/// `idx[d] < shape[d]` for every dim of a global buffer, and `idx[d] >= 0` where the index is not
/// non-negative by its form (ir::nonNegativeByForm: a load or a subtraction in it); null if the
/// buffer is not global (on-chip regions are checked statically by check-bounds).
ir::Expr inBounds(const ir::Buffer& b, const std::vector<ir::Expr>& idx);
/// While alive, inBounds treats `f`'s by-value scalar arguments as possibly negative (their
/// indices get the `>= 0` half of the guard): lower-tile-ops holds one for the function it lowers.
class SignedVarsScope {
public:
    explicit SignedVarsScope(const ir::PrimFuncNode& f);
    ~SignedVarsScope();
    SignedVarsScope(const SignedVarsScope&) = delete;
    SignedVarsScope& operator=(const SignedVarsScope&) = delete;

private:
    ir::SignedVars m_vars;
    const ir::SignedVars* m_prev;
};
/// True if `e` is a multiple of `v` for every value of its variables (conservative).
bool divisibleBy(const ir::Expr& e, int64_t v);
/// tl.address_of(buf[idx]).
ir::Expr addressOf(const ir::Buffer& b, std::vector<ir::Expr> idx);
ir::Stmt intrinsicStmt(const std::string& op, std::vector<ir::Expr> args, Span sp);
/// Splits a linear index into a multi-index over `extents` (row-major).
std::vector<ir::Expr> delinearize(const ir::Expr& lin, const std::vector<int64_t>& extents);

/// The combining expression of reduction `op` ("sum", "max", "min", "absmax", "abssum"; the
/// abs variants expect |x| already taken) and its neutral start value in dtype t (integer
/// max/min start from the dtype's limits, floats from -inf/+inf).
/// `nanPropagate` (T.reduce_max(..., nan_propagate=True)): a NaN operand wins, as TileLang's
/// MaxOpNan/MinOpNan; otherwise max/min return the other operand (fmaxf, __hmax).
ir::Expr reduceCombine(const std::string& op, ir::Expr a, ir::Expr b, bool nanPropagate = false);
ir::Expr reduceIdentity(const std::string& op, ir::DType t);
/// The reduce op's nan_propagate attr (false when absent).
bool reduceNanPropagate(const ir::Attrs& attrs);
/// The op name of the warp shuffle stage of reduction `op` ("max", "min", "sum", with "_nan"
/// for NaN-propagating max/min: ts::MaxNanOp/MinNanOp on the device).
std::string reduceShuffleOp(const std::string& op, bool nanPropagate);

/// tl.address_of(the region's first element): the base a block-level intrinsic addresses a tile by.
ir::Expr regionBase(const ir::Region& r);
/// `for i, j in T.Parallel(e0, e1): NAME[o0 + i, o1 + j]` text of the buffer's rank (up to 4), for
/// hints that suggest writing part of a fragment element by element: {loop header, indexed name}.
std::pair<std::string, std::string> parallelLoopText(const ir::BufferNode& b);
/// Zeroes every register of a gemm accumulator (clear_accum=True).
ir::Stmt clearAccumulator(Ctx& c, const LoweredFragment& f, ir::DType t, Span sp);

/// A global -> shared T.copy on sm_90a as one TMA load with its own mbarrier (CopyTma.cpp), or
/// null when TMA is not legal for it (then a note says why, and lowerCopy keeps plain loads).
ir::Stmt lowerCopyTma(Ctx& c, const ir::TileOpNode& op, const Target& target);
/// Why the global -> shared `op` cannot be one plain TMA load on `target` (empty: it can);
/// `*rowDim` gets tmaCopyRowDim's answer. For diagnostics and tests.
std::string plainTmaWhyNot(const Ctx& c, const ir::TileOpNode& op, const Target& target, int* rowDim = nullptr);
/// A shared -> global T.copy on sm_90a as one TMA store (CopyTma.cpp), or null when TMA is not
/// legal for it (then a note says why, and lowerCopy keeps plain stores).
ir::Stmt lowerCopyTmaStore(Ctx& c, const ir::TileOpNode& op, const Target& target);
/// T.atomic_add(dst, shared tile, use_tma=True) on sm_90a as one TMA reduce-add (CopyTma.cpp), or
/// null (with a note saying why) when it keeps per-element atomics.
ir::Stmt lowerAtomicTmaReduce(Ctx& c, const ir::TileOpNode& op, const Target& target);

/// T.copy (compiler/ops/CopyLowering.cpp); the target picks the copy engine. Also used by other
/// ops' lowerings that stage a tile (gemm's register A operand).
ir::Stmt lowerCopy(Ctx& c, const ir::TileOpNode& op, const Target& target);
/// Moves a fragment region to or from a shared/global region (`fragIsDst` says which side is
/// the fragment): each thread walks its registers through the fragment layout's inverse,
/// guarded for padding, sub-regions and global bounds; replicated values are stored once.
/// `op` gives the span and the diagnostics' subject. CopyLowering.cpp; also used by ops that
/// stage a fragment through shared memory (layout conversions, general reductions).
ir::Stmt copyFragment(Ctx& c, const ir::TileOpNode& op, const ir::Region& src, const ir::Region& dst, bool fragIsDst);
/// Lowers a Parallel nest whose outer loop carries attr layout_key; `body` already had its
/// nested tile ops lowered.
ir::Stmt lowerParallel(Ctx& c, const ir::ForNode& outer);

/// For a replicated fragment layout: whether this thread (c.tx) is the holder that the layout's
/// forward map names for the element in its register `local` (one writer per element when
/// replicated values leave the registers).
ir::Expr isFirstHolder(Ctx& c, const ir::LayoutNode& L, const ir::Expr& local);

/// Element-wise access rewriting used by Parallel lowering and plain statements.
ir::Expr fragmentLoad(Ctx& c, const ir::LoadNode& l, const ir::Expr& localIndex);

}  // namespace ts::xform::lower
