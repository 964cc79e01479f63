// Parameters without a default take the values of the file's own call of the kernel
// (compiler/frontend/KernelCallSite.h; fresh-user defect D8: TileLang's quickstart asked for six
// --param's although it calls `matmul.compile(M=M, ..., block_K=block_K)` at module level).
// The programs are ours, written in the shapes TileLang files use.
#include <gtest/gtest.h>

#include "tests/unit/ElaborateTestUtil.h"

using namespace ts;
using namespace elab_test;

namespace {

// Eager kernel with T.const sizes, compiled at module level with keywords (the quickstart shape).
const char* kEagerModuleCompile = R"(import tilelang
import tilelang.language as T


@tilelang.jit
def scale(A, block_M: int, block_N: int):
    M, N = T.const("M, N")
    A: T.Tensor((M, N), T.float32)
    B = T.empty((M, N), T.float32)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        A_local = T.alloc_fragment((block_M, block_N), T.float32)
        T.copy(A[by * block_M, bx * block_N], A_local)
        for i, j in T.Parallel(block_M, block_N):
            A_local[i, j] = A_local[i, j] * 2
        T.copy(A_local, B[by * block_M, bx * block_N])
    return B


M = 256
N = 2 * 64
block_M = 32

scale_kernel = scale.compile(M=M, N=N, block_M=block_M, block_N=64)
import torch
a = torch.randn(M, N, device="cuda")
print(scale_kernel(a))
)";

// Factory without defaults, called from main() with main's defaults and a simple assignment,
// which `if __name__ == "__main__":` runs with an argparse default.
const char* kFactoryFromMain = R"(import argparse
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def add(M, N, block_M, block_N, dtype):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_local = T.alloc_fragment((block_M, block_N), dtype)
            B_local = T.alloc_fragment((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], A_local)
            T.copy(B[by * block_M, bx * block_N], B_local)
            for i, j in T.Parallel(block_M, block_N):
                A_local[i, j] = A_local[i, j] + B_local[i, j]
            T.copy(A_local, C[by * block_M, bx * block_N])

    return main


def run(M, N, block, dtype):
    kernel = add(M, N, block, block * 2, dtype)
    return kernel


def main(M=512, N=1024, dtype=T.float16):
    half = M // 2
    run(half, N, 32, dtype)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=4096)
    parser.add_argument("--use-tma", action="store_true")
    args = parser.parse_args()
    if not args.use_tma:
        main(N=args.n // 16)
)";

// Eager kernel called with torch tensors: its T.const sizes come from their shapes.
const char* kEagerFromTensors = R"(import tilelang
import tilelang.language as T
import torch


@tilelang.jit
def rowcopy(A, block_M: int = 32):
    M, N = T.const("M, N")
    A: T.Tensor((M, N), T.float32)
    B = T.empty((M, N), T.float32)
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        A_local = T.alloc_fragment((block_M, N), T.float32)
        T.copy(A[bx * block_M, 0], A_local)
        T.copy(A_local, B[bx * block_M, 0])
    return B


def main():
    rows, cols = 96, 64
    a = torch.randn(rows, cols, dtype=torch.float32).cuda().contiguous()
    b = rowcopy(a)


if __name__ == "__main__":
    main()
)";

const Diagnostic* noteOf(const Elaborated& e) {
    for (const auto& d : e.diags.all())
        if (d.severity == Severity::Note && d.origin == "params") return &d;
    return nullptr;
}

/// The call-site note's message of `src` elaborated, or what went wrong instead.
std::string noteText(const std::string& src) {
    auto e = elaborateText(src);
    if (const Diagnostic* d = e->firstError()) return "ERROR: " + d->message;
    const Diagnostic* n = noteOf(*e);
    return n ? n->message : "NO NOTE";
}

}  // namespace

