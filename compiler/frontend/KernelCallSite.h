// The values a tile program passes to its own kernel (fresh-user defect D8). A TileLang file
// says its real sizes where it calls the kernel, not in the kernel's signature: TileLang's
// quickstart defines `def matmul(A, B, block_M: int, ...)` with `M, N, K = T.const(...)` and
// calls `matmul.compile(M=M, N=N, K=K, block_M=block_M, ...)` at module level; most examples
// call `kernel = matmul(M, N, K, 128, 128, 32)` in a `def main(M=4096, ...)` that
// `if __name__ == "__main__":` runs. Parameters without a default take those values (the
// front end notes where they came from; --param still overrides), so such a file compiles as
// Python would run it instead of asking for every size.
//
// Search order, first call that gives at least one value wins: module-level statements, then
// the main-guard block and the module-level functions it calls (3 calls deep, each with its
// parameters bound from the call and its defaults). Only simple assignments (arithmetic over
// literals and names, isSimpleMetaExpr) are executed on the way; a name assigned anything else
// (argparse results, tensors, kernels) has no value, and an argument using it is left out. An
// eager kernel's T.const sizes also come from the shapes of `torch.randn(M, K, ...)`-style
// tensors passed for its `A: T.Tensor((M, K), dtype)` parameters. Nothing of the file is run
// beyond that: no kernel, torch or user-function call is evaluated.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "compiler/frontend/Ast.h"
#include "compiler/frontend/MetaEval.h"
#include "compiler/frontend/MetaValue.h"

namespace ts::fe {

struct KernelEntry;

/// One call of a kernel in its own file and the parameter values it passes.
struct KernelCallSite {
    std::vector<std::pair<std::string, Value>> values;  ///< settable parameters, signature order
    Span span;          ///< the call expression
    std::string where;  ///< "module level", "main()", "__main__ -> main() -> run()", ...
    Span raisesCall;    ///< a call inside `with pytest.raises(...)` (skipped: a kernel meant to fail)
    /// Arguments of that call (or, when no call gave a value, of the first call met) that could
    /// not be read as a value (a lambda, functools.partial(...), a name bound to a tensor): the
    /// parameter, the argument's span and what it is ("a lambda"). A parameter listed here
    /// keeps its default or has no value, and the front end says which argument was dropped.
    struct Unread {
        std::string param;
        Span span;
        std::string what;
    };
    std::vector<Unread> unread;
    const Unread* unreadFor(const std::string& param) const {
        for (const Unread& u : unread)
            if (u.param == param) return &u;
        return nullptr;
    }
    /// What Python (or TileLang's eager call) would reject in that call: an extra positional
    /// argument, an unknown or repeated keyword, a tensor whose rank or extents disagree with its
    /// declaration or with another argument. Errors at the argument; the kernel is not compiled
    /// from a call that cannot run.
    struct Problem {
        Span span;
        std::string message;
        std::string hint;
    };
    std::vector<Problem> problems;
    bool found() const { return !values.empty(); }
};

/// The first call of `entry` in `mod` that gives a value to at least one of its settable
/// parameters (see the file comment), evaluated with `in` over the module globals `globals`
/// (execTopLevel's). An empty result when there is none.
KernelCallSite findKernelCallSite(const ast::Module& mod, const KernelEntry& entry, Interp& in,
                                  const EnvPtr& globals);

}  // namespace ts::fe
