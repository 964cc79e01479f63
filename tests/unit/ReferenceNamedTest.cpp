// References where real files keep them (Reference.h): a function named by a dotted path
// (`run_gemm.ref_program`), values a nested reference sees from its enclosing functions (simple
// assignments before it, the kernel's parameters winning), and the names an unknown --ref lists.
#include "ReferenceTestUtil.h"
#include "compiler/frontend/Parser.h"
#include "profiler/check/ReferenceCall.h"

using namespace reftest;
using ts::HostTensor;

namespace {
ts::rt::ReferenceResult runNamed(const std::string& src, const std::string& name,
                                 const std::vector<HostTensor>& inputs,
                                 const std::map<std::string, std::string>& params = {}) {
    ts::rt::ReferenceOptions opt;
    opt.functionName = name;
    return ts::rt::evalReference(std::make_shared<ts::SourceFile>("named.py", src), params, inputs,
                                 opt);
}

std::string text(const ts::rt::ReferenceResult& r) {
    std::string s;
    for (auto& d : r.diagnostics) s += d.message + "\n";
    return s;
}

const char* kNested =
    "import math\n"
    "def ref_program(A):\n"
    "    return A * 100.0\n"
    "def run_mean(M=128, N=64, eps=0.5):\n"
    "    kernel = row_mean(M, N)\n"
    "    cols = N\n"
    "    scale = 1.0 / math.sqrt(4.0) + eps\n"
    "    M = 7\n"
    "    A = torch.randn(M, N)\n"
    "    def ref_program(A):\n"
    "        return A.sum(dim=1) / cols * scale + M\n"
    "    return ref_program\n"
    "def run_other():\n"
    "    def check():\n"
    "        def ref(A):\n"
    "            return A * 2.0\n"
    "        return ref\n"
    "    return check\n";
}  // namespace

TEST(ReferenceNamed, DottedPathSelectsTheNestedFunctionWithEnclosingValues) {
    HostTensor a = randomTensor({2, 4}, 41);
    // N=4 and M=2 are the kernel's: cols = N = 4 (its value, not the default 64); `M = 7` is
    // skipped (the kernel's M wins); scale = 0.5 + eps (the enclosing default 0.5) = 1.0;
    // torch.randn is not simple and never runs.
    auto r = runNamed(kNested, "run_mean.ref_program", {a}, {{"M", "2"}, {"N", "4"}});
    ASSERT_TRUE(r.ok) << text(r);
    ASSERT_EQ(r.outputs[0].shape, (std::vector<int64_t>{2}));
    for (int64_t i = 0; i < 2; ++i) {
        double sum = 0;
        for (int64_t j = 0; j < 4; ++j) sum += a.data[static_cast<size_t>(i * 4 + j)];
        EXPECT_DOUBLE_EQ(r.outputs[0].data[static_cast<size_t>(i)], sum / 4 * 1.0 + 2);
    }
    // A bound eps wins over the enclosing default: scale = 0.5 + 1.5 = 2.0.
    auto r2 =
        runNamed(kNested, "run_mean.ref_program", {a}, {{"M", "2"}, {"N", "4"}, {"eps", "1.5"}});
    ASSERT_TRUE(r2.ok) << text(r2);
    double sum0 = 0;
    for (int64_t j = 0; j < 4; ++j) sum0 += a.data[static_cast<size_t>(j)];
    EXPECT_DOUBLE_EQ(r2.outputs[0].data[0], sum0 / 4 * 2.0 + 2);
}

// A nested reference reading an enclosing helper's parameter that the helper passes to the
// kernel factory under another name (TileLang's clamp test: run_clamp's min/max are the
// kernel's min_val/max_val) sees the kernel's value, also when --param overrides it; before, it
// saw the helper's default None. Another function's arguments are not read as the kernel's, and
// the helper's own assignment before the call (`hi = hi * 2`) is in the kernel's value already.
TEST(ReferenceNamed, HelperParametersPassedToTheFactoryTakeTheKernelsValues) {
    const char* src =
        "import torch\n"
        "def clamp_kernel(N, block_N, min_val=None, max_val=None):\n"
        "    pass\n"
        "def other(lo, hi):\n"
        "    pass\n"
        "def run_clamp(N, block_N, lo=None, hi=None, unused=3.0):\n"
        "    hi = hi * 2\n"
        "    program = clamp_kernel(N, block_N, lo, max_val=hi)\n"
        "    other(unused, unused)\n"
        "    def ref_program(A):\n"
        "        return torch.clamp(A, lo, hi) + unused\n"
        "    return program\n";
    HostTensor a = randomTensor({8}, 43);
    auto r = runNamed(src, "run_clamp.ref_program", {a},
                      {{"N", "8"}, {"block_N", "8"}, {"min_val", "-0.25"}, {"max_val", "0.5"}});
    ASSERT_TRUE(r.ok) << text(r);
    for (size_t i = 0; i < 8; ++i)
        EXPECT_DOUBLE_EQ(r.outputs[0].data[i], std::min(std::max(a.data[i], -0.25), 0.5) + 3.0) << i;
}