TEST(KernelCallSiteTest, EagerKernelTakesTheSizesOfItsModuleLevelCompileCall) {
    auto e = elaborateText(kEagerModuleCompile);
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    EXPECT_NE(e->ir.find("def scale(A: T.Tensor((256, 128), \"float32\"), B: T.Tensor((256, 128), "
                         "\"float32\")):"),
              std::string::npos)
        << e->ir;
    EXPECT_NE(e->ir.find("with T.Kernel(2, 8, threads=128)"), std::string::npos) << e->ir;
    const Diagnostic* note = noteOf(*e);
    ASSERT_NE(note, nullptr);
    EXPECT_EQ(note->message,
              "'scale' takes block_M=32, block_N=64, M=256, N=128 from this call (module level)");
    EXPECT_EQ(note->span.line, 23);
    EXPECT_EQ(note->span.col, 16);
    EXPECT_EQ(note->hint, "--param NAME=VALUE overrides them");
}

TEST(KernelCallSiteTest, ParamOverridesTheCallsValue) {
    auto e = elaborateText(kEagerModuleCompile, {{"M", "64"}, {"block_N", "32"}});
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    EXPECT_NE(e->ir.find("A: T.Tensor((64, 128), \"float32\")"), std::string::npos) << e->ir;
    EXPECT_NE(e->ir.find("with T.Kernel(4, 2, threads=128)"), std::string::npos) << e->ir;
    ASSERT_NE(noteOf(*e), nullptr);
    EXPECT_EQ(noteOf(*e)->message,
              "'scale' takes block_M=32, N=128 from this call (module level)");
}

TEST(KernelCallSiteTest, FactoryTakesTheValuesMainPassesThroughAHelper) {
    // __main__ calls main(N=args.n // 16) with argparse's defaults (n = 4096, use_tma False):
    // M = 512 (main's default) // 2, N = 256, block 32, block_N 64, dtype float16 (main's).
    auto e = elaborateText(kFactoryFromMain);
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    EXPECT_NE(e->ir.find("def add(A: T.Tensor((256, 256), \"float16\"), B: T.Tensor((256, 256), "
                         "\"float16\"), C: T.Tensor((256, 256), \"float16\")):"),
              std::string::npos)
        << e->ir;
    EXPECT_NE(e->ir.find("with T.Kernel(4, 8, threads=128)"), std::string::npos) << e->ir;
    ASSERT_NE(noteOf(*e), nullptr);
    EXPECT_EQ(noteOf(*e)->message,
              "'add' takes M=256, N=256, block_M=32, block_N=64, dtype=float16 from this call "
              "(__main__ -> main() -> run())");
    EXPECT_EQ(noteOf(*e)->span.line, 24);
}

TEST(KernelCallSiteTest, EagerSizesComeFromTheShapesOfTheTensorsPassed) {
    auto e = elaborateText(kEagerFromTensors);
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    EXPECT_NE(e->ir.find("A: T.Tensor((96, 64), \"float32\")"), std::string::npos) << e->ir;
    EXPECT_NE(e->ir.find("with T.Kernel(3, threads=128)"), std::string::npos) << e->ir;
    ASSERT_NE(noteOf(*e), nullptr);
    EXPECT_EQ(noteOf(*e)->message,
              "'rowcopy' takes M=96, N=64 from this call (__main__ -> main())");
}

TEST(KernelCallSiteTest, ValuesTheCallCannotGiveAreStillReportedWithWhatToDo) {
    // The size comes from argparse, which is never run: no value, and the error says so.
    std::string src = kEagerModuleCompile;
    src.replace(src.find("M = 256"), 7, "M = parse_args().m");
    auto e = elaborateText(src);
    const Diagnostic* err = e->firstError();
    ASSERT_NE(err, nullptr);
    EXPECT_EQ(err->message, "size 'M' (T.const) of 'scale' has no value");
    EXPECT_EQ(err->hint,
              "pass --param M=<value> (a T.const size has no default; no call of 'scale' in the "
              "file gives it)");
    ASSERT_NE(noteOf(*e), nullptr);
    EXPECT_EQ(noteOf(*e)->message,
              "'scale' takes block_M=32, block_N=64, N=128 from this call (module level)");
    auto fixed = elaborateText(src, {{"M", "64"}});
    EXPECT_EQ(fixed->firstError(), nullptr) << fixed->firstError()->message;
}

