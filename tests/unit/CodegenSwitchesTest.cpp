// A compile under a TILESCOPE_* measurement switch (TILESCOPE_SINK_TMA_WAITS=0, ...) says so in a
// note naming each switch and its value; locations and runtime limits (TILESCOPE_CACHE_DIR,
// TILESCOPE_WORKER_TIMEOUT, ...) do not count; nothing is said without a switch.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/support/CodegenSwitches.h"
#include "tests/support/SourceDir.h"

using namespace ts;

namespace {
const char* kProgram = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def copy(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(N):
                B[i] = A[i] * 2

    return main
)";

std::string switchNote(const CompileResult& r) {
    for (auto& d : r.diagnostics)
        if (d.severity == Severity::Note && d.message.find("codegen switches") != std::string::npos) return d.message;
    return {};
}

// Clears every TILESCOPE_* variable of the test process for its lifetime, restoring none: each
// gtest case runs in a process of its own under ctest.
void clearTilescopeEnv() {
    for (auto& [k, v] : codegenSwitchesFromEnv()) unsetenv(k.c_str());
}
}  // namespace

TEST(CodegenSwitches, ACompileUnderASwitchNamesItAndItsValue) {
    clearTilescopeEnv();
    CompileOptions o;
    EXPECT_EQ(switchNote(compile("copy.py", kProgram, o)), "");
    setenv("TILESCOPE_SINK_TMA_WAITS", "0", 1);
    setenv("TILESCOPE_HOPPER_PINGPONG", "1", 1);
    setenv("TILESCOPE_CACHE_DIR", "/tmp/x", 1);      // a location: not a switch
    setenv("TILESCOPE_WORKER_TIMEOUT", "60", 1);     // a runtime limit: not a switch
    setenv("TILESCOPE_RASTER_PANEL", "", 1);         // empty: unset
    setenv("TILESCOPE_PROGRESS", "1", 1);            // read by nothing: not a switch
    auto r = compile("copy.py", kProgram, o);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(switchNote(r), "compiled with codegen switches from the environment: TILESCOPE_HOPPER_PINGPONG=1, TILESCOPE_SINK_TMA_WAITS=0");
    EXPECT_EQ(describeCodegenSwitches(), "TILESCOPE_HOPPER_PINGPONG=1, TILESCOPE_SINK_TMA_WAITS=0");
    unsetenv("TILESCOPE_SINK_TMA_WAITS");
    unsetenv("TILESCOPE_HOPPER_PINGPONG");
    EXPECT_EQ(switchNote(compile("copy.py", kProgram, o)), "");
}

// The list in CodegenSwitches.cpp names every TILESCOPE_* variable the compiler reads.
TEST(CodegenSwitches, EveryVariableTheCompilerReadsIsListed) {
    const std::set<std::string> known(knownCodegenSwitches().begin(), knownCodegenSwitches().end());
    const std::regex get(R"re(getenv\("(TILESCOPE_[A-Z0-9_]+)"\))re");
    int found = 0;
    for (auto& e : std::filesystem::recursive_directory_iterator(std::filesystem::path(TS_SOURCE_DIR) / "compiler")) {
        if (!e.is_regular_file() || (e.path().extension() != ".cpp" && e.path().extension() != ".h")) continue;
        std::ifstream in(e.path());
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        for (std::sregex_iterator it(text.begin(), text.end(), get), end; it != end; ++it, ++found)
            EXPECT_TRUE(known.count((*it)[1].str())) << (*it)[1].str() << " (read in " << e.path() << ") is not in knownCodegenSwitches()";
    }
    EXPECT_GE(found, 15);  // the scan saw the passes' switches
}
