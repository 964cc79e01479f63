// Programs with several kernels (DESIGN.md §2b, compiler/ProgramKernels.h): compile() lists every
// kernel of the file in source order, compiles the one CompileOptions::kernel names (default:
// the best-ranked entry), routes --param overrides to that kernel's factory, and reports an
// unknown kernel name or a parameter of another kernel with the kernel list. Expected launch
// shapes are derived by hand from tests/e2e/programs/multi_kernel.py.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/support/ParamPragma.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

const char* kPath = "tests/e2e/programs/multi_kernel.py";

std::string program() { return ts::e2e::readRepoFile(kPath); }

ts::CompileResult compileKernel(const std::string& kernel,
                                std::map<std::string, std::string> params = {},
                                const std::string& text = program()) {
    ts::CompileOptions opts;
    opts.kernel = kernel;
    opts.params = std::move(params);
    opts.recordSnapshots = false;
    return ts::compile(kPath, text, opts);
}

std::vector<const ts::Diagnostic*> errors(const ts::CompileResult& r) {
    std::vector<const ts::Diagnostic*> out;
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Error) out.push_back(&d);
    return out;
}

std::vector<std::string> shape(const ts::TensorArg& a) {
    std::vector<std::string> s;
    for (auto e : a.shape) s.push_back(std::to_string(e));
    return s;
}

}  // namespace

TEST(MultiKernel, ListsEveryKernelInSourceOrderAndCompilesTheDefault) {
    ts::CompileResult r = compileKernel("");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    ASSERT_EQ(r.kernels.size(), 3u);  // tile_of, ref_program, scale_ref, run_row_mean: helpers
    EXPECT_EQ(r.kernels[0].name, "affine_fwd");
    EXPECT_EQ(r.kernels[1].name, "row_mean");
    EXPECT_EQ(r.kernels[2].name, "scale_cols");
    EXPECT_EQ(r.kernels[0].primFuncName, "fwd");
    EXPECT_EQ(r.kernels[1].primFuncName, "rows");
    EXPECT_EQ(r.kernels[2].primFuncName, "full");  // the first of the two it can return
    for (auto& k : r.kernels) {
        EXPECT_EQ(k.pattern, "factory");
        EXPECT_TRUE(k.isJit);
    }
    EXPECT_EQ(r.kernels[1].span.line, 33u);
    EXPECT_EQ(r.kernels[1].params, (std::vector<std::string>{"M", "N", "block_M", "threads"}));
    EXPECT_EQ(r.kernels[2].params, (std::vector<std::string>{"M", "N", "block_N", "halve"}));
    EXPECT_TRUE(r.kernels[0].isDefault);
    EXPECT_FALSE(r.kernels[1].isDefault || r.kernels[2].isDefault);
    // The default kernel: affine_fwd, M=256 rows in blocks of 32 -> 8 blocks of 128 threads.
    EXPECT_EQ(r.selectedKernel, 0);
    ASSERT_NE(r.selected(), nullptr);
    EXPECT_EQ(r.selected()->name, "affine_fwd");
    EXPECT_EQ(r.kernel.name, "affine_fwd_kernel");
    EXPECT_EQ(r.kernel.grid[0], 8u);
    EXPECT_EQ(r.kernel.block[0], 128u);
    ASSERT_EQ(r.kernel.args.size(), 2u);
    EXPECT_EQ(shape(r.kernel.args[0]), (std::vector<std::string>{"256", "128"}));
    EXPECT_TRUE(r.kernel.args[1].isOutput);
}

TEST(MultiKernel, SelectedKernelFillsParamsIrAndLaunchInfo) {
    ts::CompileResult r = compileKernel("row_mean");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.selectedKernel, 1);
    EXPECT_EQ(r.kernel.name, "row_mean_kernel");
    EXPECT_EQ(r.kernel.grid[0], 8u);  // 128 rows / block_M 16
    ASSERT_EQ(r.kernel.args.size(), 2u);
    EXPECT_EQ(r.kernel.args[0].name, "A");
    EXPECT_EQ(shape(r.kernel.args[0]), (std::vector<std::string>{"128", "64"}));
    EXPECT_EQ(r.kernel.args[1].name, "S");
    EXPECT_EQ(shape(r.kernel.args[1]), (std::vector<std::string>{"128"}));
    EXPECT_TRUE(r.kernel.args[1].isOutput);
    ASSERT_EQ(r.params.size(), 4u);  // the selected factory's parameters, not affine_fwd's
    EXPECT_EQ(r.params[2].name, "block_M");
    EXPECT_EQ(r.params[2].value, "16");
    ASSERT_TRUE(r.elaborated);
    EXPECT_EQ(r.elaborated->name, "row_mean");
    EXPECT_FALSE(r.passes.empty());
    EXPECT_NE(r.cuda.find("row_mean_kernel"), std::string::npos);
    EXPECT_EQ(r.cuda.find("affine_fwd_kernel"), std::string::npos);
}

TEST(MultiKernel, ParamsGoToTheSelectedFactory) {
    // block_M is a parameter of affine_fwd and row_mean: each gets it when selected.
    auto fwd = compileKernel("affine_fwd", {{"block_M", "64"}});
    ASSERT_TRUE(fwd.ok) << ts::e2e::diagText(fwd);
    EXPECT_EQ(fwd.kernel.grid[0], 4u);  // 256 / 64
    auto mean = compileKernel("row_mean", {{"block_M", "32"}, {"M", "256"}});
    ASSERT_TRUE(mean.ok) << ts::e2e::diagText(mean);
    EXPECT_EQ(mean.kernel.grid[0], 8u);  // 256 / 32
    EXPECT_EQ(shape(mean.kernel.args[1]), (std::vector<std::string>{"256"}));
    // scale_cols: block_N = tile_of(256) = 32 (a module-level helper in the default), N=512.
    auto cols = compileKernel("scale_cols", {{"N", "512"}, {"halve", "True"}});
    ASSERT_TRUE(cols.ok) << ts::e2e::diagText(cols);
    EXPECT_EQ(cols.kernel.grid[0], 16u);
    EXPECT_EQ(cols.kernel.name, "scale_cols_kernel");
    EXPECT_NE(cols.cuda.find("1.5"), std::string::npos);  // the `half` prim_func was returned
}