TEST(KernelCallSiteTest, SignatureDefaultsWinOverTheCall) {
    // A default is what the IDE's parameter panel shows: the call only fills missing values.
    std::string src = kEagerModuleCompile;
    src.replace(src.find("block_N: int)"), 13, "block_N: int = 128)");
    auto e = elaborateText(src);
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    EXPECT_NE(e->ir.find("with T.Kernel(1, 8, threads=128)"), std::string::npos) << e->ir;
    // ... and the note names the default kept against the call's value (new-user trial: NSA's
    // block_size/groups/selected_blocks silently kept their defaults).
    EXPECT_EQ(noteOf(*e)->message,
              "'scale' takes block_M=32, M=256, N=128 from this call (module level); it keeps its "
              "defaults block_N=128 (the call passes 64)");
}

TEST(KernelCallSiteTest, TheNoteGivesTheParamsThatCompileWhatTheCallCompiles) {
    std::string src = kEagerModuleCompile;
    src.replace(src.find("block_N: int)"), 13, "block_N: int = 128)");
    auto e = elaborateText(src);
    ASSERT_NE(noteOf(*e), nullptr);
    EXPECT_EQ(noteOf(*e)->hint, "a parameter with a default takes the call's value only when you pass it: add "
                                "--param block_N=64 to compile what the call compiles");
}

// The NSA example's sizes are only in `kernel.get_kernel_source(batch=..., ...)` (its kernel call
// passes tensors made from a list shape): the JIT object's get_kernel_source/get_tir take the
// kernel's own arguments, as .compile does (helper-116: the NSA example ran at its T.const's
// "no value" errors).
TEST(KernelCallSiteTest, GetKernelSourceAndGetTirCallsGiveValues) {
    for (const char* method : {"get_kernel_source", "get_tir"}) {
        std::string src = kEagerModuleCompile;
        src.replace(src.find("scale.compile("), 14, std::string("scale.") + method + "(");
        auto e = elaborateText(src);
        ASSERT_EQ(e->firstError(), nullptr) << method << ": " << e->firstError()->message;
        EXPECT_NE(e->ir.find("with T.Kernel(2, 8, threads=128)"), std::string::npos) << method << e->ir;
    }
}

// A pytest file (TileLang's testing/): `__main__` runs tilelang.testing.main(), the values are in
// the first test function that calls the kernel through its run_* helper; a parametrized test
// (no default for its parameter) gives nothing and the next test is tried.
TEST(KernelCallSiteTest, TestFunctionsGiveValuesWhenMainDoesNot) {
    std::string src = kFactoryFromMain;
    src = src.substr(0, src.find("def main(M="));
    src += "def test_param(n):\n"
           "    run(n, 64, 16, T.float16)\n"
           "\n"
           "\n"
           "def helper_not_a_test():\n"
           "    run(8, 8, 8, T.float32)\n"
           "\n"
           "\n"
           "def test_add():\n"
           "    run(128, 256, 32, T.float16)\n"
           "\n"
           "\n"
           "def test_add_bigger():\n"
           "    run(1024, 1024, 64, T.float16)\n"
           "\n"
           "\n"
           "if __name__ == \"__main__\":\n"
           "    tilelang.testing.main()\n";
    EXPECT_EQ(noteText(src), "'add' takes M=128, N=256, block_M=32, block_N=64, dtype=float16 from this call "
              "(test_add() -> run())");
    auto e = elaborateText(src);
    EXPECT_NE(e->ir.find("with T.Kernel(4, 4, threads=128)"), std::string::npos) << e->ir;
}

// The first case of @pytest.mark.parametrize binds the test's parameters, and a loop over sizes
// calls the kernel first with its first element (TileLang's regression tests).
TEST(KernelCallSiteTest, ParametrizeAndLoopsGiveTheirFirstCase) {
    std::string src = kFactoryFromMain;
    src = src.substr(0, src.find("def main(M="));
    src += "import pytest\n"
           "\n"
           "\n"
           "def test_fixture(tmp_path):\n"
           "    run(8, 8, 8, T.float32)\n"
           "\n"
           "\n"
           "@pytest.mark.parametrize(\"m, n\", [(64, 128), (256, 512)])\n"
           "@pytest.mark.parametrize(\"dt\", [T.float32, T.float16])\n"
           "def test_sizes(m, n, dt):\n"
           "    for block in (16, 32):\n"
           "        run(m, n, block, dt)\n"
           "\n"
           "\n"
           "if __name__ == \"__main__\":\n"
           "    tilelang.testing.main()\n";
    EXPECT_EQ(noteText(src), "'add' takes M=64, N=128, block_M=16, block_N=32, dtype=float32 from this call "
              "(test_sizes() -> run())");
    // A loop over range(): its first value.
    std::string ranged = src;
    ranged.replace(ranged.find("for block in (16, 32):"), 22, "for block in range(8, 64, 8):");
    EXPECT_EQ(noteText(ranged), "'add' takes M=64, N=128, block_M=8, block_N=16, dtype=float32 from this call "
              "(test_sizes() -> run())");
}

