// Eager kernels whose T.Kernel is in a @T.macro they call (TileLang's eager_jit test): the jit
// function is eager when its tensors are declared in its signature (`A: T.Tensor[[128, 128],
// T.float32]`) or in its body without T.const, and T.empty takes the extents themselves
// (`T.empty(M, N, dtype=A.dtype)`, TileLang's `empty(*shape, dtype=float32)`). Before 2026-12-07
// such a function was taken for a factory ("parameter 'A' has no value"). Our own programs.
#include <gtest/gtest.h>

#include "tests/unit/ElaborateTestUtil.h"

using namespace ts;
using namespace elab_test;

namespace {

const char* kMacroCopy = R"(import tilelang
import tilelang.language as T


@T.macro
def copy_impl(A, B):
    M, N = A.shape
    with T.Kernel(T.ceildiv(M, 64), threads=128) as bx:
        T.copy(A[bx * 64:bx * 64 + 64, 0:N], B[bx * 64:bx * 64 + 64, 0:N])


@tilelang.jit
def copy_sig(A: T.Tensor[[128, 32], T.float32], B: T.Tensor[[128, 32], T.float32]):
    copy_impl(A, B)


@T.macro
def copy_out(A):
    M, N = A.shape
    B = T.empty(M, N, dtype=A.dtype)
    with T.Kernel(T.ceildiv(M, 64), threads=128) as bx:
        T.copy(A[bx * 64:bx * 64 + 64, 0:N], B[bx * 64:bx * 64 + 64, 0:N])
    return B


@tilelang.jit
def copy_body(A):
    A: T.Tensor[[192, 16], T.float16]
    return copy_out(A)
)";

TEST(EagerMacroKernel, TensorsInTheSignatureMakeTheFunctionEager) {
    auto e = elaborateText(kMacroCopy);
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    ASSERT_NE(e->result.entry, nullptr);
    EXPECT_EQ(e->result.entry->pattern, fe::EntryPattern::Eager);
    EXPECT_NE(e->ir.find("A: T.Tensor((128, 32), \"float32\")"), std::string::npos) << e->ir;
    EXPECT_NE(e->ir.find("with T.Kernel(2, threads=128)"), std::string::npos) << e->ir;
}

TEST(EagerMacroKernel, TensorsDeclaredInTheBodyAndTEmptyOfExtents) {
    DiagnosticEngine diags;
    auto mod = fe::Module::analyze(std::make_shared<ts::SourceFile>("k.py", kMacroCopy), diags);
    const fe::KernelEntry* entry = mod->entry("copy_body");
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(entry->pattern, fe::EntryPattern::Eager);
    auto res = fe::runFrontend(mod, *entry, {}, diags);
    ASSERT_NE(res.func, nullptr) << (diags.all().empty() ? "" : diags.all().front().message);
    const std::string ir = ir::print(res.func).text;
    // B = T.empty(M, N, dtype=A.dtype): a (192, 16) float16 output.
    EXPECT_NE(ir.find("T.Tensor((192, 16), \"float16\")"), std::string::npos) << ir;
    EXPECT_NE(ir.find("with T.Kernel(3, threads=128)"), std::string::npos) << ir;
}

TEST(EagerMacroKernel, TEmptyKeepsItsShapeAndDtypeForms) {
    for (const char* call : {"T.empty((M, N), \"float16\")", "T.empty((M, N), dtype=T.float16)", "T.empty(M, N, dtype=T.float16)",
                             "T.empty([M, N], T.float16)"}) {
        std::string src = std::string("import tilelang\nimport tilelang.language as T\n@tilelang.jit\ndef k(A):\n"
                                      "    M, N = T.const(\"M N\")\n    A: T.Tensor((M, N), T.float16)\n    B = ") +
                          call +
                          "\n    with T.Kernel(1, threads=32):\n        T.copy(A, B)\n    return B\n";
        auto e = elaborateText(src, {{"M", "16"}, {"N", "8"}});
        ASSERT_EQ(e->firstError(), nullptr) << call << ": " << e->firstError()->message;
        EXPECT_NE(e->ir.find("B: T.Tensor((16, 8), \"float16\")"), std::string::npos) << call << "\n" << e->ir;
    }
}

// A kernel made inside a module-level function, with a decorator the meta level cannot evaluate
// (`pass_configs={PassConfigKey.X: True}`): still defined (TileLang's disable_memory_reuse test
// said "could not be defined").
TEST(EagerMacroKernel, ANestedKernelKeepsItsDefWhateverItsDecoratorArguments) {
    const std::string src = "import tilelang\nimport tilelang.language as T\nfrom tilelang import PassConfigKey\n"
                            "N = 256\n"
                            "def _make():\n"
                            "    @tilelang.jit(pass_configs={PassConfigKey.NO_SUCH_KEY: True})\n"
                            "    def kernel(A, B):\n"
                            "        A: T.Tensor[[N], T.float16]\n"
                            "        B: T.Tensor[[N], T.float16]\n"
                            "        with T.Kernel(1, threads=128):\n"
                            "            for i in T.Parallel(N):\n"
                            "                B[i] = A[i] * T.float16(2)\n"
                            "    return kernel\n";
    DiagnosticEngine diags;
    auto mod = fe::Module::analyze(std::make_shared<ts::SourceFile>("k.py", src), diags);
    const fe::KernelEntry* entry = mod->entry("_make.kernel");
    ASSERT_NE(entry, nullptr);
    auto res = fe::runFrontend(mod, *entry, {}, diags);
    ASSERT_NE(res.func, nullptr) << (diags.all().empty() ? "" : diags.all().front().message);
    EXPECT_NE(ir::print(res.func).text.find("A: T.Tensor((256,), \"float16\")"), std::string::npos) << ir::print(res.func).text;
}

