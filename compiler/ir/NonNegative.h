// Non-negativity of an integer index expression by its form alone: no value ranges, no solver.
// Codegen uses it to print C's / and % where floor division is the same; lowering uses it to
// leave out the `index >= 0` half of a global bounds guard where it cannot fail.
#pragma once
#include <unordered_set>

#include "compiler/ir/Builder.h"

namespace ts::ir {

/// Variables that may hold negative values: scalar kernel arguments passed by value
/// (`off: T.int32`) and the variables of loops whose start may be negative (`T.serial(-1, 3)`,
/// `T.serial(lo, n)`): signedScalars() in Functor.h. Block and thread indices, loop variables of
/// loops starting at a non-negative value and sizes taken from tensor shapes are not in it.
using SignedVars = std::unordered_set<const VarNode*>;

/// True when `e` >= 0 for every value of its variables, taking every variable not in `signedVars`
/// as >= 0 (block and thread indices, loops starting at a non-negative value): non-negative integer constants and +, *,
/// floordiv, floormod, min and bit operations of such, and max with one such side. False for anything else — a load (a
/// value from memory, e.g. cu_seqlens[b]), a subtraction, a negative constant, a select, a
/// scalar argument (`off = -3` made a T.copy guard without its `>= 0` half read before the row
/// on the GPU while the interpreters zero-filled or stopped: fresh-user helper, 2026-12-03).
inline bool nonNegativeByForm(const Expr& e, const SignedVars* signedVars = nullptr) {
    if (auto c = constInt(e)) return *c >= 0;
    if (auto* v = as<VarNode>(e)) return !signedVars || !signedVars->count(v);
    if (auto* b = as<BinaryNode>(e)) {
        switch (b->op) {
            // max(x, c) >= 0 as soon as one side is (`T.max(off, 0)`: fresh-user trial, 2026-12-04).
            case BinOp::Max:
                return nonNegativeByForm(b->a, signedVars) || nonNegativeByForm(b->b, signedVars);
            case BinOp::Add: case BinOp::Mul: case BinOp::FloorDiv: case BinOp::FloorMod:
            case BinOp::Min: case BinOp::BitAnd: case BinOp::BitOr:
            case BinOp::BitXor: case BinOp::Shl: case BinOp::Shr:
                return nonNegativeByForm(b->a, signedVars) && nonNegativeByForm(b->b, signedVars);
            default: return false;
        }
    }
    return false;
}

}  // namespace ts::ir
