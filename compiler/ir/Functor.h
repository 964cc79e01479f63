// Rewriting and visiting helpers. ExprMutator/StmtMutator rebuild only what changes: when no
// child changed, the original node pointer is returned (DESIGN.md §2, "unchanged pass returns
// the same pointer"), which is how the pass manager computes each snapshot's changed flag.
#pragma once
#include <unordered_set>
#include <functional>
#include <unordered_map>

#include "compiler/ir/Builder.h"

namespace ts::ir {

class Mutator {
public:
    virtual ~Mutator() = default;
    virtual Expr mutate(const Expr& e);
    virtual Stmt mutate(const Stmt& s);
    Region mutateRegion(const Region& r);

protected:
    virtual Expr visitBinary(const BinaryNode* n, const Expr& self);
    virtual Expr visitUnary(const UnaryNode* n, const Expr& self);
    virtual Expr visitSelect(const SelectNode* n, const Expr& self);
    virtual Expr visitCall(const CallNode* n, const Expr& self);
    virtual Expr visitLoad(const LoadNode* n, const Expr& self);
    virtual Expr visitCast(const CastNode* n, const Expr& self);
    virtual Expr visitVar(const VarNode* n, const Expr& self) { return self; }

    virtual Stmt visitSeq(const SeqNode* n, const Stmt& self);
    virtual Stmt visitFor(const ForNode* n, const Stmt& self);
    virtual Stmt visitIf(const IfNode* n, const Stmt& self);
    virtual Stmt visitStore(const StoreNode* n, const Stmt& self);
    virtual Stmt visitAlloc(const AllocNode* n, const Stmt& self) { return self; }
    virtual Stmt visitKernel(const KernelNode* n, const Stmt& self);
    virtual Stmt visitTileOp(const TileOpNode* n, const Stmt& self);
    virtual Stmt visitEval(const EvalNode* n, const Stmt& self);

    /// Mutates each element; returns true if any changed (then `out` holds the new list).
    bool mutateList(const std::vector<Expr>& in, std::vector<Expr>& out);
};

/// Pre-order walk over every statement and expression (read-only).
void walk(const Stmt& s, const std::function<void(const Stmt&)>& onStmt,
          const std::function<void(const Expr&)>& onExpr = {});
void walkExpr(const Expr& e, const std::function<void(const Expr&)>& onExpr);

/// Replaces variables (by identity) with expressions.
Expr substitute(const Expr& e, const std::unordered_map<const VarNode*, Expr>& map);
Stmt substitute(const Stmt& s, const std::unordered_map<const VarNode*, Expr>& map);

/// `f` without the guards of T.Parallel stores that simplify proved out of bounds (an IfNode with
/// a StoreCheck and the constant condition false, kept for the thread-level interpreter's report):
/// the code the device runs, which codegen prints. Loops and sequences left empty go too, and a
/// kernel body left empty is an empty sequence, as when simplify folded the guard away itself.
/// Returns `f` when it has none.
PrimFunc withoutFoldedStoreChecks(const PrimFunc& f);

/// Rebuilds a PrimFunc with a new body (same everything else); returns `f` if body is unchanged.
PrimFunc withBody(const PrimFunc& f, Stmt body);

/// Where each of f.scalars gets its launch value: the first (tensor parameter index, dimension)
/// whose extent is exactly that variable, or {-1, -1} for a scalar passed by value (a scalar
/// parameter, or a symbolic size no tensor dimension names). One entry per scalar, in order.
std::vector<std::pair<int, int>> scalarSources(const PrimFuncNode& f);
/// The variables of `f` that may be negative (NonNegative.h's SignedVars): the scalars passed by
/// value (scalarSources {-1, -1}) and the variables of loops whose start may be negative.
std::unordered_set<const VarNode*> signedScalars(const PrimFuncNode& f);

/// Finds the (single) Kernel statement in a PrimFunc body; null if none.
const KernelNode* findKernel(const PrimFunc& f);

}  // namespace ts::ir
