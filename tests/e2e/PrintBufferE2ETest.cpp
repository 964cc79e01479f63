// T.print of a whole buffer (frontend/ElaborateMath.cpp; tests/e2e/programs/print_buffers.py):
// every element printed once with its index on both interpreters -- the thread-level one by the
// thread that holds it, as on the GPU -- a per-thread local array by every thread, the message
// printf-escaped in the CUDA, and the kernel's output still right.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <string>

#include "compiler/interp/Interpreter.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/InlineProgram.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kProg = "tests/e2e/programs/print_buffers.py";

// The log of one run on the tile-level or the thread-level interpreter.
std::vector<std::string> printed(const ts::CompileResult& r, bool lowered) {
    auto ci = ts::e2e::makeCheckedInputs(r);
    std::vector<ts::HostTensor> args = ci.set.tensors;
    for (size_t i = 0; i < args.size(); ++i)
        if (ci.sig[i].isOutput) args[i].data.assign(static_cast<size_t>(args[i].numel()), 0.0);
    auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
    EXPECT_TRUE(run.ok) << (run.error ? run.error->message : "");
    return run.log;
}

// How often each "MSG[i, j] VALUE" text (the part after "block [0]...: ") was printed.
std::map<std::string, int> counts(const std::vector<std::string>& log) {
    std::map<std::string, int> c;
    for (auto& l : log) {
        auto at = l.find(": ");
        if (at != std::string::npos) ++c[l.substr(at + 2)];
    }
    return c;
}

TEST(PrintBuffer, EveryElementOnceWithItsIndexOnBothInterpreters) {
    ts::CompileResult r = ts::e2e::compileRepoFile(kProg);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    for (bool lowered : {false, true}) {
        std::vector<std::string> log = printed(r, lowered);
        auto c = counts(log);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                const std::string f = "f f[" + std::to_string(i) + ", " + std::to_string(j) + "] " + std::to_string(double(i * 10 + j));
                EXPECT_EQ(c[f], 1) << (lowered ? "lowered: " : "tile: ") << f;
            }
        // Local arrays belong to each thread: 32 copies on the thread level, one at tile level.
        EXPECT_EQ(c["loc[0] 7"], lowered ? 32 : 1);
        EXPECT_EQ(c["loc[1] 8"], lowered ? 32 : 1);
        int shared = 0;
        for (auto& l : log) shared += l.find(": s 100% s[") != std::string::npos;
        EXPECT_EQ(shared, 16) << (lowered ? "lowered" : "tile");
        if (lowered) {
            EXPECT_TRUE(std::regex_search(log.front(), std::regex(R"(^block \[0\] thread \d+: )"))) << log.front();
        } else {
            EXPECT_EQ(log.front().rfind("block [0]: s 100% s[0, 0] ", 0), 0u) << log.front();
        }
    }
    EXPECT_NE(r.cuda.find(R"(printf("s 100%% s[%lld, %lld] %f\n")"), std::string::npos) << r.cuda;
    ts::e2e::expectInterpretersMatchReference(r, "print_buffers");
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {});
}

}  // namespace

namespace {

// A uint64 value prints as itself (%llu on the GPU), not as the signed number of its bits
// (helper-133): 3 * 2^62 wraps to 2^63 + 2^62.
TEST(PrintBuffer, Uint64PrintsUnsigned) {
    const std::string src =
        "import tilelang.language as T\n\n\n"
        "@T.prim_func\n"
        "def main(A: T.Tensor((4,), \"uint64\"), B: T.Tensor((4,), \"uint64\")):\n"
        "    with T.Kernel(1, threads=32) as bx:\n"
        "        u = T.alloc_local((1,), \"uint64\")\n"
        "        u[0] = A[0] * 4611686018427387904\n"
        "        T.print(u[0], msg=\"u\")\n"
        "        for i in T.Parallel(4):\n"
        "            B[i] = A[i]\n";
    ts::CompileResult r = ts::e2e::compileInline("u64.py", src);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_NE(r.cuda.find(R"(printf("u %llu\n", (unsigned long long)(u[0])))"), std::string::npos) << r.cuda;
    for (bool lowered : {false, true}) {
        std::vector<ts::HostTensor> args{{ts::ir::DType::UInt64, {4}, {3, 1, 2, 3}}, {ts::ir::DType::UInt64, {4}, {0, 0, 0, 0}}};
        auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
        ASSERT_TRUE(run.ok) << (run.error ? run.error->message : "");  // the printf lines are the run's log
        ASSERT_FALSE(run.log.empty());
        const std::string& line = run.log.front();
        EXPECT_EQ(line.substr(line.find(": ") + 2), "u 13835058055282163712") << line;
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90aText("u64.py", src, {});
}

}  // namespace
