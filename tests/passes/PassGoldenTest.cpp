// Golden pass tests (DESIGN.md §6 tests/passes/): each tests/passes/<case>.py names, in a header
// line `# golden: PASS [PASS...]`, the passes whose output IR is pinned, and optionally
// `# params: NAME=VALUE ...`. The IR printed after PASS must equal <case>.<PASS>.ir exactly; the
// input of that pass is the IR after the previous pass of the same compile (the program itself
// is the input text: our lowered IR does not re-parse, so a single pass cannot start from text).
// A pinned pass must also report `changed`, so a golden never silently pins a no-op.
//
// Refresh after an intended change, then review the diff before committing:
//   scripts/refresh-golden          (= TS_REFRESH_GOLDEN=1 ts_unit_tests
//   --gtest_filter='PassGolden*') git diff tests/passes
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/support/SourceDir.h"

namespace {

namespace fs = std::filesystem;

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

/// First differing line, for a readable failure.
std::string firstDifference(const std::string& want, const std::string& got) {
    std::istringstream a(want), b(got);
    std::string la, lb;
    for (int line = 1;; ++line) {
        bool ea = !std::getline(a, la), eb = !std::getline(b, lb);
        if (ea && eb) return "(identical)";
        if (ea || eb || la != lb)
            return "line " + std::to_string(line) + ":\n  expected: " + (ea ? "<end>" : la) +
                   "\n  actual:   " + (eb ? "<end>" : lb);
    }
}

struct Case {
    fs::path file;
    std::vector<std::string> passes;
    std::map<std::string, std::string> params;
};

std::vector<Case> cases() {
    std::vector<Case> out;
    for (auto& e : fs::directory_iterator(fs::path(TS_SOURCE_DIR) / "tests" / "passes")) {
        if (e.path().extension() != ".py") continue;
        Case c;
        c.file = e.path();
        std::istringstream in(readAll(e.path()));
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("# golden:", 0) == 0) c.passes = words(line.substr(9));
            if (line.rfind("# params:", 0) == 0)
                for (auto& kv : words(line.substr(9)))
                    if (auto eq = kv.find('='); eq != std::string::npos)
                        c.params[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
        out.push_back(std::move(c));
    }
    std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.file < b.file; });
    return out;
}

}  // namespace

TEST(PassGolden, EveryPinnedPassMatches) {
    const bool refresh = std::getenv("TS_REFRESH_GOLDEN") != nullptr;
    auto all = cases();
    ASSERT_GE(all.size(), 4u) << "tests/passes lost its cases";
    int checked = 0;
    for (const Case& c : all) {
        SCOPED_TRACE(c.file.filename().string());
        ASSERT_FALSE(c.passes.empty()) << "no `# golden: PASS ...` line";
        ts::CompileOptions o;
        o.params = c.params;
        o.target = "cuda:sm_80";
        auto r = ts::compile(c.file.filename().string(), readAll(c.file), o);
        ASSERT_TRUE(r.ok) << (r.diagnostics.empty() ? std::string("compile failed")
                                                    : r.diagnostics[0].message);
        for (const std::string& pass : c.passes) {
            const ts::PassSnapshot* snap = nullptr;
            for (auto& s : r.passes)
                if (s.name == pass) snap = &s;
            ASSERT_NE(snap, nullptr) << "no pass named " << pass;
            EXPECT_TRUE(snap->changed) << pass << " pinned but did not change the IR";
            fs::path golden = c.file;
            golden.replace_extension("." + pass + ".ir");
            if (refresh) {
                std::ofstream(golden, std::ios::binary) << snap->ir;
                continue;
            }
            ASSERT_TRUE(fs::exists(golden)) << golden << " missing: run scripts/refresh-golden";
            std::string want = readAll(golden);
            EXPECT_EQ(want, snap->ir)
                << "IR after " << pass << " differs from " << golden.filename() << " at "
                << firstDifference(want, snap->ir)
                << "\n(if intended: scripts/refresh-golden, review git diff tests/passes)";
            ++checked;
        }
    }
    if (!refresh) {
        EXPECT_GE(checked, 8);
    }
}
