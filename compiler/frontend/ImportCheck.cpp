#include "compiler/frontend/ImportCheck.h"

#include <vector>

#include "compiler/frontend/Lexer.h"

namespace ts::fe {

void checkLanguageImport(const SourceFile& src, DiagnosticEngine& diags) {
    DiagnosticEngine lexDiags;  // the parser reports lexical errors itself
    const std::vector<Token> toks = tokenize(src, lexDiags);
    const Token* firstUse = nullptr;
    bool imports = false;
    for (size_t i = 0; i < toks.size(); ++i) {
        const Token& t = toks[i];
        imports = imports || t.kind == Tok::KwImport;
        if (t.kind != Tok::Name || t.text != "T") continue;
        if (i > 0 && toks[i - 1].kind == Tok::Dot) continue;  // x.T: an attribute, not the name
        const bool attribute = i + 1 < toks.size() && toks[i + 1].kind == Tok::Dot;
        // `import ... as T`, `import T`, `T = ...`, `def f(T)`, `for T in`: T is bound (or used
        // some other way this check does not model): leave it to the evaluator.
        if (!attribute) return;
        if (!firstUse) firstUse = &t;
    }
    // Printed tile IR (tilec --print-after, the round-trip tests) has no imports at all and
    // uses T by convention; a file that imports something is a Python program and must bind T.
    if (!firstUse || !imports) return;
    diags.error(firstUse->span,
                "name 'T' is not defined: the file uses T." +
                    (firstUse + 2 < toks.data() + toks.size() && firstUse[2].kind == Tok::Name
                         ? firstUse[2].text
                         : std::string("...")) +
                    " but never imports T (Python raises NameError here)",
                "add `import tilelang.language as T` at the top of the file", "parse");
}

}  // namespace ts::fe
