// Front-end limits and module-level execution: long flat expressions (which every later stage
// walks recursively) are a diagnostic at file:line:col instead of a stack overflow, also on a
// small worker-thread stack; module-level if/for/while run as Python runs them on import.
#include <string>

#include <gtest/gtest.h>
#include <pthread.h>

#include "compiler/Compile.h"
#include "compiler/frontend/Module.h"
#include "compiler/frontend/Parser.h"

namespace {

using namespace ts;

// A kernel whose parallel loop binds `x = <inner>` on line 12 (column 21) and stores it.
std::string kernel(const std::string& inner, const std::string& top = "") {
    return top +
           "import tilelang\n"
           "import tilelang.language as T\n"
           "\n"
           "\n"
           "@tilelang.jit(out_idx=[-1])\n"
           "def scale(M=256, block_M=128):\n"
           "\n"
           "    @T.prim_func\n"
           "    def main(A: T.Tensor((M,), \"float32\"), B: T.Tensor((M,), \"float32\")):\n"
           "        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):\n"
           "            for i in T.Parallel(block_M):\n"
           "                x = " +
           inner +
           "\n"
           "                B[bx * block_M + i] = A[bx * block_M + i] * 2.0 + x\n"
           "\n"
           "    return main\n";
}

std::string repeat(const std::string& s, int n) {
    std::string out;
    for (int k = 0; k < n; ++k) out += s;
    return out;
}

// The errors of compiling `text`, as "line:col: message".
std::vector<std::string> errors(const std::string& text) {
    CompileResult r = compile("k.py", text, {});
    std::vector<std::string> out;
    for (const auto& d : r.diagnostics)
        if (d.severity == Severity::Error)
            out.push_back(std::to_string(d.span.line) + ":" + std::to_string(d.span.col) + ": " +
                          d.message);
    return out;
}

void expectTooLong(const std::string& text, const std::string& where) {
    auto errs = errors(text);
    ASSERT_EQ(errs.size(), 1u) << (errs.empty() ? "no error" : errs[0]);
    EXPECT_EQ(errs[0].rfind(where + ": expression too long: more than 500", 0), 0u) << errs[0];
}

TEST(FrontendLimits, LongChainInKernelIsAnErrorNotACrash) {
    // 30,000 constant terms overflowed the meta-evaluator; 600 symbolic ones the CUDA emitter.
    expectTooLong(kernel("0" + repeat("+0", 30000)), "12:21");
    expectTooLong(kernel("i" + repeat("+i", 600)), "12:21");
}

TEST(FrontendLimits, LongChainsAtModuleLevelAreErrorsEvenWhenUnused) {
    const std::string k = kernel("i");
    expectTooLong("Z = 0" + repeat("+0", 50000) + "\n" + k, "1:5");
    expectTooLong("Z = f" + repeat("()", 50000) + "\n" + k, "1:5");
    expectTooLong("Z = T" + repeat(".a", 50000) + "\n" + k, "1:5");
    expectTooLong("Z = T" + repeat("[0]", 50000) + "\n" + k, "1:5");
    // Brackets nest at most kMaxParseDepth parser levels, but left-nested chains add up:
    // ((0+0...)+0...)... with 30 levels of 39 additions is 1171 deep. Height 501 is first
    // reached in the 13th group from the inside (13 * 39 + 1 = 508), which opens at column 22.
    expectTooLong("Z = " + repeat("(", 30) + "0" + repeat(repeat("+0", 39) + ")", 30) + "\n" + k,
                  "1:23");
}

TEST(FrontendLimits, RightNestedPowerIsBoundedByTheNestingLimit) {
    auto errs = errors("Z = 0" + repeat("**0", 50000) + "\n" + kernel("i"));
    ASSERT_EQ(errs.size(), 1u);
    EXPECT_NE(errs[0].find("nested too deeply"), std::string::npos) << errs[0];
}

TEST(FrontendLimits, LongExpressionInParamValueIsAnError) {
    DiagnosticEngine diags;
    auto p = fe::parseExpression(std::make_shared<SourceFile>("--param", "1" + repeat("+1", 2000)),
                                 diags);
    EXPECT_EQ(p.expr, nullptr);
    EXPECT_TRUE(diags.hasErrors());
}

TEST(FrontendLimits, ChainsSplitOverKernelVariablesAreBoundedToo) {
    // `x` stands for its expression, so line 13 makes x 401 deep and line 14 801 (> 600).
    const std::string more = "\n                x = x" + repeat("+i", 400);
    auto errs = errors(kernel("i" + more + more + more));
    ASSERT_EQ(errs.size(), 1u) << errs[0];
    EXPECT_EQ(errs[0].rfind("14:21: expression too long: more than 600", 0), 0u) << errs[0];
}

bool compilesOnTwoMegabyteStack(const std::string& text, std::string& firstError) {
    struct Job {
        const std::string& text;
        bool ok = false;
        std::string firstError;
    } job{text, false, {}};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 2u << 20);
    pthread_t th;
    auto run = [](void* p) -> void* {
        auto* j = static_cast<Job*>(p);
        CompileResult r = compile("k.py", j->text, {});
        j->ok = r.ok;
        for (const auto& d : r.diagnostics)
            if (d.severity == Severity::Error && j->firstError.empty()) j->firstError = d.message;
        return nullptr;
    };
    EXPECT_EQ(pthread_create(&th, &attr, run, &job), 0);
    pthread_join(th, nullptr);
    pthread_attr_destroy(&attr);
    firstError = job.firstError;
    return job.ok;
}

