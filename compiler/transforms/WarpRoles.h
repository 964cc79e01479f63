// Warp roles: the `if` statements of a kernel whose condition selects a contiguous, warp-aligned
// range of the block's threads from the thread index alone -- `with T.ws(1):` (elaborated to
// `tx // 128 == 1`, ElaborateBarriers.cpp), `if tx < 128:`, `if 128 <= tx < 256:` and
// conjunctions of those. Tile ops and T.Parallel nests inside a role are lowered for the role's
// threads only (thread count = the range's size, thread index rebased to its first thread), as
// TileLang lowers them with the thread bounds of their scope. Shared by check-bounds (which
// refuses tile work under other thread conditions), infer-layouts (fragment layouts over the
// role's threads) and lower-tile-ops. Internal to compiler/transforms.
#pragma once
#include <optional>
#include <unordered_map>

#include "compiler/ir/IR.h"

namespace ts::xform {

/// Threads [first, first + count) of a 1-D block.
struct WarpRole {
    int64_t first = 0, count = 0;
    bool operator==(const WarpRole&) const = default;
};

/// The role `cond` selects within `outer` (the enclosing role, or the whole block): the threads
/// of `outer` for which it holds, when they form a non-empty contiguous range of whole warps
/// (first and count multiples of 32) and `cond` reads nothing but the thread index and
/// constants; nullopt otherwise (including when `cond` does not read the thread index).
std::optional<WarpRole> warpRoleOf(const ir::Expr& cond, const WarpRole& outer);

/// The role of the else branch of an `if` whose then branch is role `r` within `outer`: the
/// rest of `outer`, when that rest is one non-empty range (`r` at either end); nullopt otherwise.
std::optional<WarpRole> elseRoleOf(const WarpRole& r, const WarpRole& outer);

/// The role every tile op and outermost T.Parallel loop of `body` runs in, keyed by statement;
/// statements outside any role run in `block` (the kernel's 1-D thread range) and are absent.
/// Statements under an `if` on the thread index that is not a role are absent too (check-bounds
/// reports them).
std::unordered_map<const ir::StmtNode*, WarpRole> warpRolesOf(const ir::Stmt& body, const WarpRole& block);

}  // namespace ts::xform
