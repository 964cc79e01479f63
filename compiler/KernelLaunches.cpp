// Splitting a kernel function into one launch per T.Kernel block (KernelLaunches.h).
#include "compiler/KernelLaunches.h"

#include <algorithm>

#include "compiler/frontend/Elaborate.h"
#include "compiler/ir/Functor.h"
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
}  // namespace

std::vector<ir::PrimFunc> splitKernelBlocks(const ir::PrimFunc& f) {
    std::vector<ir::Stmt> top;
    flatten(f->body, top);
    std::vector<ir::PrimFunc> out;
    for (const ir::Stmt& s : top) {
        if (!ir::as<ir::KernelNode>(s))
            // Host code between launches would need a host program TileScope does not have.
            throw CompileError(s->span,
                               "a kernel function with several T.Kernel blocks may contain only "
                               "the blocks at its top level (this statement is outside them)",
                               "move it into the T.Kernel block that needs it");
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
