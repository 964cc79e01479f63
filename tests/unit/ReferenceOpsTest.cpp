// The torch-like vocabulary of ref_program (profiler/check/ReferenceTorch.h) one group at a time,
// each against values written out or computed by plain loops here: elementwise math and
// activations, reductions, shapes and views, indexing, creation, einsum forms, matmul
// broadcasting, attention options, dtype promotion, in-place methods and normalisations.
#include <cmath>

#include "tests/unit/ReferenceTestUtil.h"

using namespace reftest;
using ts::HostTensor;
using ts::ir::DType;

namespace {

/// x = [[1, -2, 3], [4, 5, -6]] (float32).
HostTensor small() { return ts::makeHostTensor(DType::Float32, {2, 3}, {1, -2, 3, 4, 5, -6}); }

/// Runs `body` (the statements of ref_program(x)) on small() and returns output 0.
ts::rt::ReferenceResult onSmall(const std::string& body) {
    return run("import torch\nimport torch.nn.functional as F\ndef ref_program(x):\n" + body,
               {small()});
}

std::vector<double> mapSmall(double (*f)(double)) {
    std::vector<double> out;
    for (double v : small().data) out.push_back(f(v));
    return out;
}

}  // namespace

TEST(ReferenceOps, UnaryMath) {
    expectOutput(onSmall("    return torch.exp(x)\n"), 0, {2, 3},
                 mapSmall([](double v) { return std::exp(v); }));
    expectOutput(onSmall("    return x.exp2()\n"), 0, {2, 3},
                 mapSmall([](double v) { return std::exp2(v); }));
    expectOutput(onSmall("    return torch.log(x.abs())\n"), 0, {2, 3},
                 mapSmall([](double v) { return std::log(std::fabs(v)); }));
    expectOutput(onSmall("    return torch.rsqrt(abs(x))\n"), 0, {2, 3},
                 mapSmall([](double v) { return 1 / std::sqrt(std::fabs(v)); }));
    expectOutput(onSmall("    return torch.sigmoid(x) + x.tanh()\n"), 0, {2, 3},
                 mapSmall([](double v) { return 1 / (1 + std::exp(-v)) + std::tanh(v); }));
    expectOutput(onSmall("    return F.silu(x)\n"), 0, {2, 3},
                 mapSmall([](double v) { return v / (1 + std::exp(-v)); }));
    expectOutput(onSmall("    return F.gelu(x)\n"), 0, {2, 3},
                 mapSmall([](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }));
    expectOutput(
        onSmall("    return F.gelu(x, approximate='tanh')\n"), 0, {2, 3}, mapSmall([](double v) {
            return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
        }));
    expectOutput(onSmall("    return torch.relu(x) - -x\n"), 0, {2, 3},
                 mapSmall([](double v) { return std::max(v, 0.0) + v; }));
    expectOutput(onSmall("    return x ** 2 + 2 ** x\n"), 0, {2, 3},
                 mapSmall([](double v) { return v * v + std::exp2(v); }));
}

TEST(ReferenceOps, WhereMaximumClamp) {
    expectOutput(onSmall("    return torch.where(x > 0, x, torch.zeros_like(x))\n"), 0, {2, 3},
                 {1, 0, 3, 4, 5, 0});
    expectOutput(
        onSmall("    return torch.maximum(x, torch.tensor(2.0)) + torch.minimum(x, x * 0)\n"), 0,
        {2, 3}, {2 + 0, 2 - 2, 3 + 0, 4 + 0, 5 + 0, 2 - 6});
    expectOutput(onSmall("    return x.clamp(min=-1, max=4)\n"), 0, {2, 3}, {1, -1, 3, 4, 4, -1});
    expectOutput(onSmall("    return (x > 0) & (x < 4)\n"), 0, {2, 3}, {1, 0, 1, 0, 0, 0});
    expectOutput(onSmall("    return ~(x > 0) | (x == 5)\n"), 0, {2, 3}, {0, 1, 0, 0, 1, 1});
}