// helper-120: an assignment after the kernel call applies (Python's closure sees it), and a
// helper passing its parameters swapped against kernel parameters of the same names sees them
// as the kernel does.
TEST(ReferenceNamed, HelperAliasesFollowTheCallNotTheNames) {
    const char* after =
        "import torch\n"
        "def clamp_kernel(N, lo, hi):\n"
        "    pass\n"
        "def run(N, a, b):\n"
        "    kernel = clamp_kernel(N, a, b)\n"
        "    a = a + 0.25\n"
        "    def ref_program(A):\n"
        "        return torch.clamp(A, a, b)\n"
        "    return kernel\n";
    HostTensor x = randomTensor({16}, 47);
    auto r = runNamed(after, "run.ref_program", {x}, {{"N", "16"}, {"lo", "-0.5"}, {"hi", "0.5"}});
    ASSERT_TRUE(r.ok) << text(r);
    for (size_t i = 0; i < 16; ++i) EXPECT_DOUBLE_EQ(r.outputs[0].data[i], std::min(std::max(x.data[i], -0.25), 0.5)) << i;
    const char* swapped =
        "import torch\n"
        "def clamp_kernel(N, lo, hi):\n"
        "    pass\n"
        "def run(N, hi, lo):\n"
        "    kernel = clamp_kernel(N, hi, lo)\n"
        "    def ref_program(A):\n"
        "        return torch.clamp(A, hi, lo)\n"
        "    return kernel\n";
    auto s2 = runNamed(swapped, "run.ref_program", {x}, {{"N", "16"}, {"lo", "-0.5"}, {"hi", "0.5"}});
    ASSERT_TRUE(s2.ok) << text(s2);
    for (size_t i = 0; i < 16; ++i) EXPECT_DOUBLE_EQ(s2.outputs[0].data[i], std::min(std::max(x.data[i], -0.5), 0.5)) << i;
}

TEST(ReferenceNamed, PlainNameStillPrefersTheTopLevelFunction) {
    HostTensor a = randomTensor({3}, 42);
    auto r = runNamed(kNested, "ref_program", {a});
    ASSERT_TRUE(r.ok) << text(r);
    EXPECT_DOUBLE_EQ(r.outputs[0].data[1], a.data[1] * 100.0);
}

TEST(ReferenceNamed, DeeperPathsAndMissingParts) {
    auto dummy = std::make_shared<ts::SourceFile>("named.py", kNested);
    ts::DiagnosticEngine d;
    auto mod = ts::fe::parseModule(dummy, d);
    ASSERT_FALSE(d.hasErrors());
    const auto* ref = ts::rt::findReferenceProgram(*mod, "run_other.check.ref");
    ASSERT_NE(ref, nullptr);
    EXPECT_EQ(ref->name, "ref");
    EXPECT_EQ(ref->span.line, 15u);
    EXPECT_EQ(ts::rt::findReferenceProgram(*mod, "run_other.ref"), nullptr);
    EXPECT_EQ(ts::rt::findReferenceProgram(*mod, "run_mean."), nullptr);
    EXPECT_EQ(ts::rt::findReferenceProgram(*mod, ".ref_program"), nullptr);
    HostTensor a = randomTensor({3}, 43);
    auto r = runNamed(kNested, "run_other.check.ref", {a});
    ASSERT_TRUE(r.ok) << text(r);
    EXPECT_DOUBLE_EQ(r.outputs[0].data[2], a.data[2] * 2.0);
    EXPECT_EQ(ts::rt::referenceCandidates(*mod),
              (std::vector<std::string>{"ref_program", "run_mean", "run_mean.ref_program",
                                        "run_other", "run_other.check"}));
}

