// Helpers for the elaboration tests (ElaborateTest, ElaborateErrorTest): run the whole front end
// on a source text and return the printed IR, or the first error as "ERROR: message".
#pragma once
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/frontend/Elaborate.h"
#include "compiler/ir/Printer.h"
#include "tests/support/SourceDir.h"

namespace elab_test {

struct Elaborated {
    ts::DiagnosticEngine diags;
    ts::fe::FrontendResult result;
    std::string ir;  ///< printed IR, empty on error
    const ts::Diagnostic* firstError() const {
        for (const auto& d : diags.all())
            if (d.severity == ts::Severity::Error) return &d;
        return nullptr;
    }
    /// The warnings, in the order they were reported.
    std::vector<const ts::Diagnostic*> warnings() const {
        std::vector<const ts::Diagnostic*> w;
        for (const auto& d : diags.all())
            if (d.severity == ts::Severity::Warning) w.push_back(&d);
        return w;
    }
};

inline std::unique_ptr<Elaborated> elaborateText(const std::string& text,
                                                 std::map<std::string, std::string> params = {}) {
    auto e = std::make_unique<Elaborated>();
    e->result =
        ts::fe::runFrontend(std::make_shared<ts::SourceFile>("k.py", text), params, e->diags);
    if (e->result.func) e->ir = ts::ir::print(e->result.func).text;
    return e;
}

/// Printed IR of `text`, or "ERROR: <first error message>".
inline std::string irOf(const std::string& text, std::map<std::string, std::string> params = {}) {
    auto e = elaborateText(text, std::move(params));
    if (const ts::Diagnostic* d = e->firstError()) return "ERROR: " + d->message;
    return e->ir;
}

inline std::string readSample(const std::string& name) {
    std::ifstream in(std::string(TS_SOURCE_DIR) + "/samples/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Wraps a kernel body (indented by 8 spaces in `body`) in a bare prim_func with tensors
/// A (64, 64) float16, B (64, 64) float16 and C (64, 64) float32.
inline std::string kernel(const std::string& body, const std::string& prelude = "") {
    return "import tilelang.language as T\n" + prelude +
           "@T.prim_func\n"
           "def k(A: T.Tensor((64, 64), \"float16\"), B: T.Tensor((64, 64), \"float16\"), C: "
           "T.Tensor((64, 64), \"float32\")):\n"
           "    with T.Kernel(2, 2, threads=128) as (bx, by):\n" +
           body;
}

}  // namespace elab_test
