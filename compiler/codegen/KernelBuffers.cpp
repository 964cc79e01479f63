#include "compiler/codegen/KernelBuffers.h"

#include <algorithm>

#include "compiler/ir/Functor.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/ViewBases.h"

namespace ts::codegen {
using namespace ts::ir;

std::set<const BufferNode*> writtenBuffers(const PrimFuncNode& f) {
    std::set<const BufferNode*> w;
    walk(f.body, [&](const Stmt& s) {
        if (auto* st = as<StoreNode>(s)) w.insert(st->buffer.get());
        if (auto* e = as<EvalNode>(s))
            if (auto* c = as<CallNode>(e->call)) {
                size_t dst = c->op == intrin::kAtomic ? 1 : 0;
                if ((c->op == intrin::kCopyVec || c->op == intrin::kZeroVec || c->op == intrin::kAtomic || c->op == intrin::kCpAsync ||
                     c->op == intrin::kStorePair) &&
                    c->args.size() > dst)
                    if (auto* a = as<CallNode>(c->args[dst]); a && a->op == intrin::kAddressOf)
                        if (auto* l = as<LoadNode>(a->args[0])) w.insert(l->buffer.get());
                // A TMA store writes the tensor of its map (no pointer access, but the
                // parameter must not promise `const __restrict__` read-only memory).
                if ((c->op == intrin::kTmaStore || c->op == intrin::kTmaReduceAdd) && !c->args.empty())
                    if (auto map = constInt(c->args[0])) {
                        auto desc = attrInts(f.attrs, "tma_map." + std::to_string(*map));
                        if (!desc.empty() && desc[0] >= 0 && size_t(desc[0]) < f.params.size()) w.insert(f.params[size_t(desc[0])].get());
                    }
            }
    }, [&](const Expr& e) {
        if (auto* c = as<CallNode>(e); c && c->op == intrin::kAtomicPrev && c->args.size() >= 3)
            if (auto* l = as<LoadNode>(c->args[1])) w.insert(l->buffer.get());
    });
    addViewBases(f, w);  // a write through a view writes its tensor
    return w;
}

std::vector<const BufferNode*> dtypeViews(const PrimFuncNode& f) {
    std::vector<const BufferNode*> out;
    auto note = [&](const BufferNode* b) {
        if (const BufferNode* v = b ? viewBase(f, *b) : nullptr; v && v->dtype != b->dtype && std::find(out.begin(), out.end(), b) == out.end())
            out.push_back(b);
    };
    walk(f.body, [&](const Stmt& s) {
        if (auto* st = as<StoreNode>(s)) note(st->buffer.get());
    }, [&](const Expr& e) {
        if (auto* l = as<LoadNode>(e)) note(l->buffer.get());
    });
    return out;
}

}  // namespace ts::codegen
