// libFuzzer target: the whole compile() (compiler/Compile.h) — front end, every pass with the
// verifier after each, IR printing for the pass viewer, CUDA codegen — for cuda:sm_80, and for
// cuda:sm_90a for inputs of odd length (a cheap, mutation-stable coin). Findings: crashes, sanitizer reports, hangs,
// internal compiler errors (the verifier's included: a pass that produced invalid IR).
#include "compiler/Compile.h"
#include "tests/fuzz/FuzzCommon.h"
#include "tests/fuzz/StructuredMutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text;
    if (!ts::fuzz::inputText(data, size, text)) return 0;
    ts::fuzz::CpuHangGuard hangGuard;
    ts::CompileOptions opts;
    opts.target = (size & 1) ? "cuda:sm_90a" : "cuda:sm_80";
    auto r = ts::compile("fuzz.py", text, opts);
    ts::fuzz::abortOnInternalError(r.diagnostics, "pipeline");
    return 0;
}
