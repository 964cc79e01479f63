// A pytest-style test function of TileLang's own suite defines its kernel and then goes on with
// host code TileScope does not run (tl.compile, torch inputs, the kernel call, asserts): the
// kernel is the @T.prim_func defined there, with a warning at the first statement not run. An
// error before the kernel is defined stays an error, and so does one after it in a @tilelang.jit
// factory (its body is kernel-building code, not a harness).
#include <string>

#include <gtest/gtest.h>

#include "compiler/Compile.h"

using namespace ts;

namespace {
const char* kTest = R"(import tilelang
import tilelang as tl
import tilelang.language as T
import torch


def test_double():
    N = 256

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as _:
            for i in T.Parallel(N):
                B[i] = A[i] * 2

    kernel = tl.compile(main, out_idx=-1)
    a = torch.randn(N).cuda()
    torch.testing.assert_close(kernel(a), a * 2)


@tilelang.jit(out_idx=[-1])
def factory_broken_after(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=64) as _:
            for i in T.Parallel(N):
                B[i] = A[i]

    t = undefined_after
    return main


def test_broken_before():
    N = undefined_name

    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as _:
            pass
)";

const Diagnostic* find(const CompileResult& r, Severity s, const std::string& text) {
    for (auto& d : r.diagnostics)
        if (d.severity == s && d.message.find(text) != std::string::npos) return &d;
    return nullptr;
}
}  // namespace

TEST(TestFunctionKernel, TheKernelDefinedBeforeTheHostCodeCompilesWithAWarning) {
    CompileOptions o;
    o.kernel = "test_double";
    auto r = compile("test_x.py", kTest, o);
    ASSERT_TRUE(r.ok);
    const Diagnostic* w = find(r, Severity::Warning, "'test_double' goes on after its @T.prim_func 'main' (line 11)");
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->span.line, 16u);  // kernel = tl.compile(main, ...)
    EXPECT_NE(w->message.find("the kernel is 'main' as defined there"), std::string::npos) << w->message;
    EXPECT_NE(r.cuda.find("B[") , std::string::npos);
}

TEST(TestFunctionKernel, AnErrorBeforeTheKernelIsDefinedStaysAnError) {
    CompileOptions o;
    o.kernel = "test_broken_before";
    auto r = compile("test_x.py", kTest, o);
    EXPECT_FALSE(r.ok);
    const Diagnostic* e = find(r, Severity::Error, "undefined_name");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->span.line, 34u);
}

TEST(TestFunctionKernel, AnErrorAfterTheKernelInAJitFactoryStaysAnError) {
    CompileOptions o;
    o.kernel = "factory_broken_after";
    auto r = compile("test_x.py", kTest, o);
    EXPECT_FALSE(r.ok);
    const Diagnostic* e = find(r, Severity::Error, "undefined_after");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->span.line, 29u);
}