TEST(ReferenceOps, Reductions) {
    expectOutput(onSmall("    return x.sum()\n"), 0, {}, {5});
    expectOutput(onSmall("    return x.sum(dim=0)\n"), 0, {3}, {5, 3, -3});
    expectOutput(onSmall("    return torch.sum(x, -1, keepdim=True)\n"), 0, {2, 1}, {2, 3});
    expectOutput(onSmall("    return x.mean((0, 1))\n"), 0, {}, {5.0 / 6});
    expectOutput(onSmall("    return x.amax(dim=1)\n"), 0, {2}, {3, 5});
    expectOutput(onSmall("    return torch.amin(x, 0, True)\n"), 0, {1, 3}, {1, -2, -6});
    expectOutput(onSmall("    return x.max()\n"), 0, {}, {5});
    expectOutput(onSmall("    v, i = torch.min(x, dim=1)\n    return i\n"), 0, {2}, {1, 2});
    expectOutput(onSmall("    return x.max(-1, keepdim=True)[0]\n"), 0, {2, 1}, {3, 5});
    expectOutput(onSmall("    return x.argmax(dim=0)\n"), 0, {3}, {1, 1, 0});
    expectOutput(onSmall("    return x.argmax()\n"), 0, {}, {4});
    expectOutput(onSmall("    return x.prod(1)\n"), 0, {2}, {-6, -120});
    expectOutput(onSmall("    return (x > 0).all(dim=1), (x > 4).any()\n"), 0, {2}, {0, 0});
    // Rows [1, -2, 3] and [4, 5, -6]: squared deviations sum to 114/9 and 74.
    auto vs =
        onSmall("    return x.var(dim=1), x.std(1, unbiased=False), x.var(1, correction=0)\n");
    expectOutput(vs, 0, {2}, {114.0 / 18, 37});
    expectOutput(vs, 1, {2}, {std::sqrt(114.0 / 27), std::sqrt(74.0 / 3)});
    expectOutput(vs, 2, {2}, {114.0 / 27, 74.0 / 3});
    std::vector<double> lse{std::log(std::exp(1) + std::exp(-2) + std::exp(3)),
                            std::log(std::exp(4) + std::exp(5) + std::exp(-6))};
    expectOutput(onSmall("    return torch.logsumexp(x, dim=1)\n"), 0, {2}, lse);
    expectOutput(onSmall("    return F.log_softmax(x, dim=-1)\n"), 0, {2, 3},
                 {1 - lse[0], -2 - lse[0], 3 - lse[0], 4 - lse[1], 5 - lse[1], -6 - lse[1]});
    expectOutput(onSmall("    return x.cumsum(dim=1)\n"), 0, {2, 3}, {1, -1, 2, 4, 9, 3});
}

