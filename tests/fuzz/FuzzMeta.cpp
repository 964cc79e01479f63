// libFuzzer target: the front end up to Tile IR — module analysis, the meta-evaluator running
// the factory with its defaults, elaboration (compiler/frontend/Elaborate.h runFrontend) — and
// the IR verifier on what it produces. Findings: crashes, sanitizer reports, hangs, internal
// errors, and elaborated IR the verifier rejects without an error diagnostic.
#include "compiler/frontend/Elaborate.h"
#include "compiler/frontend/Module.h"
#include "compiler/ir/Verifier.h"
#include "tests/fuzz/FuzzCommon.h"
#include "tests/fuzz/StructuredMutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text;
    if (!ts::fuzz::inputText(data, size, text)) return 0;
    ts::fuzz::CpuHangGuard hangGuard;
    auto src = std::make_shared<ts::SourceFile>("fuzz.py", text);
    ts::DiagnosticEngine diags;
    auto fr = ts::fe::runFrontend(src, {}, diags);
    ts::fuzz::abortOnInternalError(diags.all(), "frontend");
    if (fr.func && !diags.hasErrors()) {
        auto problems = ts::ir::verify(fr.func);
        if (!problems.empty()) {
            std::fprintf(stderr, "FUZZ FINDING (elaborate): invalid IR: %s\n", problems[0].c_str());
            std::abort();
        }
    }
    return 0;
}
