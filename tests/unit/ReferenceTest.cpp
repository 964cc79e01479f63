// The reference evaluator end to end (profiler/check/Reference.h): ref_programs from source text
// against values computed independently here: matmul, softmax, einsum, causal attention,
// broadcasting, masked_fill; parameter binding (tensors first, then factory values, defaults,
// factory defaults); several outputs and nominal dtypes; top-level code that is not part of the
// reference; diagnostics with exact line:col for unsupported calls and shape errors; the samples;
// and the performance budget (1000^3 matmul, 4096 x 8192 softmax).
#include <cmath>
#include <fstream>
#include <sstream>

#include "compiler/frontend/Module.h"
#include "tests/unit/ReferenceTestUtil.h"
#include "tests/support/SourceDir.h"

using namespace reftest;
using ts::HostTensor;
using ts::ir::DType;

namespace {

std::vector<double> naiveMatmul(const HostTensor& a, const HostTensor& b) {
    int64_t M = a.shape[0], K = a.shape[1], N = b.shape[1];
    std::vector<double> c(static_cast<size_t>(M * N), 0.0);
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j)
            for (int64_t k = 0; k < K; ++k)
                c[static_cast<size_t>(i * N + j)] +=
                    a.data[static_cast<size_t>(i * K + k)] * b.data[static_cast<size_t>(k * N + j)];
    return c;
}

std::vector<double> naiveSoftmaxRows(const HostTensor& x) {
    int64_t R = x.shape[0], C = x.shape[1];
    std::vector<double> y(x.data.size());
    for (int64_t i = 0; i < R; ++i) {
        double mx = -INFINITY, s = 0;
        for (int64_t j = 0; j < C; ++j) mx = std::max(mx, x.data[static_cast<size_t>(i * C + j)]);
        for (int64_t j = 0; j < C; ++j) s += std::exp(x.data[static_cast<size_t>(i * C + j)] - mx);
        for (int64_t j = 0; j < C; ++j)
            y[static_cast<size_t>(i * C + j)] =
                std::exp(x.data[static_cast<size_t>(i * C + j)] - mx) / s;
    }
    return y;
}

/// Causal attention over (B, H, L, D) by explicit loops.
std::vector<double> naiveAttention(const HostTensor& q, const HostTensor& k, const HostTensor& v,
                                   bool causal, double scale) {
    int64_t B = q.shape[0], H = q.shape[1], L = q.shape[2], D = q.shape[3], S = k.shape[2];
    std::vector<double> out(static_cast<size_t>(B * H * L * D), 0.0);
    for (int64_t b = 0; b < B; ++b)
        for (int64_t h = 0; h < H; ++h)
            for (int64_t i = 0; i < L; ++i) {
                std::vector<double> s(static_cast<size_t>(S));
                double mx = -INFINITY;
                for (int64_t j = 0; j < S; ++j) {
                    double dot = 0;
                    for (int64_t d = 0; d < D; ++d)
                        dot +=
                            q.data[at(q.shape, {b, h, i, d})] * k.data[at(k.shape, {b, h, j, d})];
                    s[static_cast<size_t>(j)] = (causal && j > i) ? -INFINITY : dot * scale;
                    mx = std::max(mx, s[static_cast<size_t>(j)]);
                }
                double sum = 0;
                for (double& x : s) sum += x = std::exp(x - mx);
                for (int64_t d = 0; d < D; ++d) {
                    double acc = 0;
                    for (int64_t j = 0; j < S; ++j)
                        acc += s[static_cast<size_t>(j)] / sum * v.data[at(v.shape, {b, h, j, d})];
                    out[at({B, H, L, D}, {b, h, i, d})] = acc;
                }
            }
    return out;
}

}  // namespace

TEST(Reference, MatmulOperator) {
    HostTensor a = randomTensor({5, 7}, 1), b = randomTensor({7, 3}, 2);
    auto r = run("def ref_program(A, B):\n    return A @ B\n", {a, b});
    expectOutput(r, 0, {5, 3}, naiveMatmul(a, b));
    EXPECT_EQ(r.nominalDTypes[0], DType::Float32);
}

