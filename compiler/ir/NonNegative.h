// Non-negativity of an integer index expression by its form alone: no value ranges, no solver.
// Codegen uses it to print C's / and % where floor division is the same; lowering uses it to
// leave out the `index >= 0` half of a global bounds guard where it cannot fail.
#pragma once
#include "compiler/ir/Builder.h"

namespace ts::ir {

/// True when `e` >= 0 for every value of its variables, taking every variable as >= 0 (loop,
/// block and thread indices start at 0): non-negative integer constants and +, *, floordiv,
/// floormod, min, max and bit operations of such. False for anything else — a load (a value
/// from memory, e.g. cu_seqlens[b]), a subtraction, a negative constant, a select.
inline bool nonNegativeByForm(const Expr& e) {
    if (auto c = constInt(e)) return *c >= 0;
    if (as<VarNode>(e)) return true;
    if (auto* b = as<BinaryNode>(e)) {
        switch (b->op) {
            case BinOp::Add: case BinOp::Mul: case BinOp::FloorDiv: case BinOp::FloorMod:
            case BinOp::Min: case BinOp::Max: case BinOp::BitAnd: case BinOp::BitOr:
            case BinOp::BitXor: case BinOp::Shl: case BinOp::Shr:
                return nonNegativeByForm(b->a) && nonNegativeByForm(b->b);
            default: return false;
        }
    }
    return false;
}

}  // namespace ts::ir