// helper-120's cases: the first call Python makes, through control flow -- the loop variable
// after the loop, `continue`, an empty loop, `N *= 2`, calls inside pytest.raises (expected to
// fail: skipped), parametrize over range(), with pytest.param and a tab, argnames=/argvalues=,
// and a test name defined twice (the second def is the test).
TEST(KernelCallSiteTest, ControlFlowAndPytestFormsGiveTheFirstCallPythonMakes) {
    const std::string head = "import pytest\n"
             "import tilelang\n"
             "import tilelang.language as T\n"
             "\n"
             "\n"
             "@tilelang.jit(out_idx=[1])\n"
             "def add_k(N, block_N, val):\n"
             "    @T.prim_func\n"
             "    def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):\n"
             "        with T.Kernel(T.ceildiv(N, block_N), threads=128) as bx:\n"
             "            for i in T.Parallel(block_N):\n"
             "                B[bx * block_N + i] = A[bx * block_N + i] + val\n"
             "    return main\n"
             "\n"
             "\n"
             "";
    struct Case { const char* name; const char* tail; const char* takes; };
    const Case cases[] = {
        {"afterloop", "if __name__ == \"__main__\":\n"
             "    for n in (128, 256, 512):\n"
             "        pass\n"
             "    add_k(n, 128, 1.0)\n"
             "",
         "N=512, block_N=128"},
        {"cont", "if __name__ == \"__main__\":\n"
             "    for n in (100, 256):\n"
             "        if n % 128 != 0:\n"
             "            continue\n"
             "        add_k(n, 128, 1.0)\n"
             "",
         "N=256, block_N=128"},
        {"empty", "if __name__ == \"__main__\":\n"
             "    for n in ():\n"
             "        add_k(64, 64, 1.0)\n"
             "    add_k(256, 128, 1.0)\n"
             "",
         "N=256, block_N=128"},
        {"aug", "if __name__ == \"__main__\":\n"
             "    N = 128\n"
             "    N *= 2\n"
             "    add_k(N, 128, 1.0)\n"
             "",
         "N=256, block_N=128"},
        {"raises", "def test_bad():\n"
             "    with pytest.raises(ZeroDivisionError):\n"
             "        add_k(256, 0, 1.0)\n"
             "\n"
             "\n"
             "def test_good():\n"
             "    add_k(512, 128, 1.0)\n"
             "",
         "N=512, block_N=128"},
        {"prange", "@pytest.mark.parametrize(\"N\", range(256, 1024, 256))\n"
             "def test_a(N):\n"
             "    add_k(N, 128, 1.0)\n"
             "",
         "N=256, block_N=128"},
        {"pparam", "@pytest.mark.parametrize(\"N,\\tblock_N\", [(256, 128), pytest.param(512, 64, marks=pytest.mark.skip)])\n"
             "def test_a(N, block_N):\n"
             "    add_k(N, block_N, 1.0)\n"
             "",
         "N=256, block_N=128"},
        {"pkw", "@pytest.mark.parametrize(argnames=\"N,block_N\", argvalues=[pytest.param(512, 64)])\n"
             "def test_a(N, block_N):\n"
             "    add_k(N, block_N, 1.0)\n"
             "",
         "N=512, block_N=64"},
        {"dup", "def test_a():\n"
             "    add_k(128, 64, 1.0)\n"
             "\n"
             "\n"
             "def test_a():\n"
             "    add_k(768, 256, 1.0)\n"
             "",
         "N=768, block_N=256"},
    };
    for (const Case& c : cases) {
        auto e = elaborateText(head + c.tail);
        ASSERT_EQ(e->firstError(), nullptr) << c.name << ": " << e->firstError()->message;
        ASSERT_NE(noteOf(*e), nullptr) << c.name;
        EXPECT_NE(noteOf(*e)->message.find(std::string("takes ") + c.takes + ", val=1.0"), std::string::npos)
            << c.name << ": " << noteOf(*e)->message;
    }
}

