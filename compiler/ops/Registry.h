// The one registry of tile ops: ir::TileOpKind -> TileOp, and T.* name -> TileOp. The built-in
// ops (CopyOp.cpp ... AtomicOp.cpp) are listed once in Registry.cpp; registerOp adds another
// at run time (a test's toy op, a plugin) under a fresh kind, which then flows through every
// pass and the interpreter like a built-in one. Lookups are lock-free; register extra ops
// before compiling with them.
#pragma once
#include <memory>
#include <string_view>
#include <vector>

#include "compiler/ops/TileOp.h"

namespace ts::ops {

/// The op of kind `k`, or nullptr when none is registered (malformed IR).
const TileOp* find(ir::TileOpKind k);
/// The op of kind `k`; throws std::logic_error when none is registered (an internal error: the
/// front end only makes registered kinds).
const TileOp& get(ir::TileOpKind k);
/// The op a T.* spelling elaborates into ("reduce_max" -> the reduce op), or nullptr.
const TileOp* findByName(std::string_view tName);
/// The kind of a registered op, by object.
ir::TileOpKind kindOf(const TileOp& op);
/// Every registered kind, built-ins first in enum order.
std::vector<ir::TileOpKind> kinds();

/// Registers `op` under the next free kind (from ir::kFirstExtensionTileOp) and names that kind
/// after op->name(). Throws std::logic_error if a T.* name is taken or the kinds run out.
ir::TileOpKind registerOp(std::unique_ptr<TileOp> op);

}  // namespace ts::ops