TEST(Reference, MatmulFloat16InputsStayExact) {
    HostTensor a = randomTensor({4, 6}, 3, DType::Float16),
               b = randomTensor({6, 2}, 4, DType::Float16);
    auto r =
        run("import torch\ndef ref_program(A, B):\n    return torch.matmul(A.float(), "
            "B.float()).half()\n",
            {a, b});
    // float64 accumulation (no fp16 products or sums); the .half() rounds the result once, as torch.
    expectOutput(r, 0, {4, 2}, rounded(DType::Float16, naiveMatmul(a, b)));
    EXPECT_EQ(r.nominalDTypes[0], DType::Float16);
}

TEST(Reference, SoftmaxLastDim) {
    HostTensor x = randomTensor({6, 11}, 5);
    auto r = run("import torch\ndef ref_program(x):\n    return torch.softmax(x, dim=-1)\n", {x});
    expectOutput(r, 0, {6, 11}, naiveSoftmaxRows(x));
}

TEST(Reference, SoftmaxFirstDimViaFunctional) {
    HostTensor x = randomTensor({5, 3}, 6);
    // softmax over dim 0 == transpose, softmax over rows, transpose back.
    HostTensor xt{DType::Float32, {3, 5}, std::vector<double>(15)};
    for (int64_t i = 0; i < 5; ++i)
        for (int64_t j = 0; j < 3; ++j)
            xt.data[static_cast<size_t>(j * 5 + i)] = x.data[static_cast<size_t>(i * 3 + j)];
    std::vector<double> yt = naiveSoftmaxRows(xt), y(15);
    for (int64_t i = 0; i < 5; ++i)
        for (int64_t j = 0; j < 3; ++j)
            y[static_cast<size_t>(i * 3 + j)] = yt[static_cast<size_t>(j * 5 + i)];
    auto r = run(
        "import torch.nn.functional as F\ndef ref_program(x):\n    return F.softmax(x, 0)\n", {x});
    expectOutput(r, 0, {5, 3}, y);
}

TEST(Reference, EinsumAttentionScores) {
    HostTensor q = randomTensor({2, 3, 4, 5}, 7), k = randomTensor({2, 3, 6, 5}, 8);
    std::vector<double> expect(2 * 3 * 4 * 6, 0.0);
    for (int64_t b = 0; b < 2; ++b)
        for (int64_t h = 0; h < 3; ++h)
            for (int64_t i = 0; i < 4; ++i)
                for (int64_t j = 0; j < 6; ++j)
                    for (int64_t d = 0; d < 5; ++d)
                        expect[at({2, 3, 4, 6}, {b, h, i, j})] +=
                            q.data[at(q.shape, {b, h, i, d})] * k.data[at(k.shape, {b, h, j, d})];
    auto r = run(
        "import torch\ndef ref_program(Q, K):\n    return torch.einsum('bhqd,bhkd->bhqk', Q, K)\n",
        {q, k});
    expectOutput(r, 0, {2, 3, 4, 6}, expect);
}

TEST(Reference, ScaledDotProductAttentionCausal) {
    HostTensor q = randomTensor({1, 2, 7, 4}, 9), k = randomTensor({1, 2, 7, 4}, 10),
               v = randomTensor({1, 2, 7, 4}, 11);
    const char* src =
        "import torch\n"
        "import torch.nn.functional as F\n"
        "def ref_program(Q, K, V, is_causal):\n"
        "    return F.scaled_dot_product_attention(Q, K, V, is_causal=is_causal)\n";
    auto causal = run(src, {q, k, v}, {{"is_causal", "True"}});
    expectOutput(causal, 0, {1, 2, 7, 4}, naiveAttention(q, k, v, true, 0.5), 1e-12);
    auto full = run(src, {q, k, v}, {{"is_causal", "False"}});
    expectOutput(full, 0, {1, 2, 7, 4}, naiveAttention(q, k, v, false, 0.5), 1e-12);
}

