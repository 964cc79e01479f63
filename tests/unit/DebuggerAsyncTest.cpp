// The step debugger's asynchronous control (compiler/debugger/Debugger.h), what the IDE's panel
// uses so that a long Continue does not block its UI thread: post() returns at once while the
// worker runs, progress() grows, interrupt() pauses the run at the next statement with the
// machine inspectable there (the loop variable of the pipelined loop has a value inside the
// loop), the run continues to the end from that pause with the float64 result, and destroying
// a debugger whose Continue is running ends it promptly. gemm 64x64 with K = 16384: 512 pipelined
// iterations, a block that runs for well over the time these checks need.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/debugger/Debugger.h"
#include "profiler/check/Inputs.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {
using namespace ts;
using Clock = std::chrono::steady_clock;

CompileResult compileLongGemm() {
    CompileOptions o;
    o.params = {{"M", "64"}, {"N", "64"}, {"K", "16384"}, {"block_M", "64"}, {"block_N", "64"},
                {"block_K", "32"}, {"num_stages", "2"}};
    return compile("samples/gemm.py", e2e::readRepoFile("samples/gemm.py"), o);
}

std::vector<HostTensor> argsFor(const CompileResult& r) {
    std::vector<rt::TensorParam> sig;
    for (auto& a : r.kernel.args) sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
    auto set = rt::makeInputs(sig, {});
    for (size_t i = 0; i < sig.size(); ++i)
        if (sig[i].isOutput) set.tensors[i].data.assign(size_t(set.tensors[i].numel()), std::nan(""));
    return set.tensors;
}

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

TEST(DebuggerAsync, PostReturnsAtOnceInterruptPausesAndTheRunFinishesRight) {
    auto r = compileLongGemm();
    ASSERT_TRUE(r.ok) << e2e::diagText(r);
    auto args = argsFor(r);
    dbg::Debugger d(r.lowered, r.elaborated, args);
    d.start();
    ASSERT_FALSE(d.running());
    auto t0 = Clock::now();
    d.post(dbg::Command::Continue);
    EXPECT_LT(msSince(t0), 50.0);  // the controller is not blocked
    EXPECT_TRUE(d.running());
    EXPECT_FALSE(d.wait(std::chrono::milliseconds(150)));  // still running after 150 ms
    const uint64_t p1 = d.progress();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_GT(d.progress(), p1);
    EXPECT_GT(d.progressLine(), 0u);
    d.interrupt();
    ASSERT_TRUE(d.wait(std::chrono::milliseconds(2000)));
    EXPECT_FALSE(d.running());
    ASSERT_EQ(d.stop().reason, dbg::Stop::Reason::Paused) << d.stop().error;
    EXPECT_GE(d.stop().event, p1);
    // The pause lands on whatever statement runs then: inside the pipelined loop, possibly in a
    // loop nested in its body (a copy or gemm loop), so look for the pipelined loop in the stack.
    auto loops = d.loops();
    auto pipelined = std::find_if(loops.begin(), loops.end(), [](const auto& l) { return l.pipelined; });
    ASSERT_NE(pipelined, loops.end()) << loops.size() << " loops open, none pipelined";
    EXPECT_GE(pipelined->value, 0);
    EXPECT_LT(pipelined->value, 511);  // paused before the last of the 512 iterations
    // Interrupting with nothing running has no effect on the next command.
    d.interrupt();
    d.post(dbg::Command::Continue);
    ASSERT_TRUE(d.wait(std::chrono::seconds(120)));
    ASSERT_EQ(d.stop().reason, dbg::Stop::Reason::Finished) << d.stop().error;
    // C as the run left it against the float64 product (fp16 output: 2^-10 relative).
    const int64_t K = 16384;
    for (auto [i, j] : {std::pair{0, 0}, {5, 17}, {63, 63}}) {
        double ref = 0;
        for (int64_t k = 0; k < K; ++k) ref += args[0].data[size_t(i * K + k)] * args[1].data[size_t(k * 64 + j)];
        auto v = d.element("C", i * 64 + j, 0);
        ASSERT_TRUE(v);
        EXPECT_NEAR(*v, ref, 2e-3 * (1 + std::fabs(ref))) << i << "," << j;
    }
}

TEST(DebuggerAsync, DestroyingADebuggerWhoseContinueRunsEndsItPromptly) {
    auto r = compileLongGemm();
    ASSERT_TRUE(r.ok) << e2e::diagText(r);
    auto d = std::make_unique<dbg::Debugger>(r.lowered, r.elaborated, argsFor(r));
    d->start();
    d->post(dbg::Command::Continue);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    ASSERT_TRUE(d->running());
    auto t0 = Clock::now();
    d.reset();
    EXPECT_LT(msSince(t0), 500.0);
}

}  // namespace
