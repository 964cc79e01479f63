// Module globals that a file's `if __name__ == "__main__":` block defines (LANGUAGE.md §1).
// TileLang runs an example as a script, so a kernel body or factory that names a global the
// script's main block assigns (`H`, `block_counts`, `B, T, H = 1, 32, 1`) sees that value.
// TileScope compiles the file as imported (the main block does not run), and then binds, for
// names the rest of the file leaves undefined only, what the main block would have assigned:
// simple values (literals, arithmetic, tuples, dtypes, names of other such values) by
// evaluating them, everything else (torch tensors, argparse results, calls) as an opaque host
// value that is not None and is an error with a clear message when the kernel's meta code uses
// it otherwise. Names already defined at module level keep their import-time values, so a file
// compiles as before wherever it did.
#pragma once
#include "compiler/frontend/Ast.h"
#include "compiler/frontend/MetaEval.h"

namespace ts::fe {

/// Binds the names the main-guard blocks of `mod` assign and `globals` lacks (see above).
/// Never throws; statements that fail to evaluate bind host values.
void bindMainGuardGlobals(Interp& in, const ast::Module& mod, const EnvPtr& globals);

}  // namespace ts::fe