TEST(Reference, HandWrittenCausalAttentionMatchesSdpa) {
    HostTensor q = randomTensor({2, 1, 5, 8}, 12), k = randomTensor({2, 1, 5, 8}, 13),
               v = randomTensor({2, 1, 5, 8}, 14);
    const char* src =
        "import math\n"
        "import torch\n"
        "def ref_program(Q, K, V, is_causal=True):\n"
        "    dim = Q.size(-1)\n"
        "    scores = torch.einsum('bhqd,bhkd->bhqk', Q, K) / math.sqrt(dim)\n"
        "    if is_causal:\n"
        "        seq_len = Q.size(2)\n"
        "        mask = torch.tril(torch.ones(seq_len, seq_len))\n"
        "        mask = mask.unsqueeze(0).unsqueeze(0)\n"
        "        scores = scores.masked_fill(mask == 0, float('-inf'))\n"
        "    attention_weights = F.softmax(scores, dim=-1)\n"
        "    return torch.einsum('bhqk,bhkd->bhqd', attention_weights, V)\n";
    auto r = run(src, {q, k, v});
    expectOutput(r, 0, {2, 1, 5, 8}, naiveAttention(q, k, v, true, 1.0 / std::sqrt(8.0)), 1e-12);
}

TEST(Reference, BroadcastingArithmetic) {
    HostTensor x = randomTensor({3, 1, 4}, 15), y = randomTensor({5, 1}, 16);
    auto r = run("def ref_program(x, y):\n    return (x + y) * 2.0 - 1 / (y * y + 1)\n", {x, y});
    std::vector<double> expect(3 * 5 * 4);
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 5; ++j)
            for (int64_t k = 0; k < 4; ++k) {
                double xv = x.data[at(x.shape, {i, 0, k})], yv = y.data[at(y.shape, {j, 0})];
                expect[at({3, 5, 4}, {i, j, k})] = (xv + yv) * 2.0 - 1 / (yv * yv + 1);
            }
    expectOutput(r, 0, {3, 5, 4}, expect);
    EXPECT_EQ(r.nominalDTypes[0], DType::Float32);  // Python scalars do not promote f32
}

TEST(Reference, MaskedFillWithComparisonMask) {
    HostTensor x = randomTensor({4, 4}, 17);
    auto r = run(
        "def ref_program(x):\n    return x.masked_fill(x < 0, 0.0) + x.masked_fill(x >= 0, -1)\n",
        {x});
    std::vector<double> expect(16);
    for (size_t i = 0; i < 16; ++i)
        expect[i] = (x.data[i] < 0 ? 0.0 : x.data[i]) + (x.data[i] >= 0 ? -1.0 : x.data[i]);
    expectOutput(r, 0, {4, 4}, expect);
}

TEST(Reference, TupleReturnGivesSeveralOutputs) {
    HostTensor x = randomTensor({2, 3}, 18);
    auto r =
        run("def ref_program(x):\n    m = x.max(dim=1)\n    return m.values, m[1], x.sum(-1, "
            "keepdim=True).half()\n",
            {x});
    ASSERT_TRUE(r.ok) << diagText(r);
    ASSERT_EQ(r.outputs.size(), 3u);
    for (int64_t i = 0; i < 2; ++i) {
        auto row = x.data.begin() + i * 3;
        auto mx = std::max_element(row, row + 3);
        EXPECT_EQ(r.outputs[0].data[static_cast<size_t>(i)], *mx);
        EXPECT_EQ(r.outputs[1].data[static_cast<size_t>(i)], static_cast<double>(mx - row));
        EXPECT_EQ(r.outputs[2].data[static_cast<size_t>(i)], ts::roundTo(DType::Float16, row[0] + row[1] + row[2]));
    }
    EXPECT_EQ(r.outputs[2].shape, (std::vector<int64_t>{2, 1}));
    EXPECT_EQ(r.nominalDTypes[1], DType::Int64);
    EXPECT_EQ(r.nominalDTypes[2], DType::Float16);
}

TEST(Reference, ExtraParametersFromFactoryAndDefaults) {
    HostTensor x = randomTensor({3}, 19);
    const char* src =
        "@tilelang.jit(out_idx=[-1])\n"
        "def kernel(N, scale=3.0, shift=0.5):\n"
        "    pass\n"
        "def ref_program(x, scale, shift, bias=10):\n"
        "    return x * scale + shift + bias\n";
    auto r = run(src, {x}, {{"scale", "2"}});  // shift: the factory's default; bias: its own
    std::vector<double> expect;
    for (double v : x.data) expect.push_back(v * 2 + 0.5 + 10);
    expectOutput(r, 0, {3}, expect);
}