// Nested kernels called through a loop variable (`for copy in [copy1, copy2]: copy(A, B)`, TileLang's
// eager_jit test): each takes its sizes from the tensors of that call.
TEST(EagerMacroKernel, NestedKernelsCalledThroughALoopVariableTakeTheCallsSizes) {
    const std::string src = "import tilelang\nimport tilelang.language as T\nimport torch\n"
                            "def test_copies():\n"
                            "    @tilelang.jit\n"
                            "    def copy1(A, B):\n"
                            "        M, N = T.const(\"M, N\")\n"
                            "        A: T.Tensor[[M, N], T.float32]\n"
                            "        B: T.Tensor[[M, N], T.float32]\n"
                            "        with T.Kernel(T.ceildiv(M, 64), threads=128) as bx:\n"
                            "            T.copy(A[bx * 64:bx * 64 + 64, 0:32], B[bx * 64:bx * 64 + 64, 0:32])\n"
                            "    @tilelang.jit\n"
                            "    def copy2(A, B):\n"
                            "        M = T.const(\"M\")\n"
                            "        A: T.Tensor[[M, 32], T.float32]\n"
                            "        B: T.Tensor[[M, 32], T.float32]\n"
                            "        with T.Kernel(T.ceildiv(M, 64), threads=128) as bx:\n"
                            "            T.copy(A[bx * 64:bx * 64 + 64, 0:32], B[bx * 64:bx * 64 + 64, 0:32])\n"
                            "    for copy in [copy1, copy2]:\n"
                            "        A = torch.randn(192, 32, device=\"cuda\")\n"
                            "        B = torch.empty(192, 32, device=\"cuda\")\n"
                            "        copy(A, B)\n";
    for (const char* name : {"test_copies.copy1", "test_copies.copy2"}) {
        DiagnosticEngine diags;
        auto mod = fe::Module::analyze(std::make_shared<ts::SourceFile>("k.py", src), diags);
        const fe::KernelEntry* entry = mod->entry(name);
        ASSERT_NE(entry, nullptr) << name;
        auto res = fe::runFrontend(mod, *entry, {}, diags);
        ASSERT_NE(res.func, nullptr) << name << ": " << (diags.all().empty() ? "" : diags.all().front().message);
        const std::string ir = ir::print(res.func).text;
        EXPECT_NE(ir.find("A: T.Tensor((192, 32), \"float32\")"), std::string::npos) << name << "\n" << ir;
        EXPECT_NE(ir.find("with T.Kernel(3, threads=128)"), std::string::npos) << name << "\n" << ir;
    }
}

// helper-125: a test local that is not one simple assignment before the def is an error at its use
// naming the line (before, the module-level variable of the same name was compiled silently); a
// test's own `scale` shadows the module-level kernel `scale` at its calls.
TEST(EagerMacroKernel, TestLocalsOnlyWhenSimpleAndShadowedNamesAreNotTheModuleKernel) {
    const std::string body = "        N = T.const(\"N\")\n"
                             "        X: T.Tensor[[N], T.float32]\n"
                             "        Y: T.Tensor[[N], T.float32]\n"
                             "        with T.Kernel(T.ceildiv(N, 32), threads=32) as bx:\n"
                             "            for i in T.Parallel(32):\n"
                             "                Y[bx * 32 + i] = X[bx * 32 + i] * factor\n";
    const std::string src = "import tilelang\nimport tilelang.language as T\nimport torch\n"
                            "factor = 2.0\n"
                            "def helper():\n    return 5.0\n"
                            "@tilelang.jit\n"
                            "def scale(X, Y):\n" + body +
                            "def test_call():\n"
                            "    factor = helper()\n"
                            "    @tilelang.jit\n"
                            "    def scale(X, Y):\n" + body +
                            "    A = torch.randn(64)\n    B = torch.empty(64)\n    scale(A, B)\n"
                            "def test_module():\n"
                            "    A = torch.randn(96)\n    B = torch.empty(96)\n    scale(A, B)\n";
    DiagnosticEngine diags;
    auto mod = fe::Module::analyze(std::make_shared<ts::SourceFile>("k.py", src), diags);
    const fe::KernelEntry* nested = mod->entry("test_call.scale");
    ASSERT_NE(nested, nullptr);
    auto bad = fe::runFrontend(mod, *nested, {}, diags);
    EXPECT_EQ(bad.func, nullptr);
    bool named = false;
    for (const auto& d : diags.all())
        named |= d.severity == Severity::Error &&
                 d.message.find("'factor', a local of test_call() (line 16), is assigned from an expression that is not a simple one") !=
                     std::string::npos;
    EXPECT_TRUE(named) << (diags.all().empty() ? "" : diags.all().back().message);
    DiagnosticEngine d2;
    const fe::KernelEntry* top = mod->entry("scale");
    ASSERT_NE(top, nullptr);
    auto ok = fe::runFrontend(mod, *top, {}, d2);
    ASSERT_NE(ok.func, nullptr) << (d2.all().empty() ? "" : d2.all().front().message);
    // 96 from test_module's call, not 64 from test_call's call of its own `scale`.
    EXPECT_NE(ir::print(ok.func).text.find("X: T.Tensor((96,), \"float32\")"), std::string::npos) << ir::print(ok.func).text;
}

}  // namespace
