// The parser of the tile language: a hand-written recursive-descent parser for Python syntax
// (the subset and beyond that TileLang files use, LANGUAGE.md §1) producing ast::Module with
// exact spans. Syntax errors become diagnostics (origin "parse") with file:line:col and a hint;
// the parser recovers at statement level, so one run reports several errors, and it never
// throws or crashes on malformed input (nesting depth and error count are bounded).
#pragma once
#include <memory>

#include "compiler/frontend/Ast.h"
#include "compiler/support/Diagnostic.h"
#include "compiler/support/Source.h"

namespace ts::fe {

/// Parses a whole file. Lexical and syntax errors go to `diags`; the returned module holds every
/// statement that parsed (statements with errors are dropped). Never returns null.
std::shared_ptr<ast::Module> parseModule(SourcePtr src, DiagnosticEngine& diags);

/// Result of parseExpression: the arena that owns the nodes and the expression (null on error).
struct ParsedExpr {
    std::shared_ptr<ast::Module> module;
    const ast::Expr* expr = nullptr;
};

/// Parses `src` as one expression (optionally a bare tuple `a, b`) followed by end of input.
/// Used for `--param k=v` values and tests. Errors go to `diags`.
ParsedExpr parseExpression(SourcePtr src, DiagnosticEngine& diags);

/// Parser limits, exposed for tests: deepest bracket/operator nesting and most errors per file.
inline constexpr int kMaxParseDepth = 150;
inline constexpr int kMaxParseErrors = 25;
/// Longest chain of nested operations in one expression (`a+b+...` with 501 operands,
/// `f()()...` with 501 calls, `T.a.a...` with 501 attributes). The parser builds such chains in
/// loops, but every later stage (meta-evaluation, elaboration, passes, CUDA emission) walks
/// expressions recursively; the costliest walk (codegen's emitter) uses about 2.5 KB of stack a
/// level in a RelWithDebInfo build (measured: 724 levels fit a 2 MB stack, 3220 an 8 MB one),
/// so 500 levels fit both the 8 MB main thread and a 2 MB worker-thread stack. An expression
/// above the limit is an error and its statement is dropped.
inline constexpr int kMaxExprHeight = 500;

}  // namespace ts::fe