TEST(Reference, AnalysedModuleWithBoundParameters) {
    const char* src =
        "import tilelang\n"
        "import tilelang.language as T\n"
        "@tilelang.jit(out_idx=[-1])\n"
        "def scale_kernel(N=4, factor=2.0, dtype='float32'):\n"
        "    @T.prim_func\n"
        "    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):\n"
        "        with T.Kernel(1, threads=32) as bx:\n"
        "            for i in T.Parallel(N):\n"
        "                B[i] = A[i] * factor\n"
        "    return main\n"
        "if __name__ == '__main__':\n"
        "    def ref_program(A, factor, dtype):\n"
        "        return (A * factor).to(dtype)\n";
    ts::DiagnosticEngine diags;
    auto mod = ts::fe::Module::analyze(std::make_shared<ts::SourceFile>("scale.py", src), diags);
    ASSERT_FALSE(diags.hasErrors());
    ASSERT_NE(mod->entry(), nullptr);
    auto bound = mod->bindParams(*mod->entry(), {{"factor", "3.0"}, {"dtype", "float16"}}, diags);
    ASSERT_TRUE(bound.has_value());
    HostTensor a = randomTensor({4}, 24);
    auto r = ts::rt::evalReference(*mod, *bound, {a});
    std::vector<double> expect;
    for (double v : a.data) expect.push_back(ts::roundTo(DType::Float16, v * 3.0));
    expectOutput(r, 0, {4}, expect);
    EXPECT_EQ(r.nominalDTypes[0],
              DType::Float16);  // dtype="float16" (a string) is a dtype for .to()
    EXPECT_EQ(ts::rt::findReferenceProgram(*mod->ast()), mod->refProgram());
}

TEST(Reference, TileLangTestStyleNestedReference) {
    const char* src =
        "import tilelang\n"
        "import tilelang.language as T\n"
        "def run_gemm(M, N, K, trans_A, trans_B, in_dtype, out_dtype, num_stages=3):\n"
        "    program = matmul(M, N, K, trans_A, trans_B, in_dtype, out_dtype)\n"
        "    kernel = tilelang.compile(program, out_idx=[2])\n"
        "    profiler = kernel.get_profiler()\n"
        "    def ref_program(A, B):\n"
        "        import torch\n"
        "        if trans_A:\n"
        "            A = A.T\n"
        "        if trans_B:\n"
        "            B = B.T\n"
        "        C = torch.matmul(A.to(torch.float), B.to(torch.float))\n"
        "        C = C.to(torch.__getattribute__(out_dtype))\n"
        "        return C\n"
        "    profiler.assert_allclose(ref_program, atol=1e-2, rtol=1e-2)\n";
    HostTensor a = randomTensor({4, 3}, 25), b = randomTensor({5, 3}, 26);
    HostTensor bt{DType::Float32, {3, 5}, std::vector<double>(15)};
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 3; ++j)
            bt.data[static_cast<size_t>(j * 5 + i)] = b.data[static_cast<size_t>(i * 3 + j)];
    auto r =
        run(src, {a, b}, {{"trans_A", "False"}, {"trans_B", "True"}, {"out_dtype", "'bfloat16'"}});
    expectOutput(r, 0, {4, 5}, rounded(DType::BFloat16, naiveMatmul(a, bt)));
    EXPECT_EQ(r.nominalDTypes[0], DType::BFloat16);
}

