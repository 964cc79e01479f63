// Forms of reference programs in the TileLang corpus that the evaluator calls (Reference.h,
// ReferenceCall.h): a reference factory (`ref_program(stride, padding, dilation)` returning the
// function of the inputs), --ref-param values that are expressions over the kernel's inputs,
// Python's max/min/range/isinstance over tensors, `...` indices, einops.repeat, torch.backends
// flags, gather/scatter/conv2d and functions of sibling modules. Every value is
// checked against a hand-computed float64 result.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "ReferenceTestUtil.h"
#include "compiler/frontend/Parser.h"
#include "profiler/check/ReferenceCall.h"

using namespace reftest;
using ts::HostTensor;

namespace {
ts::rt::ReferenceResult evalWith(const char* src, const std::string& name,
                                 const std::vector<HostTensor>& inputs,
                                 const ts::rt::ReferenceCall& call,
                                 const std::map<std::string, std::string>& params = {}) {
    ts::DiagnosticEngine d;
    auto m = ts::fe::parseModule(std::make_shared<ts::SourceFile>("forms.py", src), d);
    ts::rt::ReferenceOptions opt;
    opt.functionName = name;
    return ts::rt::evalReference(*m, params, inputs, opt, call);
}
}  // namespace

TEST(ReferenceCallForms, FactoryReturningTheFunctionOfTheInputs) {
    // convolution/example_convolution_autotune.py's shape: the settings come by name, the
    // returned main(A, B) takes the inputs.
    const char* src =
        "def ref_program(stride, padding, scale):\n"
        "    def main(A, B):\n"
        "        return A * stride + B * padding + scale\n"
        "    return main\n";
    HostTensor a = randomTensor({3, 2}, 61), b = randomTensor({3, 2}, 62);
    ts::rt::ReferenceCall call;
    call.namedValues = {{"stride", "2"}, {"padding", "3"}, {"scale", "0.5"}};
    auto r = evalWith(src, "ref_program", {a, b}, call);
    ASSERT_TRUE(r.ok) << diagText(r);
    ASSERT_EQ(r.outputs[0].shape, (std::vector<int64_t>{3, 2}));
    for (size_t i = 0; i < 6; ++i)
        EXPECT_DOUBLE_EQ(r.outputs[0].data[i], a.data[i] * 2 + b.data[i] * 3 + 0.5);
    // A reference that takes too few tensors and returns a tensor is still the named error.
    const char* few = "def ref_program(A):\n    return A * 2.0\n";
    auto e = evalWith(few, "ref_program", {a, b}, {});
    EXPECT_FALSE(e.ok);
    EXPECT_NE(diagText(e).find("ref_program takes 1 tensor parameter but the kernel has 2 inputs"),
              std::string::npos)
        << diagText(e);
}