TEST(ReferenceOps, ShapesAndViews) {
    expectOutput(onSmall("    return x.reshape(-1)\n"), 0, {6}, {1, -2, 3, 4, 5, -6});
    expectOutput(onSmall("    return x.view(3, 2).T\n"), 0, {2, 3}, {1, 3, 5, -2, 4, -6});
    expectOutput(onSmall("    return x.transpose(0, 1).contiguous()\n"), 0, {3, 2},
                 {1, 4, -2, 5, 3, -6});
    expectOutput(onSmall("    return x.unsqueeze(0).permute(2, 0, 1)\n"), 0, {3, 1, 2},
                 {1, 4, -2, 5, 3, -6});
    expectOutput(onSmall("    return x[:, None].squeeze(1).unsqueeze(-1).expand(-1, -1, 2)\n"), 0,
                 {2, 3, 2}, {1, 1, -2, -2, 3, 3, 4, 4, 5, 5, -6, -6});
    expectOutput(onSmall("    return x.unsqueeze(0).expand(2, 2, 3).flatten(0, 1)[2:]\n"), 0,
                 {2, 3}, {1, -2, 3, 4, 5, -6});
    expectOutput(onSmall("    return x.repeat(1, 2)\n"), 0, {2, 6},
                 {1, -2, 3, 1, -2, 3, 4, 5, -6, 4, 5, -6});
    expectOutput(onSmall("    return x.repeat_interleave(2, dim=0)\n"), 0, {4, 3},
                 {1, -2, 3, 1, -2, 3, 4, 5, -6, 4, 5, -6});
    expectOutput(onSmall("    return torch.cat([x, x * 10], dim=1)\n"), 0, {2, 6},
                 {1, -2, 3, 10, -20, 30, 4, 5, -6, 40, 50, -60});
    expectOutput(onSmall("    return torch.stack((x[0], x[1]), dim=1)\n"), 0, {3, 2},
                 {1, 4, -2, 5, 3, -6});
    expectOutput(onSmall("    a, b = x.chunk(2, dim=1)\n    return b\n"), 0, {2, 1}, {3, -6});
    expectOutput(onSmall("    return x.split([1, 2], dim=1)[1]\n"), 0, {2, 2}, {-2, 3, 5, -6});
    expectOutput(onSmall("    return x.flip(1).narrow(0, 1, 1)\n"), 0, {1, 3}, {-6, 5, 4});
    expectOutput(onSmall("    return x.mT.size(0) + x.shape[1] * 10 + len(x) * 100 + x.dim() * "
                         "1000 + x.numel() + x.sum()\n"),
                 0, {}, {3 + 30 + 200 + 2000 + 6 + 5});
}

TEST(ReferenceOps, Indexing) {
    expectOutput(onSmall("    return x[1]\n"), 0, {3}, {4, 5, -6});
    expectOutput(onSmall("    return x[:, 1:]\n"), 0, {2, 2}, {-2, 3, 5, -6});
    expectOutput(onSmall("    return x[-1, ::2]\n"), 0, {2}, {4, -6});
    expectOutput(onSmall("    return x[None, :, 0]\n"), 0, {1, 2}, {1, 4});
    expectOutput(onSmall("    y = x.clone()\n    y[0] = 0\n    y[:, 2] = torch.tensor([7.0, "
                         "8.0])\n    return y, x\n"),
                 0, {2, 3}, {0, 0, 7, 4, 5, 8});
    expectOutput(onSmall("    y = x.clone()\n    y[0] = 0\n    return x\n"), 0, {2, 3},
                 {1, -2, 3, 4, 5, -6});
    expectOutput(onSmall("    return torch.stack([row * i for i, row in enumerate(x)])\n"), 0,
                 {2, 3}, {0, 0, 0, 4, 5, -6});
    // A boolean mask selects the true elements in order (advanced indexing); mixed with a slice
    // it is not modelled.
    expectOutput(onSmall("    return x[x > 0]\n"), 0, {4}, {1, 3, 4, 5});
    auto bad = onSmall("    return x[:, x[0] > 0]\n");
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(bad.diagnostics[0].message.find("indexing with a tensor"), std::string::npos);
    auto oob = onSmall("    return x[2]\n");
    ASSERT_FALSE(oob.ok);
    EXPECT_NE(
        oob.diagnostics[0].message.find("index 2 is out of bounds for dimension 0 with size 2"),
        std::string::npos)
        << diagText(oob);
}