// A policy passed as GemmWarpPolicy.FullRow (TileLang's issue-2522 test) is a call-site value,
// and --param takes the spelling of the source too (helper-119/120).
TEST(KernelCallSiteTest, GemmWarpPolicyFromTheCallAndFromParam) {
    const std::string src = "import tilelang\n"
                            "import tilelang.language as T\n"
                            "from tilelang.language import GemmWarpPolicy\n"
                            "@tilelang.jit(out_idx=[2])\n"
                            "def mm(M, policy):\n"
                            "    @T.prim_func\n"
                            "    def main(A: T.Tensor((M, 32), T.float16), B: T.Tensor((32, 64), T.float16), C: T.Tensor((M, 64), T.float32)):\n"
                            "        with T.Kernel(1, threads=128) as bx:\n"
                            "            a = T.alloc_shared((M, 32), T.float16)\n"
                            "            b = T.alloc_shared((32, 64), T.float16)\n"
                            "            c = T.alloc_fragment((M, 64), T.float32)\n"
                            "            T.copy(A, a)\n"
                            "            T.copy(B, b)\n"
                            "            T.clear(c)\n"
                            "            T.gemm(a, b, c, policy=policy)\n"
                            "            T.copy(c, C)\n"
                            "    return main\n"
                            "def test_mm():\n"
                            "    mm(64, GemmWarpPolicy.FullRow)\n";
    EXPECT_EQ(noteText(src), "'mm' takes M=64, policy='FullRow' from this call (test_mm())");
    for (const char* spelled : {"T.GemmWarpPolicy.FullCol", "GemmWarpPolicy.FullCol", "FullCol"}) {
        auto p = elaborateText(src, {{"policy", spelled}});
        EXPECT_EQ(p->firstError(), nullptr) << spelled << ": " << p->firstError()->message;
    }
}

// helper-120: defaults equal to the call's values (T.float32 and "float32", False and 0) are not
// listed, and the hint's flags are shell words (a value with a space and a quote pastes as one).
TEST(KernelCallSiteTest, KeptDefaultsListOnlyRealDifferencesAsShellWords) {
    const std::string src = "import tilelang\n"
                            "import tilelang.language as T\n"
                            "@tilelang.jit(out_idx=[1])\n"
                            "def add_k(N=256, block_N=128, dtype=\"float32\", flag=False, mode=\"a b\"):\n"
                            "    @T.prim_func\n"
                            "    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):\n"
                            "        with T.Kernel(T.ceildiv(N, block_N), threads=128) as bx:\n"
                            "            for i in T.Parallel(block_N):\n"
                            "                B[bx * block_N + i] = A[bx * block_N + i] + (1.0 if flag else 2.0)\n"
                            "    return main\n"
                            "if __name__ == \"__main__\":\n"
                            "    add_k(512, 128, T.float32, 0, \"a b's\")\n";
    EXPECT_EQ(noteText(src), "'add_k' keeps its defaults N=256 (the call passes 512), mode='a b' (the call passes \"a b's\") "
              "rather than the values of this call (__main__)");
    auto e = elaborateText(src);
    ASSERT_NE(noteOf(*e), nullptr);
    EXPECT_EQ(noteOf(*e)->hint, "a parameter with a default takes the call's value only when you pass it: add --param N=512 "
                                "--param 'mode=\"a b'\\''s\"' to compile what the call compiles");
}

