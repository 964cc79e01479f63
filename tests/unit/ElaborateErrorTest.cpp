// Elaboration diagnostics: message, location and hint of the errors the front end owns
// (LANGUAGE.md §5): unknown T.* names, undefined variables, copy shape mismatches, gemm dtype
// and shape mismatches, wrong arguments, misuse of kernel constructs.
#include <gtest/gtest.h>

#include "compiler/interp/Interpreter.h"
#include "tests/unit/ElaborateTestUtil.h"

using namespace ts;
using namespace elab_test;

namespace {

Diagnostic errorOf(const std::string& text, std::map<std::string, std::string> params = {}) {
    auto e = elaborateText(text, std::move(params));
    EXPECT_EQ(e->result.func, nullptr) << e->ir;
    const Diagnostic* d = e->firstError();
    EXPECT_NE(d, nullptr);
    size_t errors = 0;
    for (const auto& x : e->diags.all()) errors += x.severity == Severity::Error;
    EXPECT_EQ(errors, 1u) << "exactly one error expected";
    return d ? *d : Diagnostic{};
}

// Line 5 of kernel(): the first body line.
constexpr uint32_t kBody = 5;

}  // namespace

TEST(ElaborateErrorTest, UnknownTNameHasCloseMatch) {
    Diagnostic d = errorOf(kernel("        T.gemmm(A, B, C)\n"));
    EXPECT_EQ(d.message, "unknown tile-language name T.gemmm");
    EXPECT_EQ(d.hint, "did you mean 'T.gemm'?");
    EXPECT_EQ(d.span, (Span{kBody, 9, kBody, 16}));
    EXPECT_EQ(d.origin, "elaborate");
}

TEST(ElaborateErrorTest, UnsupportedRegisteredName) {
    // T.alloc_barrier and T.tma_copy compile now (ElaborateBarriers.cpp); inline CUDA does not,
    // except TileLang's dequantize helpers (ElaborateExtern.h).
    Diagnostic d = errorOf(kernel("        T.import_source(\"\")\n"));
    EXPECT_EQ(d.message, "T.import_source is not supported by TileScope yet for this source");
}

TEST(ElaborateErrorTest, UndefinedVariable) {
    Diagnostic d = errorOf(kernel(
        "        for i in T.Parallel(64):\n            C[0, i] = A[0, i] * scle\n", "scale = 2\n"));
    EXPECT_EQ(d.message, "name 'scle' is not defined");
    EXPECT_EQ(d.hint, "did you mean 'scale'?");
    EXPECT_EQ(d.span, (Span{kBody + 2, 33, kBody + 2, 37}));
}

TEST(ElaborateErrorTest, CopyShapeMismatchNamesBothShapes) {
    Diagnostic d = errorOf(kernel(
        "        s = T.alloc_shared((32, 32), \"float16\")\n        T.copy(A[0:16, 0:32], s)\n"));
    EXPECT_EQ(d.message,
              "T.copy: shapes do not match: the source A[0:16, 0:32] is (16, 32) but the "
              "destination 's' is (32, 32)");
    EXPECT_EQ(d.span, (Span{kBody + 1, 9, kBody + 1, 33}));
    EXPECT_EQ(errorOf(kernel("        T.copy(A[0, 0], B[1, 1])\n")).message,
              "T.copy: cannot tell the shape of the copy: both operands are single elements");
    EXPECT_EQ(errorOf(kernel("        s = T.alloc_shared((32,), \"float16\")\n        T.copy(s, "
                             "A[0:16, 0:3])\n"))
                  .message,
              "T.copy: shapes do not match: the source 's' is (32,) but the destination A[0:16, "
              "0:3] is (16, 3)");
}

TEST(ElaborateErrorTest, StartIndexNeedsEnoughDimensions) {
    Diagnostic d = errorOf(
        kernel("        s = T.alloc_shared((4, 8, 8), \"float16\")\n        T.copy(A[0, 0], s)\n"));
    EXPECT_EQ(d.message,
              "T.copy: 'A[0, 0]' has 2 dimensions, fewer than the other operand's shape (4, 8, 8)");
}

TEST(ElaborateErrorTest, GemmDtypeAndShapes) {
    std::string body =
        "        a = T.alloc_shared((64, 32), \"float16\")\n"
        "        b = T.alloc_shared((16, 64), DT)\n"
        "        c = T.alloc_fragment((64, 64), \"float32\")\n"
        "        T.gemm(a, b, c)\n";
    auto with = [&](const std::string& dt) {
        std::string s = body;
        s.replace(s.find("DT"), 2, dt);
        return errorOf(kernel(s));
    };
    Diagnostic d = with("\"bfloat16\"");
    EXPECT_EQ(d.message,
              "T.gemm: operand dtypes differ: A ('a') is float16 but B ('b') is bfloat16");
    EXPECT_EQ(d.span.line, kBody + 3);
    d = with("\"float16\"");
    EXPECT_EQ(d.message,
              "T.gemm: inner dimensions do not match: A ('a') gives K=32 but B ('b') gives K=16");
    Diagnostic c =
        errorOf(kernel("        a = T.alloc_shared((64, 32), \"float16\")\n"
                       "        b = T.alloc_shared((32, 64), \"float16\")\n"
                       "        c = T.alloc_fragment((64, 64), \"float32\")\n"
                       "        T.gemm(a, b, c, policy=\"Diagonal\")\n"));
    EXPECT_EQ(c.message,
              "policy must be T.GemmWarpPolicy.Square, FullRow or FullCol, got 'Diagonal'");
    Diagnostic m =
        errorOf(kernel("        a = T.alloc_shared((64, 32), \"float16\")\n"
                       "        b = T.alloc_shared((32, 64), \"float16\")\n"
                       "        c = T.alloc_fragment((64, 32), \"float32\")\n"
                       "        T.gemm(a, b, c)\n"));
    EXPECT_EQ(m.message, "T.gemm: C ('c') is 64x32 but A·B is 64x64");
}

