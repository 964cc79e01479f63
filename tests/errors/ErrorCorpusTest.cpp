// The expected-error corpus (DESIGN.md §6): every tests/errors/*.py carries annotations
//   # expect-error(col N): message substring
// on the line where an error must be reported (the "(col N)" part also checks the column); a
// comment line
//   # expect-hint: hint substring
// right after it also checks that error's hint.
// A file fails on a missing, an extra, or an internal-error diagnostic. Directives in the
// file's first lines:
//   # params: NAME=VALUE ...          factory parameter overrides for the compile
//   # launch: NAME=DIMxDIM:dtype ...  after compiling, check these launch arguments against the
//                                     kernel signature (errors point at the parameter's line)
//   # kernel: NAME                    the kernel to compile (CompileOptions::kernel, --kernel)
// A `# tilescope:` pragma (ParamPragma.h) applies as in tilec: its values are parameters and its
// `@kernel=` selects the kernel unless `# kernel:` does.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "compiler/Compile.h"
#include "compiler/support/ParamPragma.h"
#include "profiler/cuda/Launch.h"
#include "tests/support/SourceDir.h"

namespace {

namespace fs = std::filesystem;

struct Expectation {
    uint32_t line;
    int col;  // -1: any
    std::string text;
    bool matched = false;
    std::string hint;  ///< expect-hint: substring of the diagnostic's hint ("" = not checked)
};

std::string readAll(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<fs::path> corpus() {
    std::vector<fs::path> out;
    for (auto& e : fs::directory_iterator(fs::path(TS_SOURCE_DIR) / "tests" / "errors"))
        if (e.path().extension() == ".py") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<ts::Diagnostic> launchErrors(const ts::CompileResult& r, const std::string& spec) {
    // spec: A=4x4x4:float16 B=... ; unspecified parameters are taken from the signature.
    std::vector<ts::rt::TensorParam> sig;
    std::vector<ts::rt::ArgSpec> actual;
    for (auto& a : r.kernel.args) {
        sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
        actual.push_back({a.dtype, a.shape});
    }
    std::istringstream in(spec);
    std::string tok;
    while (in >> tok) {
        auto eq = tok.find('='), colon = tok.find(':');
        std::string name = tok.substr(0, eq);
        std::string dims = tok.substr(eq + 1, colon == std::string::npos ? std::string::npos : colon - eq - 1);
        for (size_t i = 0; i < sig.size(); ++i) {
            if (sig[i].name != name) continue;
            actual[i].shape.clear();
            std::stringstream ds(dims);
            std::string d;
            while (std::getline(ds, d, 'x')) actual[i].shape.push_back(std::stoll(d));
            if (colon != std::string::npos) actual[i].dtype = *ts::ir::parseDType(tok.substr(colon + 1));
        }
    }
    std::vector<ts::Diagnostic> out;
    if (auto err = ts::rt::checkArguments(sig, actual)) {
        // Point at the parameter named in the message.
        ts::Span sp;
        for (auto& a : r.kernel.args)
            if (err->find("'" + a.name + "'") != std::string::npos) {
                sp = a.span;
                break;
            }
        out.push_back({ts::Severity::Error, sp, *err, {}, "launch"});
    }
    return out;
}

class ErrorCorpus : public ::testing::TestWithParam<fs::path> {};

TEST_P(ErrorCorpus, ReportsExactlyTheAnnotatedErrors) {
    const fs::path path = GetParam();
    std::string text = readAll(path);
    std::vector<Expectation> expect;
    ts::CompileOptions opts;
    std::string launch;
    std::istringstream lines(text);
    std::string line;
    static const std::regex kExpect(R"(#\s*expect-error(?:\(col (\d+)\))?:\s*(.*\S)\s*$)");
    static const std::regex kHint(R"(^\s*#\s*expect-hint:\s*(.*\S)\s*$)");
    uint32_t n = 0;
    while (std::getline(lines, line)) {
        ++n;
        std::smatch m;
        if (std::regex_search(line, m, kExpect)) expect.push_back({n, m[1].matched ? std::stoi(m[1]) : -1, m[2], false});
        if (std::regex_search(line, m, kHint)) {
            EXPECT_FALSE(expect.empty()) << path << ":" << n << ": expect-hint before any expect-error";
            if (!expect.empty()) expect.back().hint = m[1];
        }
        if (line.rfind("# params:", 0) == 0) {
            std::istringstream ps(line.substr(9));
            std::string kv;
            while (ps >> kv) opts.params[kv.substr(0, kv.find('='))] = kv.substr(kv.find('=') + 1);
        }
        if (line.rfind("# launch:", 0) == 0) launch = line.substr(9);
        if (line.rfind("# kernel:", 0) == 0) std::istringstream(line.substr(9)) >> opts.kernel;
    }
    ASSERT_FALSE(expect.empty()) << path << " has no expect-error annotation";

    for (auto& [k, v] : ts::parseParamPragma(text)) opts.params.emplace(k, v);
    if (opts.kernel.empty()) opts.kernel = ts::pragmaSetting(opts.params, ts::kPragmaKernel);
    ts::CompileResult r = ts::compile(path.string(), text, opts);
    std::vector<ts::Diagnostic> diags;
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Error) diags.push_back(d);
    if (!launch.empty()) {
        ASSERT_TRUE(r.ok) << path << ": compile failed before the launch check";
        diags = launchErrors(r, launch);
    }
    for (auto& d : diags) {
        std::string where = path.filename().string() + ":" + std::to_string(d.span.line) + ":" + std::to_string(d.span.col);
        EXPECT_EQ(d.message.find("internal"), std::string::npos) << where << ": internal error reached the user: " << d.message;
        bool found = false;
        for (auto& e : expect) {
            if (e.matched || e.line != d.span.line || d.message.find(e.text) == std::string::npos) continue;
            if (e.col >= 0 && static_cast<uint32_t>(e.col) != d.span.col) continue;
            e.matched = found = true;
            EXPECT_NE(d.hint.find(e.hint), std::string::npos)
                << where << ": the hint of '" << d.message << "' lacks '" << e.hint
                << "'; it is: " << d.hint;
            break;
        }
        EXPECT_TRUE(found) << where << ": unexpected error: " << d.message;
    }
    for (auto& e : expect)
        EXPECT_TRUE(e.matched) << path.filename().string() << ":" << e.line << (e.col >= 0 ? ":" + std::to_string(e.col) : "")
                               << ": expected error containing '" << e.text << "' was not reported";
}

INSTANTIATE_TEST_SUITE_P(Corpus, ErrorCorpus, ::testing::ValuesIn(corpus()),
                         [](const ::testing::TestParamInfo<fs::path>& i) {
                             std::string s = i.param.stem().string();
                             for (auto& c : s)
                                 if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                             return s;
                         });

TEST(ErrorCorpusSize, HasAtLeastEightyPrograms) { EXPECT_GE(corpus().size(), 80u); }  // issue 14

}  // namespace
