// The meta-evaluator (LANGUAGE.md §2): a small Python interpreter over the AST that runs the
// compile-time part of a tile program: factory functions with the user's parameter values,
// arithmetic on shapes, if/for over Python values, closures, comprehensions, and the builtins
// and modules real TileLang files use (range, len, min, max, math.*, itertools.product,
// T.ceildiv, ...). Python semantics are followed where it matters for shapes: floor division and
// modulo on negatives, int/float promotion, int ** int, chained comparisons, truthiness, `in`.
// Integers are 64-bit; overflow is a diagnostic.
//
// Errors (undefined name, wrong arity, type errors) throw CompileError at the exact span with a
// hint; callers catch it at the phase boundary. Recursion depth, total steps and sequence sizes
// are bounded so a runaway meta program fails with a diagnostic instead of hanging the IDE.
//
// The elaborator subclasses Interp: ExtValue (MetaValue.h) lets tile-level values live in the
// same environments, and the protected virtual hooks below let it take over statements whose
// meaning depends on run-time values (dynamic `if`, tile loops, `with T.Kernel`, ...).
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/frontend/Ast.h"
#include "compiler/frontend/MetaValue.h"
#include "compiler/frontend/Parser.h"
#include "compiler/support/Diagnostic.h"

namespace ts::fe {

/// How a statement finished.
enum class Flow : uint8_t { Normal, Break, Continue, Return };

/// Steps charged for building a function object (plus one per parameter) and for applying
/// one decorator, beyond the expressions they evaluate: measured against the step cost of
/// plain assignments (issue 14: an endless loop defining decorated functions).
inline constexpr uint64_t kFunctionSteps = 8;
inline constexpr uint64_t kDecoratorSteps = 4;

/// Resource limits of one evaluation.
struct MetaLimits {
    int maxCallDepth = 200;           ///< nested user-function calls
    /// Work, not statements (issue 14): each statement, loop iteration, call and expression
    /// node is a step; a function definition and a decorator application more (kFunctionSteps,
    /// kDecoratorSteps); operations on long sequences, dicts and strings in proportion to their
    /// length (chargeItems/chargeChars). 1M steps: an endless loop in meta code ends with this
    /// diagnostic in ~0.1 s at -O2 and under ~1 s of CPU under ASan/UBSan whatever its body
    /// (the fuzzers' hang rule is 2 s); the most any corpus kernel uses is ~15k (the autotuned
    /// convolution's config lists). The float64 reference has its own budget
    /// (profiler/check/Reference.h: loops over real sizes).
    uint64_t maxSteps = 1'000'000;
    size_t maxSequence = 10'000'000;  ///< elements of one materialised list/str/product
};

class Interp {
public:
    /// `diags` receives warnings (errors are thrown as CompileError).
    explicit Interp(DiagnosticEngine& diags);
    virtual ~Interp();
    Interp(const Interp&) = delete;
    Interp& operator=(const Interp&) = delete;

    DiagnosticEngine& diags() { return m_diags; }
    MetaLimits& limits() { return m_limits; }
    /// The last function @T.prim_func decorated (null Value before any): a pytest-style test
    /// function that defines its kernel and then goes on with host code (tl.compile, torch)
    /// yields that kernel (Elaborator::run).
    const Value& lastPrimFunc() const { return m_lastPrimFunc; }
    void notePrimFunc(const Value& f) { m_lastPrimFunc = f; }
    void forgetPrimFunc() { m_lastPrimFunc = Value(); }
    /// Steps counted so far; above limits().maxSteps once the step limit has been hit.
    uint64_t stepsUsed() const { return m_steps; }

    // ---- environments and modules ----
    /// The builtins scope (range, len, ...); parent of every module scope.
    const EnvPtr& builtins() const { return m_builtins; }
    /// A fresh module-globals scope whose parent is builtins().
    EnvPtr newModuleEnv();
    /// A known module by dotted name ("math", "tilelang.language"), or null.
    std::shared_ptr<NamespaceObj> module(const std::string& dotted) const;
    /// Registers (or returns the existing) module `dotted`, also linking it as an attribute of
    /// its parent package. The elaborator adds its T.* members to module("tilelang.language").
    std::shared_ptr<NamespaceObj> registerModule(const std::string& dotted);
    /// The compiled file's directory ("" = none, e.g. an unsaved buffer). An import of a module
    /// that is not modelled (`from block_causal_attention import _check_dllm_block`) then
    /// loads `<dir>/<module path>.py` if it exists, as Python does for a script's siblings:
    /// its top level runs like the file's own (execTopLevel: definitions and constants, no
    /// main guard), so its plain-Python helpers and values are usable; whatever fails there is
    /// an error only where used (SiblingModules.cpp).
    void setSiblingDir(std::string dir) { m_siblingDir = std::move(dir); }
    /// Executes an import statement in `env` (unknown modules bind opaque namespaces).
    void execImport(const ast::Stmt& s, const EnvPtr& env);

