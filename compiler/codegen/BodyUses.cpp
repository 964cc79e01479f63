// See BodyUses.h.
#include "compiler/codegen/BodyUses.h"

#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"

namespace ts::codegen {
using namespace ts::ir;

namespace {

template <class Pred>
bool anyExpr(const Stmt& body, Pred pred) {
    bool found = false;
    walk(body, [](const Stmt&) {}, [&](const Expr& e) { found = found || pred(e); });
    return found;
}

}  // namespace

bool usesRng(const Stmt& body) {
    return anyExpr(body, [](const Expr& e) {
        auto* c = as<CallNode>(e);
        return c && (c->op == intrin::kRngInit || c->op == intrin::kRngRand || c->op == intrin::kRngRandFloat);
    });
}

bool usesFloor64(const Stmt& body) {
    return anyExpr(body, [](const Expr& e) {
        auto* b = as<BinaryNode>(e);
        return b && (b->op == BinOp::FloorDiv || b->op == BinOp::FloorMod) && isInt(b->dtype) && dtypeBits(b->dtype) == 64;
    });
}

}  // namespace ts::codegen
