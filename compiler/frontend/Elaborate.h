// Elaboration (DESIGN.md §2, LANGUAGE.md §2-3): runs the kernel's factory with the user's
// parameter values through the meta-evaluator and turns the @T.prim_func body (or the eager
// @tilelang.jit body) into a tile-level ir::PrimFunc: tensor parameters, the T.Kernel launch,
// allocations, tile ops (copy, gemm, fill, reduce, cumsum, atomics), loops (Parallel,
// Pipelined, serial, unroll, vectorized), run-time `if`s, element loads/stores and scalar math.
// Meta-level values fold away: `if is_causal:` keeps one branch, shapes become constants, and
// @T.macro functions are inlined. Every IR node carries the span of the construct it came from.
//
// Elaboration checks what only the source can explain (unknown T.* names with a close match,
// undefined names, copy shape mismatches naming both shapes, gemm operand dtypes and shapes,
// argument counts); bounds, layouts and warp partitions are checked by later passes
// (check-bounds, infer-layouts). Errors are diagnostics; the first one stops elaboration.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "compiler/frontend/Module.h"
#include "compiler/ir/IR.h"
#include "compiler/support/Diagnostic.h"

namespace ts::fe {

/// One expansion of a @T.macro: its body's span and the call that expanded it, through every
/// enclosing macro ("'inner' called at line 13:5, from 'outer' at line 20:13"). Later passes
/// report at a body's line; nameMacroCalls says which call(s) that body came from.
struct MacroCall {
    Span body;
    std::string name;
    std::string chain;
};

/// Elaborates `entry` of `mod` with `params` (from Module::bindParams) into tile-level IR.
/// Returns null after reporting an error to `diags` (origin "elaborate"). The PrimFunc's
/// `outputs` come from out_idx, the tensors an eager kernel returns, or else every tensor
/// parameter the kernel writes. `macroCalls` (if given) receives the macro expansions.
ir::PrimFunc elaborate(const Module& mod, const KernelEntry& entry, const ParamBindings& params,
                       DiagnosticEngine& diags, std::vector<MacroCall>* macroCalls = nullptr);

/// Appends to each error and warning at a line of a @T.macro body that does not name a call yet
/// the call(s) that expanded that body (the innermost macro holding the line): " (in @T.macro
/// 'inner' called at line 13:5)", or with several calls " (in @T.macro 'row', one of its 4 calls:
/// line 30:9, line 31:9, ...)". Front-end errors name their call already (MacroCallSite.cpp).
void nameMacroCalls(std::vector<Diagnostic>& diags, const std::vector<MacroCall>& calls);

/// Indices into f.params of the tensors f's body writes (element stores, tile ops that write a
/// region, T.atomic_*(..., return_prev=True)), ascending: a kernel's outputs when out_idx is not
/// given, and what one launch of a function with several T.Kernel blocks hands to the next.
std::vector<int> writtenTensorParams(const ir::PrimFuncNode& f);

/// Everything the front end produces for one compile.
struct FrontendResult {
    std::shared_ptr<const Module> module;  ///< always set (may hold no entry)
    const KernelEntry* entry = nullptr;    ///< the elaborated entry, if one was found
    ParamBindings params;                  ///< parameter values used (defaults + overrides)
    ir::PrimFunc func;                     ///< null if any error was reported
    std::optional<double> flops, bytes;    ///< the file's flops/bytes for these parameters
    /// Overrides that name a scalar kernel argument (a symbolic size or `n: T.int32`) rather
    /// than a factory parameter: launch values, not compile-time ones (name -> literal text).
    std::map<std::string, std::string> scalarValues;
    std::vector<MacroCall> macroCalls;  ///< every @T.macro expansion (nameMacroCalls)
};

/// The whole front end: parse, analyse, bind `overrides` (name -> Python literal text), fill
/// autotune parameters that have no value from the first config, elaborate, evaluate
/// flops/bytes (a failure there is a warning). `entryName` picks a kernel when a file has
/// several (default: the best candidate, see Module::entries()). An override whose name is not
/// a factory parameter but a scalar argument of the elaborated kernel goes to scalarValues.
FrontendResult runFrontend(SourcePtr src, const std::map<std::string, std::string>& overrides,
                           DiagnosticEngine& diags, std::string_view entryName = {});
/// As above for a file already analysed without errors (compile() analyses it first to list
/// and select the program's kernels) and the chosen `entry` of `mod`.
FrontendResult runFrontend(std::shared_ptr<const Module> mod, const KernelEntry& entry,
                           const std::map<std::string, std::string>& overrides,
                           DiagnosticEngine& diags);

}  // namespace ts::fe
