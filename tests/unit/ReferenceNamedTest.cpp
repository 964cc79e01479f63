// References where real files keep them (Reference.h): a function named by a dotted path
// (`run_gemm.ref_program`), values a nested reference sees from its enclosing functions (simple
// assignments before it, the kernel's parameters winning), and the names an unknown --ref lists.
#include "ReferenceTestUtil.h"
#include "compiler/frontend/Parser.h"

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