    // ---- evaluation ----
    Value eval(const ast::Expr& e, const EnvPtr& env);
    Flow exec(const ast::Stmt& s, const EnvPtr& env);
    Flow execBlock(const ast::Block& b, const EnvPtr& env);
    /// Value of the last `return` (valid after exec returned Flow::Return).
    const Value& returnValue() const { return m_returnValue; }
    /// Calls any callable value (function, builtin, dtype, ExtValue).
    Value call(const Value& callee, CallArgs& args);
    /// Calls a user function: binds parameters like Python (positional, keyword, defaults,
    /// *args, **kwargs) into a new scope under the closure and runs the body.
    Value callFunction(const FunctionObj& f, CallArgs& args);
    /// Binds `args` to `f`'s parameters in a fresh scope (without running the body).
    EnvPtr bindParameters(const FunctionObj& f, CallArgs& args);
    /// Builds the function value of a def (defaults evaluated now, decorators NOT applied).
    Value makeFunction(const ast::FunctionDef& def, const EnvPtr& env);

    // ---- operations (public so builtins and ExtValues can reuse them) ----
    Value binaryOp(ast::BinOpKind op, const Value& a, const Value& b, Span s);
    Value unaryOp(ast::UnaryOpKind op, const Value& a, Span s);
    /// One comparison; may return a dynamic ExtValue when an operand is one.
    Value compareOp(ast::CmpOpKind op, const Value& a, const Value& b, Span s);
    /// Truth value; nullopt when it is only known at run time (an ExtValue without a truth).
    std::optional<bool> truthOrDynamic(const Value& v, Span s);
    /// Truth value; a dynamic value is an error ("condition depends on a run-time value").
    bool truthy(const Value& v, Span s);
    /// All elements of an iterable (str, tuple, list, dict keys, range, ExtValue).
    std::vector<Value> iterate(const Value& v, Span s);
    int64_t length(const Value& v, Span s);
    Value getAttr(const Value& obj, const std::string& name, Span s);
    Value getItem(const Value& obj, const Value& index, Span s);
    void setItem(const Value& obj, const Value& index, const Value& v, Span s);
    /// Assigns to a target expression (name, tuple/list unpacking with *rest, subscript,
    /// attribute of an ExtValue).
    void assign(const ast::Expr& target, const Value& v, const EnvPtr& env);
    /// Binds a name in `env`, honouring `global`/`nonlocal` declarations.
    void bindName(const EnvPtr& env, const std::string& name, Value v);
    Value lookupName(const std::string& name, const EnvPtr& env, Span s);
    /// Charges `cost` steps of work; throws when MetaLimits::maxSteps would be exceeded (the
    /// count is then maxSteps + 1).
    void step(Span s, uint64_t cost = 1);
    /// Charges the work of copying, comparing or creating `n` values of a sequence or dict
    /// (1 step per 4) or `n` characters of a string (1 step per 64): an operation on a long
    /// sequence is work in proportion, so an endless loop over `a.count(0)` or `[0] * 10**6`
    /// ends within the same CPU time as one over assignments (issue 14).
    void chargeItems(Span s, uint64_t n) { step(s, n / 4); }
    void chargeChars(Span s, uint64_t n) { step(s, n / 64); }

protected:
    // Statement hooks: the elaborator overrides these for tile-level statements and calls the
    // base version for meta-level ones.
    virtual Flow execIf(const ast::If& s, const EnvPtr& env);
    virtual Flow execFor(const ast::For& s, const EnvPtr& env);
    virtual Flow execWhile(const ast::While& s, const EnvPtr& env);
    virtual Flow execWith(const ast::With& s, const EnvPtr& env);
    virtual Flow execAssign(const ast::Assign& s, const EnvPtr& env);
    virtual Flow execAugAssign(const ast::AugAssign& s, const EnvPtr& env);
    virtual Flow execAnnAssign(const ast::AnnAssign& s, const EnvPtr& env);
    virtual Flow execExprStmt(const ast::ExprStmt& s, const EnvPtr& env);
    virtual Flow execFunctionDef(const ast::FunctionDef& s, const EnvPtr& env);
    virtual Flow execReturn(const ast::Return& s, const EnvPtr& env);
    /// `a and b` / `a or b` where `a` is only known at run time. Default: error.
    virtual Value dynamicBoolOp(ast::BoolOpKind op, const Value& a, const Value& b, Span s);
    /// `x if c else y` where `c` is only known at run time. Default: error.
    virtual Value dynamicIfExp(const Value& cond, const Value& a, const Value& b, Span s);
    /// The value of `...` (a tensor index in a reference program). Default: an error.
    virtual Value evalEllipsis(Span s) {
        throw CompileError(s, "'...' is not supported at compile time");
    }
    /// Calling a dtype (`T.float32(x)`). Default: int/float/bool conversion of a meta value.
    virtual Value callDType(ir::DType t, CallArgs& args);
    /// Calls a user function tagged @T.macro. Default: an ordinary call.
    virtual Value callMacro(const FunctionObj& f, CallArgs& args) { return callFunction(f, args); }
    /// Calls any other user function (def or lambda) through call(). Default: callFunction.
    virtual Value callUserFunction(const FunctionObj& f, CallArgs& args) {
        return callFunction(f, args);
    }

