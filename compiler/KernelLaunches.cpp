// Splitting a kernel function into one launch per T.Kernel block (KernelLaunches.h).
#include "compiler/KernelLaunches.h"

#include <algorithm>
#include <set>

#include "compiler/frontend/Elaborate.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Views.h"
#include "compiler/support/Diagnostic.h"

namespace ts {

int kernelBlockCount(const ir::PrimFunc& f) {
    int n = 0;
    if (f && f->body)
        ir::walk(f->body, [&](const ir::Stmt& s) { n += ir::as<ir::KernelNode>(s) != nullptr; });
    return n;
}

namespace {
/// The top-level statements of a body, nested sequences flattened.
void flatten(const ir::Stmt& s, std::vector<ir::Stmt>& out) {
    if (!s) return;
    if (auto* seq = ir::as<ir::SeqNode>(s)) {
        for (const auto& x : seq->stmts) flatten(x, out);
        return;
    }
    out.push_back(s);
}
/// Each T.Kernel block is its own launch with its own shared memory and registers: an on-chip
/// buffer allocated in one block and used in another (Python keeps the name bound after the
/// `with`) has no storage there. Reported at the first such use (a fuzzed corpus file reached
/// lower-tile-ops with it: "fragment 'acc_s' has no registers here", an internal error).
void checkOwnOnChipBuffers(const ir::Stmt& block, const ir::Attrs& attrs) {
    std::set<const ir::BufferNode*> own;
    std::set<std::string> ownNames;
    ir::walk(block, [&](const ir::Stmt& x) {
        if (auto* a = ir::as<ir::AllocNode>(x)) own.insert(a->buffer.get()), ownNames.insert(a->buffer->name);
    });
    // A T.view / T.reshape of a shared tile of another block: the view is allocated here, on
    // bytes this launch does not have (it compiled to a fresh, never-written buffer).
    ir::walk(block, [&](const ir::Stmt& x) {
        auto* a = ir::as<ir::AllocNode>(x);
        if (!a || a->buffer->scope != ir::Scope::Shared) return;
        const std::string base = ir::sharedViewBase(attrs, a->buffer->name);
        if (base.empty() || ownNames.count(base)) return;
        throw CompileError(a->span,
                           "'" + a->buffer->name + "' views shared tile '" + base +
                               "' of another T.Kernel block: each block is a launch of its own, with its own shared memory",
                           "make the view in the T.Kernel block that allocates '" + base +
                               "', or hand the data between the blocks through a kernel tensor (T.Tensor)");
    });
    auto check = [&](const ir::Buffer& b, const Span& at) {
        if (!b || b->scope == ir::Scope::Global || own.count(b.get())) return;
        throw CompileError(at.valid() ? at : block->span,
                           std::string(ir::scopeName(b->scope)) + " buffer '" + b->name + "' (allocated at line " +
                               std::to_string(b->span.line) + ") is used in another T.Kernel block: each block is a launch of its own, "
                               "with its own " + (b->scope == ir::Scope::Shared ? "shared memory" : "registers"),
                           "allocate it inside this T.Kernel block as well, or hand the data between the blocks through a "
                           "kernel tensor (T.Tensor)");
    };
    ir::walk(
        block,
        [&](const ir::Stmt& x) {
            if (auto* t = ir::as<ir::TileOpNode>(x))
                for (size_t i = 0; i < t->args.size(); ++i)
                    if (t->isRegion(i)) check(t->region(i).buffer, t->span);
            if (auto* st = ir::as<ir::StoreNode>(x)) check(st->buffer, st->span);
        },
        [&](const ir::Expr& e) {
            if (auto* l = ir::as<ir::LoadNode>(e)) check(l->buffer, l->span);
        });
}

/// The loop and block/thread variables each block binds.
std::set<const ir::VarNode*> boundIn(const ir::Stmt& block) {
    std::set<const ir::VarNode*> vars;
    ir::walk(block, [&](const ir::Stmt& x) {
        if (auto* k = ir::as<ir::KernelNode>(x)) {
            for (auto& v : k->blockVars) vars.insert(v.get());
            for (auto& v : k->threadVars) vars.insert(v.get());
        }
        if (auto* fo = ir::as<ir::ForNode>(x)) vars.insert(fo->var.get());
    });
    return vars;
}

/// A variable of one block (its thread index, `tx = T.get_thread_binding()`, a loop variable)
/// used in another: Python keeps the name bound, the other launch has no such value (a fuzzed
/// file reached simplify's IR check with it: "variable 'tx' is used outside its scope").
void checkOwnVariables(const ir::Stmt& block, const std::vector<std::set<const ir::VarNode*>>& bound, size_t self) {
    Span at = block->span;  // the statement being walked (a variable's own span is where it was bound)
    ir::walk(
        block, [&](const ir::Stmt& x) { if (x->span.valid()) at = x->span; },
        [&](const ir::Expr& e) {
            auto* v = ir::as<ir::VarNode>(e);
            if (!v || bound[self].count(v)) return;
            for (size_t j = 0; j < bound.size(); ++j)
                if (j != self && bound[j].count(v))
                    throw CompileError(at,
                                       "'" + v->name + "' is a variable of another T.Kernel block (its thread or block index, or a "
                                       "loop variable there): each block is a launch of its own",
                                       "bind it again in this block (e.g. tx = T.get_thread_binding()), or pass the value through a "
                                       "kernel tensor");
        });
}
}  // namespace

std::vector<ir::PrimFunc> splitKernelBlocks(const ir::PrimFunc& f) {
    std::vector<ir::Stmt> top;
    flatten(f->body, top);
    std::vector<std::set<const ir::VarNode*>> bound;
    for (const ir::Stmt& s : top) bound.push_back(boundIn(s));
    for (size_t i = 0; i < top.size(); ++i) checkOwnVariables(top[i], bound, i);
    std::vector<ir::PrimFunc> out;
    for (const ir::Stmt& s : top) {
        if (!ir::as<ir::KernelNode>(s))
            // Host code between launches would need a host program TileScope does not have.
            throw CompileError(s->span,
                               "a kernel function with several T.Kernel blocks may contain only "
                               "the blocks at its top level (this statement is outside them)",
                               "move it into the T.Kernel block that needs it");
        checkOwnOnChipBuffers(s, f->attrs);
        auto part = std::make_shared<ir::PrimFuncNode>(*f);
        part->name = f->name + "_" + std::to_string(out.size());
        part->body = s;
        std::vector<int> outs = f->outputs;
        for (int i : fe::writtenTensorParams(*part))
            if (std::find(outs.begin(), outs.end(), i) == outs.end()) outs.push_back(i);
        std::sort(outs.begin(), outs.end());
        part->outputs = std::move(outs);
        part->span = s->span;
        out.push_back(std::move(part));
    }
    return out;
}

}  // namespace ts