// 500 operands (height 500) is the most one expression may have, and 600 levels after
// substituting kernel variables. Compile both extremes on a 2 MB thread stack (smaller than the
// 8 MB main thread and the glibc default for Qt's worker threads) to show the limits leave room
// for every recursive stage, codegen included.
TEST(FrontendLimits, ChainsAtTheLimitsCompileOnATwoMegabyteStack) {
    std::string err;
    EXPECT_TRUE(compilesOnTwoMegabyteStack(kernel("i" + repeat("+i", 499)), err)) << err;
    const std::string more = "\n                x = x" + repeat("+i", 290);
    EXPECT_TRUE(compilesOnTwoMegabyteStack(kernel("i" + more + more), err)) << err;
}

std::shared_ptr<fe::Module> analyze(const std::string& text, DiagnosticEngine& diags) {
    return fe::Module::analyze(std::make_shared<SourceFile>("k.py", text), diags);
}

int64_t global(const fe::Module& m, const std::string& name) {
    const fe::Value* v = m.globals()->lookup(name);
    if (!v || !v->is(fe::ValueKind::Int)) return -1;
    return v->asInt();
}

TEST(FrontendLimits, ModuleLevelControlFlowRunsLikePython) {
    // Python: 16 -> 32 -> 64 -> 128; the elif branch picks 7; the while loop stops at 5; the
    // main guard is false on import.
    DiagnosticEngine diags;
    auto m = analyze(
        "BM = 16\n"
        "for _ in range(3):\n"
        "    BM = BM * 2\n"
        "if BM > 1000:\n"
        "    K = 1\n"
        "elif BM == 128:\n"
        "    K = 7\n"
        "else:\n"
        "    K = 3\n"
        "W = 0\n"
        "while W < 5:\n"
        "    W += 1\n"
        "if __name__ == \"__main__\":\n"
        "    BM = 1\n" +
            kernel("i"),
        diags);
    EXPECT_FALSE(diags.hasErrors());
    EXPECT_EQ(global(*m, "BM"), 128);
    EXPECT_EQ(global(*m, "K"), 7);
    EXPECT_EQ(global(*m, "W"), 5);
}

TEST(FrontendLimits, ModuleLevelLoopChangesTheCompiledKernel) {
    // block size BM = 16 * 2**3 = 128 -> grid ceil(256 / 128) = 2 blocks.
    std::string text = kernel("i", "BM = 16\nfor _ in range(3):\n    BM = BM * 2\n");
    size_t at = text.find("T.ceildiv(M, block_M)");
    text.replace(at, 21, "T.ceildiv(M, BM)");
    CompileResult r = compile("k.py", text, {});
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.kernel.grid[0], 2u);
}

TEST(FrontendLimits, EndlessModuleLevelLoopHitsTheStepLimit) {
    auto errs = errors("BM = 0\nwhile True:\n    BM += 1\n" + kernel("i // BM"));
    ASSERT_FALSE(errs.empty());
    EXPECT_EQ(errs[0].rfind("2:7: compile-time evaluation exceeded", 0), 0u) << errs[0];
    for (const auto& e : errs) EXPECT_EQ(e.find("division by zero"), std::string::npos) << e;
}

TEST(FrontendLimits, FailingModuleLevelLoopPoisonsOnlyItsNames) {
    // `benchmark` is undefined: the loop's names are poisoned, the rest of the file is fine.
    DiagnosticEngine diags;
    auto m = analyze("BM = 16\nfor n in [1, 2]:\n    R = benchmark(n)\n" + kernel("i"), diags);
    EXPECT_FALSE(diags.hasErrors());
    EXPECT_EQ(global(*m, "BM"), 16);
    ASSERT_NE(m->globals()->lookup("R"), nullptr);
    EXPECT_TRUE(m->globals()->lookup("R")->is(fe::ValueKind::Poison));
}

TEST(FrontendLimits, DeeplyNestedMetaValuesAreReleasedAndPrintedWithoutRecursion) {
    // 150,000 nested lists and 60,000 chained closures, then rebound: releasing them used to
    // recurse once per level. A cyclic list prints "[...]" where it recurs, as in Python.
    // (4 steps per iteration of each loop: ~850k of the 1M-step budget, which charges work.)
    DiagnosticEngine diags;
    auto m = analyze(
        "x = 0\n"
        "for _ in range(150000):\n"
        "    x = [x]\n"
        "deep = x\n"
        "x = 0\n"
        "f = None\n"
        "for _ in range(60000):\n"
        "    f = (lambda g=f: g)\n"
        "f = 1\n"
        "a = [0]\n"
        "a[0] = a\n" +
            kernel("i"),
        diags);
    EXPECT_FALSE(diags.hasErrors()) << (diags.all().empty() ? "" : diags.all()[0].message);
    EXPECT_EQ(global(*m, "x"), 0);
    EXPECT_EQ(global(*m, "f"), 1);
    ASSERT_NE(m->globals()->lookup("a"), nullptr);
    ASSERT_NE(m->globals()->lookup("deep"), nullptr);
    std::string r = fe::repr(*m->globals()->lookup("a"));
    EXPECT_EQ(r, "[[...]]");  // Python's output (was 64 levels deep before "...")
    r = fe::repr(*m->globals()->lookup("deep"));
    EXPECT_EQ(r, std::string(64, '[') + "..." + std::string(64, ']'));
    m.reset();  // releases `deep` (150,000 levels)
}

}  // namespace
