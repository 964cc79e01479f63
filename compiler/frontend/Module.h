// File-level analysis of a tile program (LANGUAGE.md §1, §4): which function is the kernel
// entry and in which of the three shapes it is written (a factory returning an inner
// @T.prim_func, an eager @tilelang.jit function with tensor parameters and T.const sizes, or a
// bare module-level @T.prim_func), the entry's parameters with their evaluated defaults (what the
// IDE's parameter panel shows and `--param k=v` overrides), the decorator arguments that matter
// (out_idx, configs, pass_configs), the reference program and the flops/bytes expressions.
// Recognition is syntactic (decorator names resolved through the file's imports); the
// decorators are never executed. Module-level assignments and if/for/while run in the
// meta-evaluator; code that fails there (imports of unknown modules, argparse, benchmarks) only
// poisons the names it assigns, and `if __name__ == "__main__":` is false.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/frontend/Ast.h"
#include "compiler/frontend/AutotuneDrivers.h"
#include "compiler/frontend/KernelCallSite.h"
#include "compiler/frontend/MetaEval.h"
#include "compiler/frontend/MetaValue.h"
#include "compiler/support/Diagnostic.h"

namespace ts::fe {

/// The three file shapes of LANGUAGE.md §1.
enum class EntryPattern : uint8_t {
    Factory,   ///< outer function (often @tilelang.jit/@autotune) returning an inner @T.prim_func
    Eager,     ///< @tilelang.jit function whose body is the kernel (tensor params, T.const sizes)
    PrimFunc,  ///< bare module-level @T.prim_func with literal shapes
};

/// A decorator as written, with its name resolved through the file's imports
/// (`@tl.jit(out_idx=[-1])` with `import tilelang as tl` gives "tilelang.jit").
struct DecoratorInfo {
    std::string name;  ///< canonical dotted name
    Span span;
    bool isCall = false;
    std::vector<const ast::Expr*> args;
    std::vector<ast::Keyword> keywords;
    /// The keyword argument `key`, or null.
    const ast::Expr* keyword(std::string_view key) const;
};

/// One parameter of the entry, as the IDE's parameter panel shows it.
struct KernelParam {
    enum class Role : uint8_t {
        Meta,    ///< compile-time value (shape, tile size, dtype, flag): settable
        Tensor,  ///< eager pattern: a tensor argument (declared by `A: T.Tensor(...)`)
        Const,   ///< eager pattern: a `T.const("M, N")` size bound from tensor shapes: settable
    };
    std::string name;
    Span span;  ///< the parameter's name (or the T.const string)
    Role role = Role::Meta;
    const ast::Expr* annotation = nullptr;   ///< signature annotation, if any
    const ast::Expr* defaultExpr = nullptr;  ///< source of the default, if any
    std::optional<Value> defaultValue;       ///< evaluated default (nullopt: none, or it failed)
    std::string defaultError;                ///< why evaluating the default failed
    bool variadic = false;                   ///< *args / **kwargs (never bound from --param)
    bool settable() const { return role != Role::Tensor && !variadic; }
};

/// A kernel entry candidate.
struct KernelEntry {
    EntryPattern pattern = EntryPattern::Factory;
    const ast::FunctionDef* func = nullptr;  ///< factory, eager function, or the bare prim_func
    const ast::FunctionDef* primFunc =
        nullptr;  ///< the @T.prim_func found in the source (null for eager
                  ///< or a factory that builds it through a helper)
    std::vector<DecoratorInfo> decorators;   ///< of `func`, outermost first
    std::vector<KernelParam> params;         ///< signature order; eager T.const sizes last
    const ast::Expr* outIdx = nullptr;       ///< `out_idx=` of @tilelang.jit
    const ast::Expr* configs = nullptr;      ///< `configs=` of @autotune
    const ast::Expr* passConfigs = nullptr;  ///< `pass_configs=` of @tilelang.jit
    bool isJit = false, isAutotune = false;
    /// An autotune driver (AutotuneDrivers.h): the function builds a TileLang AutoTuner (`tuner`
    /// set: the from_kernel call) or only runs the one another function builds (`tunerBuilder`).
    /// Compiled as the tuned kernel at the tuner's first config (MetaAutoTuner.h); listed as a
    /// driver, not as a kernel.
    TunerSite tuner;
    const ast::FunctionDef* tunerBuilder = nullptr;
    /// The entries that only run the tuner this entry builds (`get_best_config` ->
    /// `_build_autotuner`): the same tuned kernel, reached through their own parameters.
    std::vector<const ast::FunctionDef*> tunerRunners;
    bool isAutotuneDriver() const { return tuner.fromKernel || tunerBuilder; }
    /// The file's own call of this kernel and the values it passes (KernelCallSite.h): what
    /// parameters without a default take.
    KernelCallSite callSite;
    /// A kernel defined inside a module-level function (TileLang's tests: `def test_x():
    /// @tilelang.jit def k(A, B): ...; k(a, b)`): that function. Its name is `test_x.k` (several
    /// tests define a `k`); its closure is the module globals plus the simple assignments that
    /// precede the def in `enclosing` (Module::closureOf).
    const ast::FunctionDef* enclosing = nullptr;
    std::string qualifiedName;  ///< `enclosing.func` for a nested kernel, else empty
    const std::string& name() const { return qualifiedName.empty() ? func->name : qualifiedName; }
    const KernelParam* param(std::string_view n) const;
};

/// An assignment `flops = <expr>` / `bytes = <expr>` found in the file, or the `return <expr>`
/// of a module-level `def flops(M, N, K): ...` / `def total_bytes(...)` (then `inFunction` is that
/// function and its parameters take the kernel's values of the same names).
struct MetaSite {
    std::string name;  ///< the assigned name ("flops", "total_flops", ...)
    const ast::Expr* expr = nullptr;
    const ast::Block* block = nullptr;  ///< statements that precede it run first (simple ones)
    size_t index = 0;                   ///< position of the assignment in `block`
    const ast::FunctionDef* inFunction = nullptr;  ///< enclosing module-level function, if any
};

/// Parameter values for one compile, in the entry's parameter order.
using ParamBindings = std::vector<std::pair<std::string, Value>>;
/// The value bound to `name`, or null.
const Value* findParam(const ParamBindings& b, std::string_view name);

/// True for expressions that are safe to evaluate outside the kernel (a flops/bytes site's
/// context, the values a nested reference function sees from its enclosing function):
/// arithmetic, comparisons and conditionals over names, attributes, literals and tuples, and
/// calls of a few pure builtins (int, float, min, max, abs, round, len, math.*, T.ceildiv) —
/// never user functions, kernels or torch.
bool isSimpleMetaExpr(const ast::Expr* e);

/// The scope a kernel defined inside a module-level function (KernelEntry::enclosing) runs in:
/// the module globals, the enclosing function's parameter defaults, then what precedes the def
/// in its body and is safe to run outside the kernel (simple assignments, isSimpleMetaExpr; the
/// defs before it, e.g. a test's own @T.macro); the kernel's own def last, so
/// `scope->vars[entry.func->name]` is the kernel function. A failing statement is skipped (its
/// names stay unbound: a use is an error at the use).
EnvPtr nestedKernelScope(Interp& in, const EnvPtr& globals, const KernelEntry& e);

/// Parses a `--param` value: Python int/float/bool/None/string literals and tuples/lists of
/// them; `T.float16`/`torch.float16` give dtypes; anything else is taken as a plain string
/// (so `--param dtype=float16` works).
Value parseParamValue(std::string_view text);

/// The `--param` text that names `v`: a tile-language op (`T.reduce_max`) or a module-level
/// function by its name, since a kernel factory may take one (TileLang's reduce tests pass
/// `T.reduce_max` as `reduce_fn`); repr(v) for everything else.
std::string paramText(const Value& v);

/// What a `--param` text names when it is `T.reduce_max` (an op of `in`'s tile language) or the
/// name of a function in `globals`: that op or function; nullopt for any other text. The
/// elaborator resolves string bindings with it (the module's own interpreter has no tile ops).
std::optional<Value> callableNamed(Interp& in, const EnvPtr& globals, const std::string& text);

/// Runs the top of a file into `globals` as Python would on import: imports, function
/// definitions (only the @T.prim_func/@T.macro/functools cache decorators are applied),
/// module-level assignments and `if`/`for`/`while` statements (so `for _ in range(3): BM *= 2`
/// changes BM). `__name__` is not "__main__", so a main guard is skipped, except that names only
/// it assigns are bound afterwards (MainGuardGlobals.h). Statements that fail
/// bind the names they assign (anywhere in their bodies) to poison values, an error only if
/// used; hitting the meta-evaluator's step limit (an endless module-level loop) is also reported
/// to `errors` when given. `with`/`try` blocks and expression statements are skipped.
void execTopLevel(Interp& in, const ast::Module& mod, const EnvPtr& globals,
                  DiagnosticEngine* errors = nullptr);

/// The directory whose `.py` files are the sibling modules `src` can import (Interp::
/// setSiblingDir): the file's own directory if `src` names a file on disk, else "".
std::string siblingDirOf(const SourceFile& src);

/// The analysis of one file (what Compile.h calls fe::Module). Holds the AST and a
/// meta-evaluator with the file's globals.
class Module {
public:
    /// Parses and analyses `src`. Parse errors (and a missing kernel entry) go to `diags`;
    /// never returns null.
    static std::shared_ptr<Module> analyze(SourcePtr src, DiagnosticEngine& diags);
    ~Module();