    Value m_returnValue;

private:
    Value evalCall(const ast::Call& c, const EnvPtr& env);
    Value evalBoolOp(const ast::BoolOp& b, const EnvPtr& env);
    Value evalCompare(const ast::Compare& c, const EnvPtr& env);
    Value evalComprehension(const ast::Expr& e, const EnvPtr& env);
    Value evalSubscriptIndex(const ast::Expr& index, const EnvPtr& env);
    /// The value of an f-string literal whose text (escapes processed) is `text` (FString.cpp).
    Value evalFString(const std::string& text, Span span, const EnvPtr& env);
    Value makeLambda(const ast::Lambda& l, const EnvPtr& env);
    /// Runs `fn` for each element until it returns false; ranges are iterated lazily (a loop
    /// over range(10**9) fails on the step limit, not on memory).
    void forEach(const Value& iterable, Span s, const std::function<bool(const Value&)>& fn);
    void installBuiltins();
    void installModules();

public:
    /// Every T.* name of the language registry the namespace lacks becomes a builtin of that name
    /// that says it runs only inside a kernel: module-level code (a pytest case list
    /// `[("max", T.reduce_max)]`, a default `reduce_fn=T.reduce_sum`, a reference's
    /// `reduce_fn is T.reduce_max`) can name a tile op as a value. The elaborator resolves such a
    /// value to its own op by name (Elaborator::run). Not for the elaborator itself.
    void installTileOpNames();

private:
    Value methodOf(const Value& obj, const std::string& name, Span s);
    std::shared_ptr<NamespaceObj> resolveModule(const std::string& dotted);
    /// The sibling module `dotted` loaded from m_siblingDir, or null if there is no such file
    /// (SiblingModules.cpp).
    std::shared_ptr<NamespaceObj> loadSibling(const std::string& dotted);
    Value callFunctionBody(const FunctionObj& f, CallArgs& args);
    void registerClosure(const EnvPtr& env);

    DiagnosticEngine& m_diags;
    Value m_lastPrimFunc;
    MetaLimits m_limits;
    EnvPtr m_builtins;
    std::map<std::string, std::shared_ptr<NamespaceObj>> m_modules;
    std::string m_siblingDir;
    /// Parsed sibling modules: their ASTs own the definitions their functions run.
    std::vector<std::shared_ptr<ast::Module>> m_siblingAsts;
    /// Parsed f-string replacement fields by their expression text (FString.cpp).
    std::map<std::string, ParsedExpr> m_fstringFields;
    std::vector<std::weak_ptr<Env>> m_closureEnvs;  ///< cleared on destruction to break cycles
    size_t m_closureSweepAt = 1024;  ///< m_closureEnvs size at which expired entries are swept
    int m_callDepth = 0;
    uint64_t m_steps = 0;
};

/// Python semantics helpers, exposed for tests and the elaborator's constant folding.
int64_t pyFloorDiv(int64_t a, int64_t b);  ///< b != 0; rounds toward -inf
int64_t pyMod(int64_t a, int64_t b);       ///< b != 0; result has the sign of b
double pyFloatMod(double a, double b);

}  // namespace ts::fe
