// Seeded defects for the thread-level interpreter of lowered IR (TmaStoreE2ETest.cpp,
// AtomicTmaReduceE2ETest.cpp): the lowered kernel with some of the lowering's own calls (a wait,
// a barrier) removed, run to see that the interpreter reports what the GPU would get wrong.
#pragma once
#include <cmath>
#include <functional>
#include <string>

#include "compiler/Compile.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "compiler/ir/Functor.h"
#include "tests/e2e/E2eTestUtil.h"

namespace ts::e2e {

/// Drops the statements `drop` picks from lowered IR: the seeded defects.
class DropCalls : public ts::ir::Mutator {
public:
    std::function<bool(const ts::ir::CallNode&)> drop;
    int dropped = 0;

protected:
    ts::ir::Stmt visitEval(const ts::ir::EvalNode* n, const ts::ir::Stmt& self) override {
        auto* c = dynamic_cast<const ts::ir::CallNode*>(n->call.get());
        if (!c || !drop(*c)) return self;
        ++dropped;
        return nullptr;
    }
};

/// The lowered interpreter's error on `r`'s lowered IR with the calls `drop` picks removed.
inline std::string loweredErrorWithout(const ts::CompileResult& r, const std::function<bool(const ts::ir::CallNode&)>& drop, int* dropped) {
    DropCalls d;
    d.drop = drop;
    auto f = std::make_shared<ts::ir::PrimFuncNode>(*r.lowered);
    f->body = d.mutate(r.lowered->body);
    *dropped = d.dropped;
    auto ci = makeCheckedInputs(r);
    std::vector<ts::HostTensor> args = ci.set.tensors;
    for (size_t i = 0; i < args.size(); ++i)
        if (ci.sig[i].isOutput) args[i].data.assign(static_cast<size_t>(args[i].numel()), std::nan(""));
    auto run = ts::interp::runLowered(f, args);
    return run.error ? run.error->message : std::string();
}

}  // namespace ts::e2e