    const std::shared_ptr<ast::Module>& ast() const { return m_ast; }
    const SourcePtr& source() const { return m_ast->source(); }
    /// Every kernel candidate, best first (decorated factory, factory, eager, bare prim_func).
    const std::vector<KernelEntry>& entries() const { return m_entries; }
    /// The best candidate, or the one named `name`; null if none.
    const KernelEntry* entry(std::string_view name = {}) const;
    /// The kernel a compile uses (DESIGN.md §2b): the best candidate when `name` is empty, else
    /// the entry whose def is named `name` (a kernel or an autotune driver), else the one entry
    /// whose inner @T.prim_func is named `name` (`--kernel flash_bwd` for the factory
    /// `flashattn_bwd`). An unknown or ambiguous
    /// name is an error at `where` (origin "kernel") listing the file's kernels with a
    /// close-match hint; returns null then (and when the file has no kernel at all). The
    /// default `where` is no place in the file (the name came from the command line).
    const KernelEntry* selectEntry(std::string_view name, DiagnosticEngine& diags,
                                   Span where = Span{}) const;
    /// The entries other than `e` that have a settable parameter `name`, in source order (a
    /// `--param` meant for another kernel of the file).
    std::vector<const KernelEntry*> otherEntriesWithParam(const KernelEntry& e,
                                                          std::string_view name) const;
    /// `def ref_program(...)` (module level, else nested one level in a module function).
    const ast::FunctionDef* refProgram() const { return m_refProgram; }
    const std::optional<MetaSite>& flops() const { return m_flops; }
    const std::optional<MetaSite>& bytes() const { return m_bytes; }