// A top-level ref_program reads factory parameters that are not its own arguments (as the
// module-level flops/bytes lines do): the bound value wins over a module global of that name.
TEST(Reference, TopLevelReferenceSeesFactoryParameters) {
    const char* src =
        "import tilelang\n"
        "factor = 100.0\n"
        "@tilelang.jit\n"
        "def scale(M=4, factor=3.0):\n"
        "    pass\n"
        "def ref_program(A):\n"
        "    return A * factor + M\n";
    HostTensor a = randomTensor({4}, 31);
    auto r = run(src, {a}, {{"factor", "2.5"}, {"M", "4"}});
    ASSERT_TRUE(r.ok) << diagText(r);
    for (size_t i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(r.outputs[0].data[i], a.data[i] * 2.5 + 4.0);
}

TEST(Reference, TileLangGqaReference) {
    // TileLang's GQA flash-attention example reference (layout B, S, H, D), with its asserts.
    const char* src =
        "import torch\n"
        "import torch.nn.functional as F\n"
        "def ref_program(Q, K, V, is_causal, groups=1):\n"
        "    assert Q.size(2) == K.size(2) * groups, f\"Q heads {Q.size(2)} K heads {K.size(2)} "
        "groups {groups}\"\n"
        "    dim = Q.size(-1)\n"
        "    K_ref = K.repeat_interleave(groups, dim=2)\n"
        "    V_ref = V.repeat_interleave(groups, dim=2)\n"
        "    scores = torch.einsum(\"bqhd,bkhd->bhqk\", Q, K_ref)\n"
        "    scores = scores / torch.sqrt(torch.tensor(dim, dtype=scores.dtype))\n"
        "    if is_causal:\n"
        "        seq_len = Q.size(1)\n"
        "        mask = torch.tril(torch.ones(seq_len, seq_len, device=scores.device))\n"
        "        mask = mask.unsqueeze(0).unsqueeze(0)\n"
        "        scores = scores.masked_fill(mask == 0, float(\"-inf\"))\n"
        "    attention_weights = F.softmax(scores, dim=-1)\n"
        "    output = torch.einsum(\"bhqk,bkhd->bqhd\", attention_weights, V_ref)\n"
        "    return output\n";
    const int64_t B = 1, S = 6, H = 4, G = 2, D = 8;
    HostTensor q = randomTensor({B, S, H, D}, 27), k = randomTensor({B, S, H / G, D}, 28),
               v = randomTensor({B, S, H / G, D}, 29);
    // The same attention in (B, H, S, D) layout with expanded heads, by loops.
    auto toBhsd = [&](const HostTensor& x, int64_t heads, int64_t rep) {
        HostTensor t{
            DType::Float32, {B, H, S, D}, std::vector<double>(static_cast<size_t>(B * H * S * D))};
        for (int64_t h = 0; h < H; ++h)
            for (int64_t s2 = 0; s2 < S; ++s2)
                for (int64_t d = 0; d < D; ++d)
                    t.data[at(t.shape, {0, h, s2, d})] =
                        x.data[at({B, S, heads, D}, {0, s2, h / rep, d})];
        return t;
    };
    std::vector<double> bhsd = naiveAttention(toBhsd(q, H, 1), toBhsd(k, H / G, G),
                                              toBhsd(v, H / G, G), true, 1 / std::sqrt(8.0));
    std::vector<double> expect(bhsd.size());
    for (int64_t h = 0; h < H; ++h)
        for (int64_t s2 = 0; s2 < S; ++s2)
            for (int64_t d = 0; d < D; ++d)
                expect[at({B, S, H, D}, {0, s2, h, d})] = bhsd[at({B, H, S, D}, {0, h, s2, d})];
    auto r = run(src, {q, k, v}, {{"is_causal", "True"}, {"groups", "2"}});
    expectOutput(r, 0, {B, S, H, D}, expect);
    auto bad = run(src, {q, k, v}, {{"is_causal", "True"}});  // groups=1: the assert fails
    ASSERT_FALSE(bad.ok);
    EXPECT_EQ(bad.diagnostics[0].span.line, 4u);
    EXPECT_NE(bad.diagnostics[0].message.find("assertion failed"), std::string::npos)
        << diagText(bad);
}

TEST(Reference, NnModules) {
    HostTensor x = randomTensor({2, 3}, 30);
    auto r =
        run("import torch\ndef ref_program(x):\n    act = torch.nn.GELU()\n    sm = "
            "torch.nn.Softmax(dim=-1)\n"
            "    return act(x) - F.gelu(x) + sm(x) - torch.softmax(x, -1) + "
            "torch.nn.LeakyReLU(0.2)(x)\n",
            {x});
    std::vector<double> expect;
    for (double v : x.data) expect.push_back(v > 0 ? v : 0.2 * v);
    expectOutput(r, 0, {2, 3}, expect, 1e-14);
}

TEST(Reference, MissingParameterIsADiagnostic) {
    auto r = run("def ref_program(A, B, alpha):\n    return A\n",
                 {randomTensor({2}, 1), randomTensor({2}, 2)});
    ASSERT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_NE(r.diagnostics[0].message.find("parameter 'alpha' has no value"), std::string::npos)
        << diagText(r);
    EXPECT_EQ(r.diagnostics[0].span.line, 1u);
    EXPECT_EQ(r.diagnostics[0].span.col, 23u);
}

TEST(Reference, TooManyInputsIsADiagnostic) {
    auto r =
        run("def ref_program(A):\n    return A\n", {randomTensor({2}, 1), randomTensor({2}, 2)});
    ASSERT_FALSE(r.ok);
    EXPECT_NE(diagText(r).find("takes 1 tensor parameter but the kernel has 2 inputs"),
              std::string::npos)
        << diagText(r);
}

TEST(Reference, UnsupportedCallNamesTheCallAndItsSpan) {
    const char* src =
        "import torch\n"
        "def ref_program(A):\n"
        "    B = A.float()\n"
        "    return torch.linalg.svd(B)\n";
    auto r = run(src, {randomTensor({3, 3}, 20)});
    ASSERT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u) << diagText(r);
    const auto& d = r.diagnostics[0];
    EXPECT_EQ(d.message,
              "ref_program: torch.linalg.svd is not supported by the reference evaluator");
    EXPECT_EQ(d.span.line, 4u);
    EXPECT_EQ(d.span.col, 12u);
    EXPECT_EQ(d.origin, "reference");
}