TEST(ReferenceOps, Creation) {
    auto r =
        run("def ref_program():\n    return torch.arange(4), torch.arange(1, 2, 0.25), "
            "torch.ones(2, 2), torch.zeros((1, 2), dtype=torch.float16),"
            " torch.full((2,), 7), torch.eye(2, 3), torch.tensor(2.5), torch.triu(torch.ones(3, "
            "3), diagonal=1),"
            " torch.tril(torch.ones(2, 3), -1)\n",
            {});
    expectOutput(r, 0, {4}, {0, 1, 2, 3});
    expectOutput(r, 1, {4}, {1, 1.25, 1.5, 1.75});
    expectOutput(r, 2, {2, 2}, {1, 1, 1, 1});
    expectOutput(r, 3, {1, 2}, {0, 0});
    expectOutput(r, 4, {2}, {7, 7});
    expectOutput(r, 5, {2, 3}, {1, 0, 0, 0, 1, 0});
    expectOutput(r, 6, {}, {2.5});
    expectOutput(r, 7, {3, 3}, {0, 1, 1, 0, 0, 1, 0, 0, 0});
    expectOutput(r, 8, {2, 3}, {0, 0, 0, 1, 0, 0});
    EXPECT_EQ(r.nominalDTypes[0], DType::Int64);
    EXPECT_EQ(r.nominalDTypes[1], DType::Float32);
    EXPECT_EQ(r.nominalDTypes[3], DType::Float16);
    EXPECT_EQ(r.nominalDTypes[4], DType::Int64);
}

TEST(ReferenceOps, EinsumForms) {
    HostTensor a = randomTensor({3, 4}, 1), b = randomTensor({4, 5}, 2),
               c = randomTensor({5, 2}, 3), sq = randomTensor({4, 4}, 4);
    std::vector<double> ab(15, 0.0), abc(6, 0.0), diag(4), outer(12);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 5; ++j)
            for (int k = 0; k < 4; ++k)
                ab[static_cast<size_t>(i * 5 + j)] +=
                    a.data[static_cast<size_t>(i * 4 + k)] * b.data[static_cast<size_t>(k * 5 + j)];
    for (int i = 0; i < 3; ++i)
        for (int l = 0; l < 2; ++l)
            for (int j = 0; j < 5; ++j)
                abc[static_cast<size_t>(i * 2 + l)] +=
                    ab[static_cast<size_t>(i * 5 + j)] * c.data[static_cast<size_t>(j * 2 + l)];
    double total = 0, trace = 0;
    for (double v : a.data) total += v;
    for (int i = 0; i < 4; ++i)
        diag[static_cast<size_t>(i)] = sq.data[static_cast<size_t>(i * 5)],
        trace += diag[static_cast<size_t>(i)];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            outer[static_cast<size_t>(i * 4 + j)] =
                a.data[static_cast<size_t>(i)] * sq.data[static_cast<size_t>(j)];
    const char* src =
        "def ref_program(a, b, c, sq):\n"
        "    return (torch.einsum('ij,jk->ik', a, b), torch.einsum('ij,jk', a, b), "
        "torch.einsum('ij,jk,kl->il', a, b, c),\n"
        "            torch.einsum('ii->i', sq), torch.einsum('ij->', a), torch.einsum('ii', sq),\n"
        "            torch.einsum('i,j->ij', a[:, 0], sq[0]), torch.einsum('ji->ij', b), "
        "torch.einsum('...ij,...jk->...ik', [a, b]))\n";
    auto r = run(src, {a, b, c, sq});
    expectOutput(r, 0, {3, 5}, ab);
    expectOutput(r, 1, {3, 5}, ab);
    expectOutput(r, 2, {3, 2}, abc);
    expectOutput(r, 3, {4}, diag);
    expectOutput(r, 4, {}, {total});
    expectOutput(r, 5, {}, {trace});
    std::vector<double> outerCol(12);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            outerCol[static_cast<size_t>(i * 4 + j)] =
                a.data[static_cast<size_t>(i * 4)] * sq.data[static_cast<size_t>(j)];
    expectOutput(r, 6, {3, 4}, outerCol);
    std::vector<double> bt(20);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 5; ++j)
            bt[static_cast<size_t>(j * 4 + i)] = b.data[static_cast<size_t>(i * 5 + j)];
    expectOutput(r, 7, {5, 4}, bt);
    expectOutput(r, 8, {3, 5}, ab);
    (void)outer;
    auto bad = run("def ref_program(a):\n    return torch.einsum('ij,jk->ik', a)\n", {a});
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(bad.diagnostics[0].message.find("names 2 operands but 1 were given"),
              std::string::npos)
        << diagText(bad);
}