TEST(ElaborateErrorTest, ReduceShapes) {
    Diagnostic d =
        errorOf(kernel("        x = T.alloc_fragment((32, 64), \"float32\")\n"
                       "        r = T.alloc_fragment((64,), \"float32\")\n"
                       "        T.reduce_sum(x, r, dim=1)\n"));
    EXPECT_EQ(d.message,
              "T.reduce_sum: the destination 'r' has shape (64,) but reducing 'x' (32, 64) over "
              "dim 1 gives (32,)");
    d =
        errorOf(kernel("        x = T.alloc_fragment((32, 64), \"float32\")\n"
                       "        r = T.alloc_fragment((32,), \"float32\")\n"
                       "        T.reduce_max(x, r, dim=2)\n"));
    EXPECT_EQ(d.message, "T.reduce_max: dim=2 is out of range for 'x' of rank 2");
    EXPECT_EQ(d.span, (Span{kBody + 2, 28, kBody + 2, 33}));
}

TEST(ElaborateErrorTest, WrongArguments) {
    Diagnostic d = errorOf(kernel("        T.copy(A)\n"));
    EXPECT_EQ(d.message, "T.copy() missing required argument 'dst'");
    d = errorOf(kernel("        T.fill(A, 1, 2)\n"));
    EXPECT_EQ(d.message, "T.fill() takes 2 positional arguments but 3 were given");
    EXPECT_EQ(d.span, (Span{kBody, 22, kBody, 23}));
    d = errorOf(kernel("        T.copy(A, B, coalesced=4)\n"));
    EXPECT_EQ(d.message, "T.copy() got an unexpected keyword argument 'coalesced'");
    EXPECT_EQ(d.hint, "did you mean 'coalesced_width'?");
    d = errorOf(kernel("        s = T.alloc_shared((8, 8), \"flaot16\")\n"));
    EXPECT_EQ(d.message, "unknown dtype 'flaot16'");
    EXPECT_EQ(d.hint, "did you mean 'float16'?");
}

TEST(ElaborateErrorTest, KernelConstructMisuse) {
    std::string outside =
        "import tilelang.language as T\n@T.prim_func\ndef k(A: T.Tensor((8,), \"float32\")):\n"
        "    s = T.alloc_shared((8,), \"float32\")\n"
        "    with T.Kernel(1) as bx:\n        pass\n";
    EXPECT_EQ(errorOf(outside).message, "T.alloc_shared must be inside 'with T.Kernel(...)'");
    std::string noKernel =
        "import tilelang.language as T\n@T.prim_func\ndef k(A: T.Tensor((8,), \"float32\")):\n    "
        "pass\n";
    EXPECT_EQ(errorOf(noKernel).message, "kernel 'k' has no 'with T.Kernel(...)' block");
    EXPECT_EQ(errorOf(kernel("        with T.Kernel(1) as z:\n            pass\n")).message,
              "T.Kernel cannot be nested");
    EXPECT_EQ(errorOf(kernel("        for i in T.Parallel(4, 4):\n            pass\n")).message,
              "T.Parallel yields 2 loop variables, but the loop binds 1");
    // T.serial loops can be left (Elaborate.cpp, LoopExit); T.Parallel nests cannot.
    EXPECT_EQ(errorOf(kernel("        for i in T.Parallel(4):\n            break\n")).message,
              "'break'/'continue' inside a T.Parallel loop is not supported");
    EXPECT_EQ(errorOf(kernel("        while bx < 4:\n            pass\n")).message,
              "'while' with a run-time condition is not supported in a kernel");
    EXPECT_EQ(errorOf(kernel("        A[0:4, 0] = 1\n")).message,
              "assigning to a region of 'A' is not supported");
    EXPECT_EQ(errorOf(kernel("        C[0] = 1\n")).message,
              "'C' needs 2 indices to store an element, got 1");
    EXPECT_EQ(errorOf(kernel("        C[0, 0, 0] = 1\n")).message,
              "too many indices for 'C': 3 given, rank 2");
    EXPECT_EQ(errorOf(kernel("        C[0, 0] = A[0:2, 0]\n")).message,
              "the region A[0:2, 0] cannot be used as a value");
    EXPECT_EQ(errorOf(kernel("        x = max(bx, by)\n")).message,
              "max() of a value known only at run time");
    Diagnostic t = errorOf(kernel(
        "        s = T.alloc_shared((8, 8), \"float16\")\n        if s:\n            pass\n"));
    EXPECT_EQ(t.message, "the condition: buffer 's' used as a value");
    EXPECT_EQ(errorOf("import tilelang.language as T\n@T.prim_func\ndef k(A):\n    with "
                      "T.Kernel(1) as bx:\n        pass\n")
                  .message,
              "kernel parameter 'A' needs a type");
    EXPECT_EQ(
        errorOf(
            "import tilelang.language as T\n@T.prim_func\ndef k(A: T.Tensor((8,), \"float32\")):\n"
            "    with T.Kernel(1, threads=bx) as bx:\n        pass\n",
            {})
            .message,
        "name 'bx' is not defined");
}