TEST(Reference, UnsupportedMethodAndFunctionalNames) {
    auto m = run("def ref_program(A):\n    return A.cholesky()\n", {randomTensor({2, 2}, 21)});
    ASSERT_FALSE(m.ok);
    EXPECT_EQ(m.diagnostics[0].message,
              "ref_program: Tensor.cholesky is not supported by the reference evaluator");
    EXPECT_EQ(m.diagnostics[0].span.line, 2u);
    auto f =
        run("import torch.nn.functional as Fn\ndef ref_program(A):\n    return Fn.conv3d(A, A)\n",
            {randomTensor({2, 2}, 22)});
    ASSERT_FALSE(f.ok);
    EXPECT_EQ(
        f.diagnostics[0].message,
        "ref_program: torch.nn.functional.conv3d is not supported by the reference evaluator");
    EXPECT_EQ(f.diagnostics[0].span.col, 12u);
}

TEST(Reference, ShapeErrorPointsAtTheOperator) {
    auto r = run("def ref_program(A, B):\n    C = A + 1\n    return C @ B\n",
                 {randomTensor({3, 4}, 1), randomTensor({5, 6}, 2)});
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(
        r.diagnostics[0].message,
        "ref_program: operator @: matmul: shapes (3, 4) and (5, 6) cannot be multiplied (4 != 5)");
    EXPECT_EQ(r.diagnostics[0].span.line, 3u);
    EXPECT_EQ(r.diagnostics[0].span.col, 12u);
}

TEST(Reference, TopLevelCodeOutsideTheReferenceIsIgnored) {
    const char* src =
        "import argparse\n"
        "import tilelang\n"
        "import tilelang.language as T\n"
        "import torch\n"
        "from torch.nn import functional as Fn\n"
        "SCALE = 0.5\n"
        "flops = M * N\n"  // factory parameters: not defined at top level, only poisoned
        "def helper(x):\n"
        "    return Fn.relu(x) * SCALE\n"
        "def ref_program(x):\n"
        "    with torch.no_grad():\n"
        "        import torch as th\n"
        "        return helper(x) + th.exp(x) * 0\n"
        "def main():\n"
        "    parser = argparse.ArgumentParser()\n"
        "if __name__ == '__main__':\n"
        "    main()\n";
    HostTensor x = randomTensor({4}, 23);
    auto r = run(src, {x});
    std::vector<double> expect;
    for (double v : x.data) expect.push_back(std::max(v, 0.0) * 0.5);
    expectOutput(r, 0, {4}, expect);
}