// The kernel is a parametrized test itself (the @T.prim_func inside test_x): pytest calls it with
// its first case (helper-119: issue_2480/2615 said "parameter 'dtype' has no value").
TEST(KernelCallSiteTest, AParametrizedTestHoldingThePrimFuncTakesItsFirstCase) {
    const std::string src = "import pytest\n"
                            "import tilelang\n"
                            "import tilelang.language as T\n"
                            "@pytest.mark.parametrize(\"dtype,N\", [(\"float32\", 64), (\"float16\", 128)])\n"
                            "def test_x(dtype, N):\n"
                            "    @T.prim_func\n"
                            "    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):\n"
                            "        with T.Kernel(1, threads=64) as bx:\n"
                            "            for i in T.Parallel(N):\n"
                            "                B[i] = A[i] * 2\n"
                            "    kernel = tilelang.compile(main, out_idx=[1])\n";
    EXPECT_EQ(noteText(src), "'test_x' takes dtype='float32', N=64 from this call "
              "(the first @pytest.mark.parametrize case of test_x())");
    auto e = elaborateText(src);
    EXPECT_NE(e->ir.find("T.Tensor((64,), \"float32\")"), std::string::npos) << e->ir;
}

// TileLang's reduce tests pass the op itself: `_make_reduce_kernel(T.reduce_max, 64, ...)`. The call,
// `--param reduce_fn=T.reduce_max` and a module-level function's name all give the kernel that
// callable; the IR shows which op ran.
TEST(KernelCallSiteTest, AnOpOrModuleFunctionPassedToTheFactoryIsCalled) {
    const std::string src = "import tilelang.language as tl\n"
                            "def _make(reduce_fn, length):\n"
                            "    @tl.prim_func\n"
                            "    def k(a: tl.Tensor((length, 8), tl.float32), out: tl.Tensor((length,), tl.float32)):\n"
                            "        with tl.Kernel(1, threads=32):\n"
                            "            f = tl.alloc_fragment((length, 8), tl.float32)\n"
                            "            o = tl.alloc_fragment((length,), tl.float32)\n"
                            "            tl.copy(a, f)\n"
                            "            reduce_fn(f, o, dim=1)\n"
                            "            tl.copy(o, out)\n"
                            "    return k\n"
                            "def my_sum(x, y, dim):\n"
                            "    tl.reduce_sum(x, y, dim=dim)\n"
                            "def test_it():\n"
                            "    _make(tl.reduce_min, 32)\n";
    EXPECT_EQ(noteText(src), "'_make' takes reduce_fn=T.reduce_min, length=32 from this call (test_it())");
    auto fromCall = elaborateText(src);
    ASSERT_EQ(fromCall->firstError(), nullptr) << fromCall->firstError()->message;
    EXPECT_NE(fromCall->ir.find("T.reduce_min(f, o, dim=1)"), std::string::npos) << fromCall->ir;
    auto viaParam = elaborateText(src, {{"reduce_fn", "T.reduce_max"}});
    ASSERT_EQ(viaParam->firstError(), nullptr) << viaParam->firstError()->message;
    EXPECT_NE(viaParam->ir.find("T.reduce_max(f, o, dim=1)"), std::string::npos) << viaParam->ir;
    auto viaFunction = elaborateText(src, {{"reduce_fn", "my_sum"}});
    ASSERT_EQ(viaFunction->firstError(), nullptr) << viaFunction->firstError()->message;
    EXPECT_NE(viaFunction->ir.find("T.reduce_sum(f, o, dim=1)"), std::string::npos) << viaFunction->ir;
    // Not an op: the text stays a string and the call of it says so where it happens.
    auto word = elaborateText(src, {{"reduce_fn", "T.no_such_op"}});
    ASSERT_NE(word->firstError(), nullptr);
    EXPECT_EQ(word->firstError()->message, "'str' object is not callable: 'T.no_such_op' names no tile-language op or module-level function");
}