TEST(ElaborateErrorTest, StaleNameBinding) {
    // Bound inside a block that has ended, the old value cannot be kept: still an error.
    Diagnostic d = errorOf(kernel("        if bx == 0:\n            x = C[0, 0]\n"
                                  "        C[0, 0] = 1.0\n        C[1, 1] = x\n"));
    EXPECT_EQ(d.message,
              "this value reads 'C' (C[0, 0]), which was written after the value was computed");
    EXPECT_EQ(d.span.line, kBody + 3);
    // Reading it before the write is fine, and inside a block no variable is made.
    auto ok = elaborateText(
        kernel("        if bx == 0:\n            x = C[0, 0]\n            C[0, 0] = x + 1.0\n"));
    EXPECT_EQ(ok->firstError(), nullptr);
    EXPECT_EQ(ok->ir.find("alloc_local"), std::string::npos) << ok->ir;
    // At the kernel body's top level a name bound to a global read is computed once into a
    // per-thread variable, as TileLang's let (Elaborator::keepInRegister).
    auto top = elaborateText(kernel("        x = C[0, 0]\n        C[0, 0] = x + 1.0\n"));
    EXPECT_EQ(top->firstError(), nullptr);
    EXPECT_NE(top->ir.find("x = T.alloc_local((1,), \"float32\")"), std::string::npos) << top->ir;
}

TEST(ElaborateErrorTest, NameKeepsItsValueLikeTileLangsLet) {
    // The swap of a bitonic sort: `x` keeps C[0, 0] as it was when bound (TileLang's let), through
    // a per-thread variable stored at the binding; the tile interpreter swaps the two elements.
    auto e = elaborateText(kernel("        x = C[0, 0]\n        y = C[0, 0] * 2.0\n"
                                  "        C[0, 0] = C[1, 1]\n        C[1, 1] = x\n"
                                  "        C[2, 2] = y\n"));
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    EXPECT_NE(e->ir.find("x = T.alloc_local((1,), \"float32\")"), std::string::npos) << e->ir;
    std::vector<ts::HostTensor> args(3);
    for (size_t i = 0; i < 3; ++i) {
        args[i].dtype = i < 2 ? ts::ir::DType::Float16 : ts::ir::DType::Float32;
        args[i].shape = {64, 64};
        args[i].data.assign(64 * 64, 0.0);
    }
    args[2].data[0] = 3.0;        // C[0, 0]
    args[2].data[64 + 1] = 5.0;   // C[1, 1]
    ts::interp::InterpOptions io;
    io.maxBlocks = 1;
    auto run = ts::interp::run(e->result.func, args, io);
    ASSERT_TRUE(run.ok) << run.error->message;
    EXPECT_EQ(args[2].data[0], 5.0);
    EXPECT_EQ(args[2].data[64 + 1], 3.0);
    EXPECT_EQ(args[2].data[2 * 64 + 2], 6.0);
}

TEST(ElaborateErrorTest, FactoryProblems) {
    std::string notReturned =
        "import tilelang\nimport tilelang.language as T\n@tilelang.jit\ndef f(n=4):\n"
        "    @T.prim_func\n    def main(A: T.Tensor((n,), \"float32\")):\n        pass\n    return "
        "n\n";
    Diagnostic d = errorOf(notReturned);
    EXPECT_EQ(d.message, "'f' must return its @T.prim_func, but it returned int");
    EXPECT_EQ(d.span, (Span{4, 5, 4, 6}));
    std::string raises =
        "import tilelang\nimport tilelang.language as T\n@tilelang.jit\ndef f(n=4, block=3):\n"
        "    assert n % block == 0, 'block must divide n'\n"
        "    @T.prim_func\n    def main(A: T.Tensor((n,), \"float32\")):\n        pass\n    return "
        "main\n";
    d = errorOf(raises);
    EXPECT_EQ(d.message, "assertion failed: block must divide n");
    EXPECT_EQ(d.span.line, 5u);
    EXPECT_EQ(errorOf(raises, {{"blok", "2"}}).message, "unknown parameter 'blok' for kernel 'f'");
}
