// Helpers for the tilec tests (CliRunTest, CliCompileTest, CliLayoutTest): run one subcommand of
// app/cli (linked as ts_cli) in-process and capture its exit code, stdout and stderr, and write
// variants of the samples into a scratch folder.
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "app/cli/Commands.h"
#include "tests/support/SourceDir.h"

namespace ts::cli::test {

/// What a subcommand did: its exit code and everything it printed.
struct CliOutcome {
    int rc = -1;
    std::string out, err;
};

/// Runs `f` (returning an exit code) with stdout and stderr captured.
template <class F>
CliOutcome captureCli(F&& f) {
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    CliOutcome o;
    o.rc = f();
    std::fflush(nullptr);
    o.out = testing::internal::GetCapturedStdout();
    o.err = testing::internal::GetCapturedStderr();
    return o;
}

/// The text of samples/NAME.
inline std::string sampleText(const std::string& name) {
    std::ifstream in(std::string(TS_SOURCE_DIR) + "/samples/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// `text` with the first occurrence of `from` replaced by `to` (the test fails if absent).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
    auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "'" << from << "' not in the sample";
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

/// Writes `text` to a scratch file NAME and returns its path.
inline std::string writeScratch(const std::string& name, const std::string& text) {
    auto dir = std::filesystem::path(testing::TempDir()) / "ts_cli_test";
    std::filesystem::create_directories(dir);
    auto p = dir / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
}

inline bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

/// `tilec run FILE --interp=INTERP --target cuda:sm_80 --seed SEED` with `--param`s `params`.
inline CliOutcome runOnInterp(const std::string& file, const std::string& interp, std::vector<std::string> params,
                              uint64_t seed) {
    RunCommand c;
    c.flags.file = file;
    c.flags.target = "cuda:sm_80";
    c.flags.params = std::move(params);
    c.interp = interp;
    c.seed = seed;
    return captureCli([&] { return runRun(c); });
}

}  // namespace ts::cli::test
