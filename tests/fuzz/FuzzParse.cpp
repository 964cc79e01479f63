// libFuzzer target: the lexer and the parser (compiler/frontend/Lexer.h, Parser.h) on arbitrary
// bytes. Findings: crashes, sanitizer reports, hangs (the parser must stay linear-ish).
#include "compiler/frontend/Lexer.h"
#include "compiler/frontend/Parser.h"
#include "tests/fuzz/FuzzCommon.h"
#include "tests/fuzz/StructuredMutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text;
    if (!ts::fuzz::inputText(data, size, text)) return 0;
    ts::fuzz::CpuHangGuard hangGuard;
    auto src = std::make_shared<ts::SourceFile>("fuzz.py", text);
    ts::DiagnosticEngine diags;
    auto toks = ts::fe::tokenize(*src, diags);
    ts::DiagnosticEngine diags2;
    auto mod = ts::fe::parseModule(src, diags2);
    if (!mod) std::abort();  // parseModule never returns null
    ts::fuzz::abortOnInternalError(diags2.all(), "parse");
    return 0;
}
