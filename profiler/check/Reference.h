// Evaluation of a tile program's `ref_program(*inputs)` in float64 on the host (LANGUAGE.md §4,
// DESIGN.md §3): the expected outputs that `tilec run`, the IDE and the tests compare a kernel
// against. The file's top level is loaded with the meta-evaluator (imports, defs and constant
// assignments; other top-level code such as `if __name__ == "__main__":`, benchmarks and
// argparse is skipped, and assignments that fail are only errors if ref_program uses them), then
// ref_program runs with the inputs as tensors of the torch-like vocabulary in ReferenceTorch.h.
//
// Precision: every value is float64; `.half()`, `.to(torch.bfloat16)` etc. only change the
// nominal dtype (the reference is exact; the comparison tolerances absorb the kernel's
// rounding). Conversions to integer types round like the device (truncation, wrap-around).
//
// Argument binding follows TileLang's `ref_program(*inputs)`: the first N positional parameters
// (or a `*args`) receive the N input tensors in order; every later parameter (e.g. `is_causal`)
// takes the factory's value of the same name from the bound parameters, else its own default,
// else the default of a same-named parameter of a top-level function in the file (the factory).
//
// Errors never escape as exceptions: they are diagnostics (origin "reference") at the user's
// source, e.g. "ref_program: torch.linalg.svd is not supported by the reference evaluator" at
// the call, or "ref_program: operator @: matmul: shapes (3, 4) and (5, 6) cannot be multiplied".
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/frontend/Ast.h"
#include "compiler/frontend/Module.h"
#include "compiler/support/Diagnostic.h"
#include "compiler/support/HostTensor.h"
#include "compiler/support/Source.h"

namespace ts::rt {

/// The outcome of one reference evaluation.
struct ReferenceResult {
    bool ok = false;
    /// One tensor per returned value (a tuple or list return gives several), in order. dtype is
    /// always Float64 and the data is exact (not rounded to the nominal dtype).
    std::vector<HostTensor> outputs;
    /// The dtype each output has in the program (what `.half()` / torch promotion made of it).
    std::vector<ir::DType> nominalDTypes;
    /// Errors (when !ok) and warnings, with spans into the program's source.
    std::vector<Diagnostic> diagnostics;
};

/// Knobs of evalReference().
struct ReferenceOptions {
    /// The def to run (findReferenceProgram: a top-level or nested name, or a dotted path).
    std::string functionName = "ref_program";
    uint64_t maxSteps = 50'000'000;  ///< meta-evaluator step budget (loops in the program)
};

/// The `def <name>` of `module`: the last one at top level, else one nested one level down (in a
/// module-level function or `if __name__ == "__main__":`), like fe::Module::refProgram(); nullptr
/// when there is none (then the caller falls back to `--check interp`). A dotted name
/// (`run_gemm.ref_program`, `test.check.ref`) is a path of defs from the top level, each found
/// among the statements of the one before (the last def of that name wins, like Python).
///
/// A reference nested in functions (TileLang's test style) sees the module globals plus, for
/// each enclosing function from the outermost in: its parameters' defaults and the assignments
/// of its body that precede the nested def and are simple (fe::isSimpleMetaExpr: `scale =
/// 1.0 / math.sqrt(dim)`, not `A = torch.randn(...)`), with the bound kernel parameters of the
/// same name winning over both (an assignment to such a name is skipped). The rest of the
/// enclosing bodies does not run.
const fe::ast::FunctionDef* findReferenceProgram(const fe::ast::Module& module,
                                                 const std::string& name = "ref_program");

/// The names `findReferenceProgram` accepts in `module`, for an unknown `--ref` message:
/// top-level functions and, dotted, those nested one level in them (at most `limit`).
std::vector<std::string> referenceCandidates(const fe::ast::Module& module, size_t limit = 40);

/// Runs the ref_program of an analysed file on `inputs` (the kernel's input tensors, in signature
/// order, with data). `params` are the kernel's bound parameters (fe::Module::bindParams: the
/// user's values and the defaults); they supply ref_program's non-tensor parameters.
/// Thread-safe: each call has its own evaluator (the module's own interpreter is not used).
ReferenceResult evalReference(const fe::Module& module, const fe::ParamBindings& params,
                              const std::vector<HostTensor>& inputs,
                              const ReferenceOptions& opt = {});

/// As above for a parsed file without fe::Module analysis. `factoryParams` maps factory parameter
/// names to Python text ("True", "128", "'float16'", "torch.float16"; read with
/// fe::parseParamValue like --param, so other text is a string). Parameters the map lacks fall
/// back to the defaults of same-named parameters of the file's top-level functions. `module`
/// must be the whole parsed file and stay alive during the call.
ReferenceResult evalReference(const fe::ast::Module& module,
                              const std::map<std::string, std::string>& factoryParams,
                              const std::vector<HostTensor>& inputs,
                              const ReferenceOptions& opt = {});

/// Parses `src` and runs its ref_program. Syntax errors are returned as diagnostics (!ok).
ReferenceResult evalReference(const SourcePtr& src,
                              const std::map<std::string, std::string>& factoryParams,
                              const std::vector<HostTensor>& inputs,
                              const ReferenceOptions& opt = {});

}  // namespace ts::rt