TEST(ReferenceOps, MatmulBroadcastingAndVectors) {
    HostTensor a = randomTensor({2, 1, 3, 4}, 5), b = randomTensor({3, 4, 2}, 6),
               v = randomTensor({4}, 7);
    auto r = run("def ref_program(a, b, v):\n    return a @ b, torch.matmul(v, b), a @ v, v @ v\n",
                 {a, b, v});
    ASSERT_TRUE(r.ok) << diagText(r);
    std::vector<double> e(2 * 3 * 3 * 2, 0.0), vb(3 * 2, 0.0), av(2 * 3, 0.0);
    double vv = 0;
    for (int p = 0; p < 2; ++p)
        for (int q = 0; q < 3; ++q)
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 2; ++j)
                    for (int k = 0; k < 4; ++k)
                        e[at({2, 3, 3, 2}, {p, q, i, j})] +=
                            a.data[at(a.shape, {p, 0, i, k})] * b.data[at(b.shape, {q, k, j})];
    for (int q = 0; q < 3; ++q)
        for (int j = 0; j < 2; ++j)
            for (int k = 0; k < 4; ++k)
                vb[at({3, 2}, {q, j})] +=
                    v.data[static_cast<size_t>(k)] * b.data[at(b.shape, {q, k, j})];
    for (int p = 0; p < 2; ++p)
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 4; ++k)
                av[at({2, 1, 3}, {p, 0, i})] +=
                    a.data[at(a.shape, {p, 0, i, k})] * v.data[static_cast<size_t>(k)];
    for (double x : v.data) vv += x * x;
    expectOutput(r, 0, {2, 3, 3, 2}, e);
    expectOutput(r, 1, {3, 2}, vb);
    expectOutput(r, 2, {2, 1, 3}, av);
    expectOutput(r, 3, {}, {vv});
}

TEST(ReferenceOps, AttentionMasksScaleAndGqa) {
    HostTensor q = randomTensor({1, 4, 3, 2}, 8), k = randomTensor({1, 2, 5, 2}, 9),
               v = randomTensor({1, 2, 5, 2}, 10);
    // GQA with an explicit scale and a float mask == expanded heads, scores by hand.
    const char* src =
        "def ref_program(q, k, v):\n"
        "    mask = torch.zeros(3, 5)\n"
        "    mask[:, 4] = float('-inf')\n"
        "    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.3, "
        "enable_gqa=True)\n"
        "    kk = k.repeat_interleave(2, dim=1)\n"
        "    vv = v.repeat_interleave(2, dim=1)\n"
        "    s = (q @ kk.transpose(-2, -1)) * 0.3\n"
        "    keep = torch.arange(5) < 4\n"
        "    p = torch.softmax(s.masked_fill(~keep, -torch.inf), dim=-1)\n"
        "    return out, p @ vv, F.scaled_dot_product_attention(q, kk, vv, attn_mask=keep, "
        "scale=0.3)\n";
    auto r = run(src, {q, k, v});
    ASSERT_TRUE(r.ok) << diagText(r);
    ASSERT_EQ(r.outputs.size(), 3u);
    expectOutput(r, 0, {1, 4, 3, 2}, r.outputs[1].data);
    expectOutput(r, 2, {1, 4, 3, 2}, r.outputs[1].data);
}