TEST(ReferenceCallForms, RefParamExpressionOverTheKernelInputs) {
    // deepseek_mhc/example_mhc_post.py: the kernel takes post_layer_mix squeezed to (n, hc), the
    // reference (n, hc, 1): --ref-inputs d,b,a and --ref-param post_layer_mix=c.unsqueeze(-1).
    const char* src =
        "def ref(x, residual, post_layer_mix, comb):\n"
        "    return x.unsqueeze(-2) * post_layer_mix + residual * comb.sum()\n";
    HostTensor c = randomTensor({2, 3}, 63), d = randomTensor({2, 4}, 64),
               b = randomTensor({2, 3, 4}, 65), a = randomTensor({1}, 66);
    ts::rt::ReferenceCall call;
    call.namedValues = {{"post_layer_mix", "c.unsqueeze(-1) * 2"}};
    call.namedInputs = {{"a", &a}, {"b", &b}, {"c", &c}, {"d", &d}};
    auto r = evalWith(src, "ref", {d, b, a}, call);
    ASSERT_TRUE(r.ok) << diagText(r);
    ASSERT_EQ(r.outputs[0].shape, (std::vector<int64_t>{2, 3, 4}));
    for (size_t n = 0; n < 2; ++n)
        for (size_t h = 0; h < 3; ++h)
            for (size_t k = 0; k < 4; ++k)
                EXPECT_NEAR(r.outputs[0].data[(n * 3 + h) * 4 + k],
                            d.data[n * 4 + k] * c.data[n * 3 + h] * 2 +
                                b.data[(n * 3 + h) * 4 + k] * a.data[0],
                            1e-12);
    // torch constructors work too; a bare unknown name stays a string (like --param).
    const char* src2 =
        "import torch\n"
        "def ref(A, g, mode):\n"
        "    return A * g if mode == 'mul' else A\n";
    ts::rt::ReferenceCall c2;
    c2.namedValues = {{"g", "torch.ones(2, 3) * 3"}, {"mode", "mul"}};
    auto r2 = evalWith(src2, "ref", {c}, c2);
    ASSERT_TRUE(r2.ok) << diagText(r2);
    for (size_t i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(r2.outputs[0].data[i], c.data[i] * 3);
    // An expression that fails names the parameter and the text.
    c2.namedValues = {{"g", "torch.ones(2, 3) * nope"}, {"mode", "mul"}};
    auto e = evalWith(src2, "ref", {c}, c2);
    EXPECT_FALSE(e.ok);
    EXPECT_NE(diagText(e).find("--ref-param g=torch.ones(2, 3) * nope:"), std::string::npos)
        << diagText(e);
}

TEST(ReferenceCallForms, BuiltinMaxMinRangeOverTensors) {
    // blocksparse_attention's paged reference: max(cache_seqlens).item(); range over a 0-d int.
    const char* src =
        "import torch\n"
        "def ref(lens, A):\n"
        "    hi = max(lens).item()\n"
        "    lo = min(lens[0], lens[2])\n"
        "    acc = A * 0\n"
        "    for i in range(lens[1]):\n"
        "        acc = acc + 1\n"
        "    return acc + hi * 10 + lo * 100\n";
    HostTensor lens = ts::makeHostTensor(ts::ir::DType::Int32, {3}, {4, 2, 7});
    HostTensor a = randomTensor({2}, 67);
    auto r = evalWith(src, "ref", {lens, a}, {});
    ASSERT_TRUE(r.ok) << diagText(r);
    for (size_t i = 0; i < 2; ++i) EXPECT_DOUBLE_EQ(r.outputs[0].data[i], 2 + 7 * 10 + 4 * 100);
    // max() of a 2-D tensor compares rows in torch (ambiguous): an error saying so.
    const char* bad = "def ref(A):\n    return max(A)\n";
    auto e = evalWith(bad, "ref", {randomTensor({2, 2}, 68)}, {});
    EXPECT_FALSE(e.ok);
    EXPECT_NE(diagText(e).find("max() of a tensor of shape (2, 2) compares its rows"),
              std::string::npos)
        << diagText(e);
}

TEST(ReferenceCallForms, EinopsRepeatAndTorchBackendsFlags) {
    // deepseek_nsa's naive reference: repeat(k, "b t h d -> b t (h g) d", g=G); gdn's reference
    // sets torch.backends.cuda.matmul.allow_tf32 around its matmuls (no effect in float64).
    const char* src =
        "import torch\n"
        "from einops import repeat\n"
        "def ref(k):\n"
        "    torch.backends.cuda.matmul.allow_tf32 = True\n"
        "    r = repeat(k, 'b t h d -> b t (h g) d', g=2)\n"
        "    s = repeat(k[0, 0, 0], 'd -> n d', n=3)\n"
        "    torch.backends.cuda.matmul.allow_tf32 = False\n"
        "    return r, s\n";
    HostTensor k = randomTensor({1, 2, 3, 4}, 69);
    auto r = evalWith(src, "ref", {k}, {});
    ASSERT_TRUE(r.ok) << diagText(r);
    ASSERT_EQ(r.outputs[0].shape, (std::vector<int64_t>{1, 2, 6, 4}));
    for (int64_t t = 0; t < 2; ++t)
        for (int64_t hg = 0; hg < 6; ++hg)
            for (int64_t d = 0; d < 4; ++d)
                EXPECT_EQ(r.outputs[0].data[at({1, 2, 6, 4}, {0, t, hg, d})],
                          k.data[at({1, 2, 3, 4}, {0, t, hg / 2, d})]);
    ASSERT_EQ(r.outputs[1].shape, (std::vector<int64_t>{3, 4}));
    for (int64_t n = 0; n < 3; ++n)
        for (int64_t d = 0; d < 4; ++d)
            EXPECT_EQ(r.outputs[1].data[at({3, 4}, {n, d})], k.data[static_cast<size_t>(d)]);
    // A new axis without its size is an error naming it; other torch attributes stay refused.
    const char* bad = "from einops import repeat\ndef ref(k):\n"
                      "    return repeat(k, 'b t h d -> b t h d g')\n";
    auto e = evalWith(bad, "ref", {k}, {});
    EXPECT_FALSE(e.ok);
    EXPECT_NE(diagText(e).find("einops.repeat: give the size of the new axis 'g'"),
              std::string::npos)
        << diagText(e);
    const char* set = "import torch\ndef ref(k):\n    torch.linalg.flag = 1\n    return k\n";
    auto e2 = evalWith(set, "ref", {k}, {});
    EXPECT_FALSE(e2.ok);
    EXPECT_NE(diagText(e2).find("cannot set attribute 'flag'"), std::string::npos) << diagText(e2);
}

TEST(ReferenceCallForms, GatherScatterConv2d) {
    // gather/scatter along the last dim (sparse MLA's mask from top-k indices).
    const char* src =
        "import torch\n"
        "def ref(x, idx):\n"
        "    g = torch.gather(x, 1, idx)\n"
        "    m = torch.zeros(2, 5).scatter(1, idx, 1)\n"
        "    return g, m\n";
    HostTensor x = randomTensor({2, 5}, 70);
    HostTensor idx = ts::makeHostTensor(ts::ir::DType::Int64, {2, 2}, {4, 0, 2, 2});
    auto r = evalWith(src, "ref", {x, idx}, {});
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_EQ(r.outputs[0].data, (std::vector<double>{x.data[4], x.data[0], x.data[7], x.data[7]}));
    EXPECT_EQ(r.outputs[1].data,
              (std::vector<double>{1, 0, 0, 0, 1, 0, 0, 1, 0, 0}));
    // conv2d with stride 2, padding 1, dilation 1 on a 1x1x3x3 input and a 1x1x2x2 filter:
    // out[oh, ow] = sum_{kh, kw} in[2*oh - 1 + kh, 2*ow - 1 + kw] * w[kh, kw] (zero outside).
    const char* conv =
        "import torch\n"
        "def ref(A, B):\n"
        "    return torch.conv2d(A, B, stride=2, padding=1, dilation=1)\n";
    HostTensor in = randomTensor({1, 1, 3, 3}, 71), w = randomTensor({1, 1, 2, 2}, 72);
    auto c = evalWith(conv, "ref", {in, w}, {});
    ASSERT_TRUE(c.ok) << diagText(c);
    ASSERT_EQ(c.outputs[0].shape, (std::vector<int64_t>{1, 1, 2, 2}));
    for (int oh = 0; oh < 2; ++oh)
        for (int ow = 0; ow < 2; ++ow) {
            double acc = 0;
            for (int kh = 0; kh < 2; ++kh)
                for (int kw = 0; kw < 2; ++kw) {
                    int ih = 2 * oh - 1 + kh, iw = 2 * ow - 1 + kw;
                    if (ih >= 0 && ih < 3 && iw >= 0 && iw < 3)
                        acc += in.data[size_t(ih * 3 + iw)] * w.data[size_t(kh * 2 + kw)];
                }
            EXPECT_NEAR(c.outputs[0].data[size_t(oh * 2 + ow)], acc, 1e-12);
        }
    // An index out of range is an error naming it.
    HostTensor bad = ts::makeHostTensor(ts::ir::DType::Int64, {2, 2}, {5, 0, 0, 0});
    auto e = evalWith(src, "ref", {x, bad}, {});
    EXPECT_FALSE(e.ok);
    EXPECT_NE(diagText(e).find("gather: index 5 is out of bounds for size 5"), std::string::npos)
        << diagText(e);
}

TEST(ReferenceCallForms, EllipsisIsinstanceAndPythonTypesAsDtypes) {
    // sparse_mla's `kv[..., :dim]`, naive_nsa's `isinstance(block_counts, torch.Tensor)`,
    // mamba's `torch.ones(n, n, dtype=bool)`, naive_nsa's `x.new_tensor(range(...))`.
    const char* src =
        "import torch\n"
        "def ref(kv, counts=None):\n"
        "    v = kv[..., :2]\n"
        "    a = 1.0 if isinstance(kv, torch.Tensor) else 0.0\n"
        "    b = 1.0 if isinstance(counts, (torch.Tensor, int)) else 0.0\n"
        "    c = 1.0 if isinstance(kv, torch.LongTensor) else 0.0\n"
        "    m = torch.tril(torch.ones(2, 2, dtype=bool))\n"
        "    r = counts_of(kv).new_tensor(range(0, 6, 2))\n"
        "    return v * a + b * 10 + c * 100, m, r\n"
        "def counts_of(kv):\n"
        "    return kv.long()\n";
    HostTensor kv = randomTensor({2, 3}, 73);
    auto r = evalWith(src, "ref", {kv}, {});
    ASSERT_TRUE(r.ok) << diagText(r);
    ASSERT_EQ(r.outputs[0].shape, (std::vector<int64_t>{2, 2}));
    for (size_t i = 0; i < 2; ++i)
        for (size_t j = 0; j < 2; ++j)
            EXPECT_DOUBLE_EQ(r.outputs[0].data[i * 2 + j], kv.data[i * 3 + j]);  // b, c false
    EXPECT_EQ(r.outputs[1].data, (std::vector<double>{1, 0, 1, 1}));
    EXPECT_EQ(r.nominalDTypes[1], ts::ir::DType::Bool);
    // naive_nsa's `block_indices.new_tensor(range(0, B * T, T))`: the data with self's dtype.
    EXPECT_EQ(r.outputs[2].data, (std::vector<double>{0, 2, 4}));
    EXPECT_EQ(r.nominalDTypes[2], ts::ir::DType::Int64);
}

TEST(ReferenceCallForms, SiblingModuleFunctions) {
    // block_causal_attention_varlen.py imports its reference's core from a sibling file.
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("ts_ref_sibling_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    {
        std::ofstream(dir / "helpers.py") << "import torch\n"
                                             "def core(x, s):\n"
                                             "    return x * s + 1\n";
    }
    const std::string main = "from helpers import core\n"
                             "def ref(x):\n"
                             "    return core(x, 3.0)\n";
    {
        std::ofstream(dir / "main.py") << main;
    }
    ts::rt::ReferenceOptions opt;
    opt.functionName = "ref";
    HostTensor x = randomTensor({4}, 74);
    auto r = ts::rt::evalReference(std::make_shared<ts::SourceFile>((dir / "main.py").string(), main),
                                   {}, {x}, opt);
    fs::remove_all(dir);
    ASSERT_TRUE(r.ok) << diagText(r);
    for (size_t i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(r.outputs[0].data[i], x.data[i] * 3.0 + 1);
}

TEST(ReferenceCallForms, AdvancedIndexingWithTensors) {
    // block_sparse_mqa's `k_f[k_safe.flatten()]`, sparse_mla's `indices[indices > sk] = sk`,
    // clean_and_maintain_logits' `out[m_idx, ks.long()] = inf`.
    const char* src =
        "import torch\n"
        "def ref(x, rows, cols):\n"
        "    g = x[rows]\n"
        "    p = x[rows, cols]\n"
        "    y = x.clone()\n"
        "    y[y > 0] = 0\n"
        "    z = x.clone()\n"
        "    z[rows, cols] = 5.0\n"
        "    return g, p, y, z\n";
    HostTensor x = randomTensor({3, 2}, 75);
    HostTensor rows = ts::makeHostTensor(ts::ir::DType::Int64, {2}, {2, -3});
    HostTensor cols = ts::makeHostTensor(ts::ir::DType::Int64, {2}, {1, 0});
    auto r = evalWith(src, "ref", {x, rows, cols}, {});
    ASSERT_TRUE(r.ok) << diagText(r);
    ASSERT_EQ(r.outputs[0].shape, (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(r.outputs[0].data, (std::vector<double>{x.data[4], x.data[5], x.data[0], x.data[1]}));
    EXPECT_EQ(r.outputs[1].data, (std::vector<double>{x.data[5], x.data[0]}));
    for (size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(r.outputs[2].data[i], x.data[i] > 0 ? 0.0 : x.data[i]);
        EXPECT_EQ(r.outputs[3].data[i], (i == 5 || i == 0) ? 5.0 : x.data[i]);
    }
    // An index out of range names the dimension.
    HostTensor bad = ts::makeHostTensor(ts::ir::DType::Int64, {1}, {3});
    auto e = evalWith("def ref(x, i):\n    return x[i]\n", "ref", {x, bad}, {});
    EXPECT_FALSE(e.ok);
    EXPECT_NE(diagText(e).find("index 3 is out of bounds for dimension 0 with size 3"),
              std::string::npos)
        << diagText(e);
}

TEST(ReferenceCallForms, ScipyHadamard) {
    // hadamard_transform/example_hadamard.py: F.linear(x, torch.tensor(scipy.linalg.hadamard(
    // dim, dtype=float), dtype=x.dtype)) = x @ H^T with H[i][j] = (-1)^popcount(i & j).
    const char* src =
        "import torch\n"
        "import scipy\n"
        "from torch.nn import functional as F\n"
        "def ref(x):\n"
        "    dim = x.shape[-1]\n"
        "    return F.linear(x, torch.tensor(scipy.linalg.hadamard(dim, dtype=float), "
        "dtype=x.dtype)), torch.tensor(scipy.linalg.hadamard(2))\n";
    HostTensor x = randomTensor({3, 8}, 71);
    auto r = evalWith(src, "ref", {x}, {});
    ASSERT_TRUE(r.ok) << diagText(r);
    ASSERT_EQ(r.outputs[0].shape, (std::vector<int64_t>{3, 8}));
    for (int64_t b = 0; b < 3; ++b)
        for (int64_t i = 0; i < 8; ++i) {
            double want = 0;  // hand-derived sign rule, independent of the evaluator's matmul
            for (int64_t j = 0; j < 8; ++j)
                want += ((__builtin_popcount(unsigned(i & j)) & 1) ? -1.0 : 1.0) *
                        x.data[at({3, 8}, {b, j})];
            EXPECT_NEAR(r.outputs[0].data[at({3, 8}, {b, i})], want, 1e-12);
        }
    // scipy's default dtype=int: [[1, 1], [1, -1]].
    ASSERT_EQ(r.outputs[1].data, (std::vector<double>{1, 1, 1, -1}));
    // n not a power of 2 is an error naming the call; other scipy names are refused.
    auto e = evalWith("import scipy\ndef ref(x):\n    return scipy.linalg.hadamard(6)\n", "ref",
                      {x}, {});
    EXPECT_FALSE(e.ok);
    EXPECT_NE(diagText(e).find("hadamard: n must be a positive power of 2, got 6"),
              std::string::npos)
        << diagText(e);
    auto e2 = evalWith("import scipy\ndef ref(x):\n    return scipy.linalg.inv(x)\n", "ref",
                       {x}, {});
    EXPECT_FALSE(e2.ok);
    EXPECT_NE(diagText(e2).find("scipy"), std::string::npos) << diagText(e2);
}
