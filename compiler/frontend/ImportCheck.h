// Names Python would not know: a tile program that writes `T.Kernel(...)` without binding `T`
// (`import tilelang.language as T`) raises NameError under TileLang, so TileScope reports it
// instead of resolving `T` by convention (the meta-evaluator knows `T` as a builtin so that
// oddly imported files still work; this check only fires when nothing in the file binds it).
#pragma once
#include "compiler/support/Diagnostic.h"
#include "compiler/support/Source.h"

namespace ts::fe {

/// Reports an error at the first `T.<name>` of `src` when the file imports something (so it is
/// a Python program; printed tile IR imports nothing and keeps T by convention) and no token
/// binds `T`: no `import ... as T`, `import T`, `T = ...`, nor any use of `T` other than as
/// `T.<name>` (a parameter, a loop target). Lexical errors are left to the parser (they are not
/// reported twice).
void checkLanguageImport(const SourceFile& src, DiagnosticEngine& diags);

}  // namespace ts::fe