TEST(ReferenceOps, DTypePromotionAndConversions) {
    HostTensor h = ts::makeHostTensor(DType::Float16, {2}, {1.5, -2.5});
    HostTensor i = ts::makeHostTensor(DType::Int32, {2}, {7, -7});
    const char* src =
        "def ref_program(h, i):\n"
        "    return (h * 2.0, h + h.float(), i / 2, i // 2, i % 3, i * 1.5, h.to(torch.bfloat16), "
        "(h * 3.3).to(torch.int32),\n"
        "            h.bfloat16() * torch.tensor(2.0), i > 0, i.float().mean(), "
        "h.type(torch.float64), i.sum())\n";
    auto r = run(src, {h, i});
    ASSERT_TRUE(r.ok) << diagText(r);
    const DType expect[] = {DType::Float16,  DType::Float32, DType::Float32,  DType::Int32,
                            DType::Int32,    DType::Float32, DType::BFloat16, DType::Int32,
                            DType::BFloat16, DType::Bool,    DType::Float32,  DType::Float64,
                            DType::Int64};
    for (size_t k = 0; k < std::size(expect); ++k)
        EXPECT_EQ(r.nominalDTypes[k], expect[k]) << "output " << k;
    expectOutput(r, 2, {2}, {3.5, -3.5});
    expectOutput(r, 3, {2}, {3, -4});  // floor division
    expectOutput(r, 4, {2}, {1, 2});   // Python modulo: sign of the divisor
    expectOutput(r, 7, {2}, {4, -8});  // 4.95 -> 4, -8.25 -> -8 (truncation)
    expectOutput(r, 0, {2}, {3, -5});
}

// A float cast rounds to its dtype (helper-130: casts only relabelled, so a fake-quant reference
// was the identity). 1 + 2^-9 is between bf16 neighbours 1 and 1 + 2^-7 (rounds to 1) and exact in
// fp16; 3.3 rounds to 3.25 in float8_e4m3 (3 mantissa bits: steps of 0.25 in [2, 4)). float32 and
// float64 keep the values (the working precision).
TEST(ReferenceOps, FloatCastsRoundToTheirDtype) {
    HostTensor x = ts::makeHostTensor(DType::Float64, {3}, {1.0 + 1.0 / 512, 3.3, 0.1});
    const char* src =
        "def ref_program(x):\n"
        "    return (x.to(torch.bfloat16).float(), x.half().float(), x.to(torch.float8_e4m3fn).float(), x.float(),\n"
        "            x.double(), (x * 3).half())\n";
    auto r = run(src, {x});
    ASSERT_TRUE(r.ok) << diagText(r);
    expectOutput(r, 0, {3}, {1.0, 3.296875, 0.10009765625});
    expectOutput(r, 1, {3}, {1.0 + 1.0 / 512, 3.30078125, 0.0999755859375});
    expectOutput(r, 2, {3}, {1.0, 3.25, 0.1015625});
    expectOutput(r, 3, {3}, {1.0 + 1.0 / 512, 3.3, 0.1});  // float32 is a label: the reference works in float64
    expectOutput(r, 4, {3}, {1.0 + 1.0 / 512, 3.3, 0.1});
    expectOutput(r, 5, {3}, {3.005859375, 9.8984375, 0.300048828125});
}

TEST(ReferenceOps, InPlaceMethods) {
    expectOutput(
        onSmall("    y = x.clone()\n    y.masked_fill_(y < 0, 0)\n    y.add_(1)\n    return y\n"),
        0, {2, 3}, {2, 1, 4, 5, 6, 1});
    expectOutput(onSmall("    y = x.clone()\n    y.mul_(torch.tensor([1.0, 0.0, 2.0]))\n    return "
                         "y.zero_() + y.fill_(3)\n"),
                 0, {2, 3}, {6, 6, 6, 6, 6, 6});
}