TEST(ReferenceNamed, ScalarArgumentsNamedValuesAndDefaultWarnings) {
    // The kernel's `n: T.int32` argument: the reference parameter of that name gets it, and the
    // tensors go on to the next parameters.
    // `window` is the reference's own parameter (--ref-param); `scale` keeps its default, which
    // is reported, as is `groups` taken from another function's default.
    const char* src =
        "def kernel(batch, groups=3):\n"
        "    pass\n"
        "def ref(A, n, B, window, groups, scale=2.0):\n"
        "    return A * n + B * window * scale + groups\n";
    HostTensor a = randomTensor({4}, 44), b = randomTensor({4}, 45);
    ts::rt::ReferenceOptions opt;
    opt.functionName = "ref";
    ts::rt::ReferenceCall call;
    call.scalars = {{"n", 5.0, true, std::nullopt}};
    call.namedValues = {{"window", "10"}};
    auto eval = [&](const char* text, const std::vector<HostTensor>& in,
                    const ts::rt::ReferenceOptions& o, const ts::rt::ReferenceCall& c) {
        ts::DiagnosticEngine d;
        auto m = ts::fe::parseModule(std::make_shared<ts::SourceFile>("s.py", text), d);
        return ts::rt::evalReference(*m, {}, in, o, c);
    };
    auto r = eval(src, {a, b}, opt, call);
    ASSERT_TRUE(r.ok) << text(r);
    for (size_t i = 0; i < 4; ++i)
        EXPECT_DOUBLE_EQ(r.outputs[0].data[i], a.data[i] * 5 + b.data[i] * 10 * 2.0 + 3);
    std::vector<std::string> warnings;
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Warning) warnings.push_back(d.message);
    ASSERT_EQ(warnings.size(), 2u) << text(r);
    EXPECT_EQ(warnings[0],
              "ref: parameter 'groups' has no value from the kernel; it takes the default of "
              "kernel's parameter of that name (3)");
    EXPECT_EQ(warnings[1],
              "ref: parameter 'scale' has no value from the kernel; it takes its own default");
    // Positioned (--ref-inputs B,n,A): the scalar is the second positional input.
    const char* pos =
        "def ref2(B, m, A):\n"
        "    return A * m + B\n";
    ts::rt::ReferenceOptions po;
    po.functionName = "ref2";
    ts::rt::ReferenceCall pc;
    pc.scalars = {{"n", 5.0, true, 1}};
    auto r2 = eval(pos, {b, a}, po, pc);
    ASSERT_TRUE(r2.ok) << text(r2);
    for (size_t i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(r2.outputs[0].data[i], a.data[i] * 5 + b.data[i]);
    // A --ref-param the function does not have is an error naming it.
    call.namedValues = {{"windw", "10"}};
    auto bad = eval(src, {a, b}, opt, call);
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(text(bad).find("--ref-param windw: ref has no parameter named 'windw'"),
              std::string::npos)
        << text(bad);
}

TEST(ReferenceNamed, ScaledMmAppliesRowAndColumnScales) {
    // torch._scaled_mm (DeepGEMM's FP8 reference): (A @ B) * scale_a * scale_b, exact.
    const char* src =
        "import torch\n"
        "def ref(A, B, sa, sb):\n"
        "    return torch._scaled_mm(A, B.T, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)\n";
    HostTensor a = randomTensor({2, 3}, 46), b = randomTensor({2, 3}, 47),
               sa = randomTensor({2, 1}, 48), sb = randomTensor({1, 2}, 49);
    ts::rt::ReferenceOptions opt;
    opt.functionName = "ref";
    auto r = ts::rt::evalReference(std::make_shared<ts::SourceFile>("m.py", src), {},
                                   {a, b, sa, sb}, opt);
    ASSERT_TRUE(r.ok) << text(r);
    ASSERT_EQ(r.outputs[0].shape, (std::vector<int64_t>{2, 2}));
    for (size_t i = 0; i < 2; ++i)
        for (size_t j = 0; j < 2; ++j) {
            double dot = 0;
            for (size_t k = 0; k < 3; ++k) dot += a.data[i * 3 + k] * b.data[j * 3 + k];
            EXPECT_NEAR(r.outputs[0].data[i * 2 + j], dot * sa.data[i] * sb.data[j], 1e-12);
        }
}

TEST(ReferenceNamed, EinopsRearrangeAndEinsum) {
    // DeepSeek MLA decode's reference: split heads into groups, move axes, contract by name.
    const char* src =
        "from einops import rearrange, einsum\n"
        "def ref(q, k):\n"
        "    q = rearrange(q, 'b (h g) d -> b g h d', g=2)\n"
        "    k = rearrange(k, 'b n h d -> b h n d')\n"
        "    return einsum(q, k, 'b g h d, b h s d -> b g h s')\n";
    HostTensor q = randomTensor({1, 4, 3}, 50), k = randomTensor({1, 5, 2, 3}, 51);
    ts::rt::ReferenceOptions opt;
    opt.functionName = "ref";
    auto r = ts::rt::evalReference(std::make_shared<ts::SourceFile>("e.py", src), {}, {q, k}, opt);
    ASSERT_TRUE(r.ok) << text(r);
    ASSERT_EQ(r.outputs[0].shape, (std::vector<int64_t>{1, 2, 2, 5}));
    // out[0, g, h, s] = sum_d q[0, h*2 + g, d] * k[0, s, h, d]
    for (size_t g = 0; g < 2; ++g)
        for (size_t h = 0; h < 2; ++h)
            for (size_t s = 0; s < 5; ++s) {
                double dot = 0;
                for (size_t d = 0; d < 3; ++d)
                    dot += q.data[(h * 2 + g) * 3 + d] * k.data[(s * 2 + h) * 3 + d];
                EXPECT_NEAR(r.outputs[0].data[(g * 2 + h) * 5 + s], dot, 1e-12);
            }
    // A group whose split is not given is an error naming the axis.
    const char* bad = "from einops import rearrange\ndef ref(q):\n"
                      "    return rearrange(q, 'b (h g) d -> b g h d')\n";
    auto e = ts::rt::evalReference(std::make_shared<ts::SourceFile>("b.py", bad), {}, {q}, opt);
    EXPECT_FALSE(e.ok);
    EXPECT_NE(text(e).find("einops.rearrange: give the size of 'g'"), std::string::npos) << text(e);
}