// helper-122: an op passed on through a run_* helper, inside a parametrize case list, or given as a
// default (kept, with the call's op in the hint) reaches the kernel as the op itself.
TEST(KernelCallSiteTest, OpsThroughHelpersCaseListsAndDefaults) {
    const std::string factory = "import pytest\n"
                                "import tilelang.language as T\n"
                                "def make(n, func=T.reduce_sum):\n"
                                "    @T.prim_func\n"
                                "    def k(a: T.Tensor((n, 8), T.float32), out: T.Tensor((n,), T.float32)):\n"
                                "        with T.Kernel(1, threads=32):\n"
                                "            f = T.alloc_fragment((n, 8), T.float32)\n"
                                "            o = T.alloc_fragment((n,), T.float32)\n"
                                "            T.copy(a, f)\n"
                                "            func(f, o, dim=1)\n"
                                "            T.copy(o, out)\n"
                                "    return k\n";
    const std::string viaHelper = factory + "def run_it(n, op):\n    make(n, op)\ndef test_plain():\n    run_it(64, T.reduce_min)\n";
    EXPECT_EQ(noteText(viaHelper), "'make' takes n=64 from this call (test_plain() -> run_it()); it keeps its defaults "
                                   "func=T.reduce_sum (the call passes T.reduce_min)");
    auto kept = elaborateText(viaHelper);
    ASSERT_EQ(kept->firstError(), nullptr) << kept->firstError()->message;
    EXPECT_NE(kept->ir.find("T.reduce_sum(f, o, dim=1)"), std::string::npos) << kept->ir;
    const std::string cases = factory + "OPS = [(\"max\", T.reduce_max), (\"min\", T.reduce_min)]\n"
                                        "@pytest.mark.parametrize(\"name,op\", OPS)\n"
                                        "def test_p(name, op):\n    make(32, func=op)\n";
    auto fromCase = elaborateText(cases, {{"func", "T.reduce_max"}});
    EXPECT_EQ(noteText(cases), "'make' takes n=32 from this call (test_p()); it keeps its defaults func=T.reduce_sum "
                               "(the call passes T.reduce_max)");
    ASSERT_EQ(fromCase->firstError(), nullptr) << fromCase->firstError()->message;
    EXPECT_NE(fromCase->ir.find("T.reduce_max(f, o, dim=1)"), std::string::npos) << fromCase->ir;
}

// helper-123: a kernel whose only call is inside `with pytest.raises(...)` (TileLang's reshape
// mismatch test) keeps no values, and the error's hint says why.
TEST(KernelCallSiteTest, ACallOnlyInsidePytestRaisesIsNamedInTheHint) {
    const std::string src = "import pytest\n"
                            "import tilelang.language as T\n"
                            "def mk(N, dtype):\n"
                            "    @T.prim_func\n"
                            "    def main(A: T.Tensor((N,), dtype)):\n"
                            "        with T.Kernel(1, threads=32):\n"
                            "            A[0] = 1.0\n"
                            "    return main\n"
                            "def test_x():\n"
                            "    with pytest.raises(AssertionError):\n"
                            "        mk(16, T.float32)\n";
    auto e = elaborateText(src);
    const Diagnostic* d = e->firstError();
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->message, "parameter 'N' of 'mk' has no value");
    EXPECT_EQ(d->hint, "give it a default or pass --param N=<value>; the file calls 'mk' only inside "
                       "`pytest.raises(...)` (line 11): a kernel meant to fail, so its values are not taken");
}

// helper-124: a swap of two neighbours is one slip (`T.cpoy` -> `T.copy`), and T.grid's
// arity error suggests T.grid itself, not T.Parallel.
TEST(KernelCallSiteTest, TranspositionTyposAndGridArityHints) {
    EXPECT_EQ(ts::fe::closestMatch("cpoy", {"copy", "clear", "cumsum"}), "copy");
    EXPECT_EQ(ts::fe::closestMatch("reduce_mx", {"reduce_max", "reduce_min"}), "reduce_max");
    auto e = elaborateText("import tilelang.language as T\n"
                           "@T.prim_func\n"
                           "def k(A: T.Tensor((4, 8), \"float32\")):\n"
                           "    with T.Kernel(1, threads=32):\n"
                           "        for i, j in T.grid(4, 8, 2):\n"
                           "            A[i, j] = 0.0\n");
    ASSERT_NE(e->firstError(), nullptr);
    EXPECT_EQ(e->firstError()->message, "T.grid yields 3 loop variables, but the loop binds 2");
    EXPECT_EQ(e->firstError()->hint, "bind one name per extent, e.g. for i, j, k in T.grid(...):");
}