TEST(ReferenceOps, Normalisations) {
    HostTensor x = randomTensor({2, 4}, 11), w = randomTensor({4}, 12),
               bias = randomTensor({4}, 13), W = randomTensor({3, 4}, 14);
    const char* src =
        "def ref_program(x, w, b, W):\n"
        "    return (F.layer_norm(x, (4,), w, b, eps=1e-5), F.rms_norm(x, [4], w, eps=1e-6), "
        "F.linear(x, W, b[:3]),\n"
        "            F.normalize(x, dim=-1), x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + "
        "1e-6) * w)\n";
    auto r = run(src, {x, w, bias, W});
    ASSERT_TRUE(r.ok) << diagText(r);
    std::vector<double> ln(8), rms(8), lin(6, 0.0), nrm(8);
    for (int i = 0; i < 2; ++i) {
        double mean = 0, var = 0, ms = 0, n2 = 0;
        for (int j = 0; j < 4; ++j) mean += x.data[static_cast<size_t>(i * 4 + j)] / 4;
        for (int j = 0; j < 4; ++j) {
            double d = x.data[static_cast<size_t>(i * 4 + j)] - mean,
                   v = x.data[static_cast<size_t>(i * 4 + j)];
            var += d * d / 4, ms += v * v / 4, n2 += v * v;
        }
        for (int j = 0; j < 4; ++j) {
            size_t k = static_cast<size_t>(i * 4 + j);
            ln[k] = (x.data[k] - mean) / std::sqrt(var + 1e-5) * w.data[static_cast<size_t>(j)] +
                    bias.data[static_cast<size_t>(j)];
            rms[k] = x.data[k] / std::sqrt(ms + 1e-6) * w.data[static_cast<size_t>(j)];
            nrm[k] = x.data[k] / std::sqrt(n2);
        }
        for (int o = 0; o < 3; ++o) {
            lin[static_cast<size_t>(i * 3 + o)] = bias.data[static_cast<size_t>(o)];
            for (int j = 0; j < 4; ++j)
                lin[static_cast<size_t>(i * 3 + o)] +=
                    x.data[static_cast<size_t>(i * 4 + j)] * W.data[static_cast<size_t>(o * 4 + j)];
        }
    }
    expectOutput(r, 0, {2, 4}, ln);
    expectOutput(r, 1, {2, 4}, rms);
    expectOutput(r, 2, {2, 3}, lin);
    expectOutput(r, 3, {2, 4}, nrm);
    expectOutput(r, 4, {2, 4}, rms);
}

TEST(ReferenceOps, ErrorsNameTheCall) {
    auto mf = onSmall("    return x.masked_fill(x, 0)\n");
    ASSERT_FALSE(mf.ok);
    EXPECT_NE(mf.diagnostics[0].message.find("masked_fill expects a bool mask"), std::string::npos)
        << diagText(mf);
    auto rs = onSmall("    return x.reshape(4, 2)\n");
    ASSERT_FALSE(rs.ok);
    EXPECT_EQ(rs.diagnostics[0].message,
              "ref_program: Tensor.reshape: shape (4, 2) is invalid for a tensor of shape (2, 3) "
              "(6 elements)");
    EXPECT_EQ(rs.diagnostics[0].span.line, 4u);
    EXPECT_EQ(rs.diagnostics[0].span.col, 12u);
    // Tensor.to("banana") was a silent no-op, so a wrong reference passed (torch raises).
    auto to = onSmall("    return x.to(\"banana\")\n");
    ASSERT_FALSE(to.ok);
    EXPECT_EQ(to.diagnostics[0].message, "ref_program: Tensor.to(\"banana\"): not a device or a dtype") << diagText(to);
    auto dev = onSmall("    return x.to(\"cuda:0\")\n");
    EXPECT_TRUE(dev.ok) << diagText(dev);
    auto bc = onSmall("    return x + torch.ones(4)\n");
    ASSERT_FALSE(bc.ok);
    EXPECT_NE(bc.diagnostics[0].message.find("shapes (2, 3) and (4) cannot be broadcast"),
              std::string::npos)
        << diagText(bc);
    auto amb = onSmall("    if x > 0:\n        return x\n    return x\n");
    ASSERT_FALSE(amb.ok);
    EXPECT_NE(amb.diagnostics[0].message.find("ambiguous"), std::string::npos);
    auto rnd = onSmall("    return torch.randn(3)\n");
    ASSERT_FALSE(rnd.ok);
    EXPECT_EQ(rnd.diagnostics[0].message,
              "ref_program: torch.randn is not supported by the reference evaluator");
    auto kw = onSmall("    return x.sum(dimm=1)\n");
    ASSERT_FALSE(kw.ok);
    EXPECT_NE(kw.diagnostics[0].message.find("dimm"), std::string::npos) << diagText(kw);
}