    /// Defaults of `e`'s settable parameters, replaced by `overrides` (`name`, `text` pairs
    /// parsed with parseParamValue). Unknown names (the message lists the known ones, with a
    /// close-match hint), required parameters without a value, and defaults that failed to
    /// evaluate are errors in `diags`; returns nullopt if there was any.
    std::optional<ParamBindings> bindParams(
        const KernelEntry& e, const std::vector<std::pair<std::string, std::string>>& overrides,
        DiagnosticEngine& diags) const;
    /// Evaluates a flops/bytes site with the given parameter values: module globals, the
    /// enclosing function's defaults, the parameters, then the simple assignments that precede
    /// the site (except those to a parameter's name). Errors go to `diags`.
    std::optional<double> evalSite(const MetaSite& site, const ParamBindings& params,
                                   DiagnosticEngine& diags) const;
    /// Evaluates a decorator argument (out_idx, configs, ...) in the module globals plus
    /// `params` (if given). Errors go to `diags`.
    std::optional<Value> evalInGlobals(const ast::Expr& e, const ParamBindings* params,
                                       DiagnosticEngine& diags) const;

    Interp& interp() const { return *m_interp; }
    const EnvPtr& globals() const { return m_globals; }

private:
    Module() = default;
    void findEntries();
    void findSites();
    EnvPtr scopeWith(const ParamBindings* params) const;

    std::shared_ptr<ast::Module> m_ast;
    DiagnosticEngine
        m_evalDiags;  ///< warnings from evaluating top-level code (not the user's concern)
    std::unique_ptr<Interp> m_interp;
    EnvPtr m_globals;
    std::vector<KernelEntry> m_entries;
    const ast::FunctionDef* m_refProgram = nullptr;
    std::optional<MetaSite> m_flops, m_bytes;
};

}  // namespace ts::fe