TEST(Reference, PoisonedGlobalIsReportedWhereUsed) {
    auto r = run("bad = undefined_name + 1\ndef ref_program(x):\n    return x * bad\n",
                 {randomTensor({2}, 1)});
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.diagnostics[0].span.line, 3u);
    EXPECT_NE(r.diagnostics[0].message.find("'bad' could not be evaluated"), std::string::npos)
        << diagText(r);
}

TEST(Reference, NoReferenceProgram) {
    auto r = run("def kernel(M):\n    pass\n", {});
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_NE(r.diagnostics[0].message.find("no 'ref_program'"), std::string::npos);
}

// `--ref matmul` naming the file's kernel (helper-125 #17: "ref_program must return tensors, got
// function"): the error says it is a kernel and what --ref wants.
TEST(Reference, AKernelNamedAsTheReferenceIsSaidToBeOne) {
    ts::rt::ReferenceOptions opt;
    opt.functionName = "matmul";
    auto r = ts::rt::evalReference(std::make_shared<ts::SourceFile>("ref_test.py",
                                                                   "import tilelang\n"
                                                                   "@tilelang.jit(out_idx=[-1])\n"
                                                                   "def matmul(M, N):\n"
                                                                   "    pass\n"),
                                   {}, {randomTensor({2}, 1)}, opt);
    ASSERT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].message, "'matmul' is a kernel (@tilelang.jit), not a reference: --ref names a Python "
                                        "function that computes the expected outputs from the inputs");
    EXPECT_EQ(r.diagnostics[0].span.line, 3u);
}

TEST(Reference, ReturningNoneIsADiagnostic) {
    auto r = run("def ref_program(x):\n    y = x + 1\n", {randomTensor({2}, 1)});
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.diagnostics[0].message.find("must return tensors, got NoneType"), std::string::npos)
        << diagText(r);
}

TEST(Reference, Samples) {
    auto load = [](const std::string& name) {
        std::ifstream f(std::string(TS_SOURCE_DIR) + "/samples/" + name);
        std::stringstream ss;
        ss << f.rdbuf();
        return std::make_shared<ts::SourceFile>(name, ss.str());
    };
    HostTensor a = randomTensor({8, 16}, 30, DType::Float16),
               b = randomTensor({16, 4}, 31, DType::Float16);
    auto gemm =
        ts::rt::evalReference(load("gemm.py"), {{"M", "8"}, {"N", "4"}, {"K", "16"}}, {a, b});
    expectOutput(gemm, 0, {8, 4}, naiveMatmul(a, b));
    HostTensor x = randomTensor({3, 10}, 32);
    auto sm = ts::rt::evalReference(load("softmax.py"), {}, {x});
    expectOutput(sm, 0, {3, 10}, naiveSoftmaxRows(x));
    auto add = ts::rt::evalReference(load("add.py"), {}, {x, x});
    std::vector<double> twice;
    for (double v : x.data) twice.push_back(2 * v);
    expectOutput(add, 0, {3, 10}, twice);
}

// Large inputs (the sizes tilec run checks on the GPU) give exact float64 results. How long the
// evaluation takes is not asserted here (a unit test is not a benchmark): `tilec run` prints the
// reference time of every check.
TEST(Reference, LargeInputs) {
    HostTensor a = randomTensor({1000, 1000}, 40), b = randomTensor({1000, 1000}, 41);
    auto mm = run("def ref_program(A, B):\n    return A @ B\n", {a, b});
    ASSERT_TRUE(mm.ok) << diagText(mm);
    double c00 = 0;
    for (int64_t k = 0; k < 1000; ++k)
        c00 += a.data[static_cast<size_t>(k)] * b.data[static_cast<size_t>(k * 1000)];
    EXPECT_NEAR(mm.outputs[0].data[0], c00, 1e-12);

    HostTensor x = randomTensor({4096, 8192}, 42);
    auto sm = run("def ref_program(X):\n    return torch.softmax(X, dim=-1)\n", {x});
    ASSERT_TRUE(sm.ok) << diagText(sm);
    double rowSum = 0;
    for (int64_t j = 0; j < 8192; ++j)
        rowSum += sm.outputs[0].data[static_cast<size_t>(4095 * 8192 + j)];
    EXPECT_NEAR(rowSum, 1.0, 1e-12);
}