TEST(MultiKernel, InnerPrimFuncNameSelectsItsFactory) {
    auto r = compileKernel("rows");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.selected()->name, "row_mean");
}

TEST(MultiKernel, UnknownKernelListsTheKernelsWithACloseMatch) {
    auto r = compileKernel("row_maen");
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.selectedKernel, -1);
    EXPECT_EQ(r.kernels.size(), 3u);  // still listed (the IDE's selector needs them)
    auto e = errors(r);
    ASSERT_EQ(e.size(), 1u) << ts::e2e::diagText(r);
    EXPECT_EQ(e[0]->message, "no kernel named 'row_maen' in this file");
    EXPECT_EQ(e[0]->hint,
              "did you mean 'row_mean'? kernels in this file: affine_fwd, row_mean, scale_cols");
    EXPECT_FALSE(e[0]->span.valid());  // a command-line name: no place in the file
}

TEST(MultiKernel, ParamOfAnotherKernelNamesThatKernel) {
    auto r = compileKernel("affine_fwd", {{"halve", "True"}});
    EXPECT_FALSE(r.ok);
    auto e = errors(r);
    ASSERT_EQ(e.size(), 1u) << ts::e2e::diagText(r);
    EXPECT_EQ(e[0]->message,
              "parameter 'halve' belongs to kernel 'scale_cols', not to the selected kernel "
              "'affine_fwd'");
    EXPECT_EQ(e[0]->hint,
              "select that kernel with --kernel scale_cols; parameters of 'affine_fwd': M, N, "
              "block_M, threads");
    EXPECT_EQ(e[0]->span.line, 19u);  // def affine_fwd
    // A name no kernel has keeps the close-match message.
    auto typo = compileKernel("row_mean", {{"blokc_M", "8"}});
    ASSERT_EQ(errors(typo).size(), 1u);
    EXPECT_EQ(errors(typo)[0]->message, "unknown parameter 'blokc_M' for kernel 'row_mean'");
}

TEST(MultiKernel, PragmaKeepsValuesOfOtherKernelsAndSelectsWithAtKernel) {
    // The pragma holds values for several kernels: halve (scale_cols only) is not an error when
    // row_mean is compiled, block_M applies to it.
    std::string text = "# tilescope: @kernel=row_mean block_M=32 halve=True\n" + program();
    auto pragma = ts::parseParamPragma(text);
    EXPECT_EQ(ts::pragmaSetting(pragma, ts::kPragmaKernel), "row_mean");
    auto r = compileKernel(ts::pragmaSetting(pragma, ts::kPragmaKernel), pragma, text);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.kernel.name, "row_mean_kernel");
    EXPECT_EQ(r.kernel.grid[0], 4u);  // 128 / 32
    // The same value given on the command line (not the pragma's) is an error.
    auto cli = pragma;
    cli["halve"] = "False";
    EXPECT_FALSE(compileKernel("row_mean", cli, text).ok);
    // An unknown @kernel is reported at the pragma word.
    std::string bad = "# tilescope: N=64 @kernel=nope\n" + program();
    auto b = compileKernel("nope", ts::parseParamPragma(bad), bad);
    auto e = errors(b);
    ASSERT_EQ(e.size(), 1u) << ts::e2e::diagText(b);
    EXPECT_EQ(e[0]->span.line, 1u);
    EXPECT_EQ(e[0]->span.col, 19u);  // "@kernel" after "# tilescope: N=64 "
}

TEST(MultiKernel, AmbiguousInnerNameAndShapes) {
    const std::string text = R"(import tilelang
import tilelang.language as T


def first(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=64) as (bx,):
            for i in T.Parallel(N):
                A[i] = 1.0

    return main


def second(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=64) as (bx,):
            for i in T.Parallel(N):
                A[i] = 2.0

    return main


@T.prim_func
def bare(A: T.Tensor((32,), "float32")):
    with T.Kernel(1, threads=32) as (bx,):
        for i in T.Parallel(32):
            A[i] = 3.0
)";
    std::vector<ts::Diagnostic> diags;
    auto kernels = ts::listKernels("three.py", text, &diags);
    EXPECT_TRUE(diags.empty());
    ASSERT_EQ(kernels.size(), 3u);
    EXPECT_EQ(kernels[2].name, "bare");
    EXPECT_EQ(kernels[2].pattern, "prim_func");
    EXPECT_TRUE(kernels[2].params.empty());  // tensors are not settable
    EXPECT_TRUE(kernels[0].isDefault);       // undecorated factories rank above a bare prim_func
    auto r = compileKernel("main", {}, text);
    auto e = errors(r);
    ASSERT_EQ(e.size(), 1u) << ts::e2e::diagText(r);
    EXPECT_EQ(e[0]->message,
              "kernel name 'main' is ambiguous: it is the prim_func of first, second");
    auto b = compileKernel("bare", {}, text);
    ASSERT_TRUE(b.ok) << ts::e2e::diagText(b);
    EXPECT_EQ(b.kernel.block[0], 32u);
    auto s = compileKernel("second", {{"N", "128"}}, text);
    ASSERT_TRUE(s.ok) << ts::e2e::diagText(s);
    EXPECT_EQ(s.kernel.args[0].shape, (std::vector<int64_t>{128}));
}
