// Prints Tile IR as TileLang-like Python text. Tile-level IR (before lowering) prints as a
// bare `@T.prim_func` with literal shapes that the front end re-parses (print -> parse -> print
// is identical); lowered IR adds intrinsic calls (`tl.*`) for reading only. The printer also
// records, for every output line, the statement and source span it came from: the pass
// viewer's line -> node map and the basis of source <-> IR cross-highlighting.
#pragma once
#include <string>
#include <vector>

#include "compiler/ir/Stmt.h"

namespace ts::ir {

/// One printed line's origin.
struct LineOrigin {
    const StmtNode* stmt = nullptr;  ///< statement that printed this line (null for headers)
    Span span;                       ///< its source span (invalid if compiler-made)
};

struct PrintResult {
    std::string text;
    std::vector<LineOrigin> lines;  ///< lines[i] describes 1-based line i+1 of text
};

/// Prints a whole function.
PrintResult print(const PrimFunc& f);
/// Prints one expression (e.g. for diagnostics or tests).
std::string toString(const Expr& e);
/// Prints one statement subtree at indentation 0.
std::string toString(const Stmt& s);
/// "T.float16" style dtype literal as the printer writes it: "\"float16\"".
std::string dtypeLiteral(DType t);

}  // namespace ts::ir
