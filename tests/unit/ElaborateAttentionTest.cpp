// Elaboration of a FlashAttention-style kernel written like TileLang's example_mha_fwd: 4-D
// tensors with mixed integer/slice indices, several @T.macro helpers, a causal mask chosen by a
// meta flag, a run-time loop bound (T.min of a meta and a run-time value) and T.Pipelined with
// order/stage/group. Checks key IR lines, the verifier, the print -> parse -> print round trip
// and the flops expression found inside main().
#include <gtest/gtest.h>

#include "compiler/ir/Verifier.h"
#include "tests/unit/ElaborateTestUtil.h"

using namespace ts;
using namespace elab_test;

namespace {
const char* kMha = R"PY(import torch
import tilelang
import tilelang.language as T
from functools import partial


@tilelang.jit(out_idx=[3], pass_configs={"tl.disable_tma_lower": True})
def flashattn(batch, heads, seq_len, dim, is_causal, block_M=64, block_N=64, num_stages=1, threads=128):
    scale = (1.0 / dim)**0.5 * 1.44269504  # log2(e)
    shape = [batch, seq_len, heads, dim]
    dtype = "float16"
    accum_dtype = "float"

    @T.macro
    def MMA0(K: T.Tensor(shape, dtype), Q_shared: T.SharedBuffer([block_M, dim], dtype), K_shared, acc_s, k, bx, by, bz):
        T.copy(K[bz, k * block_N:(k + 1) * block_N, by, :], K_shared)
        if is_causal:
            for i, j in T.Parallel(block_M, block_N):
                acc_s[i, j] = T.if_then_else(bx * block_M + i >= k * block_N + j, 0, -T.infinity(acc_s.dtype))
        else:
            T.clear(acc_s)
        T.gemm(Q_shared, K_shared, acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)

    @T.macro
    def MMA1(V, V_shared, acc_s_cast, acc_o, k, by, bz):
        T.copy(V[bz, k * block_N:(k + 1) * block_N, by, :], V_shared)
        T.gemm(acc_s_cast, V_shared, acc_o, policy=T.GemmWarpPolicy.FullRow)

    @T.macro
    def Softmax(acc_s, acc_s_cast, scores_max, scores_max_prev, scores_scale, scores_sum, logsum):
        T.copy(scores_max, scores_max_prev)
        T.fill(scores_max, -T.infinity(accum_dtype))
        T.reduce_max(acc_s, scores_max, dim=1, clear=False)
        for i in T.Parallel(block_M):
            scores_max[i] = T.max(scores_max[i], scores_max_prev[i])
        for i in T.Parallel(block_M):
            scores_scale[i] = T.exp2(scores_max_prev[i] * scale - scores_max[i] * scale)
        for i, j in T.Parallel(block_M, block_N):
            acc_s[i, j] = T.exp2(acc_s[i, j] * scale - scores_max[i] * scale)
        T.reduce_sum(acc_s, scores_sum, dim=1)
        for i in T.Parallel(block_M):
            logsum[i] = logsum[i] * scores_scale[i] + scores_sum[i]
        T.copy(acc_s, acc_s_cast)

    @T.macro
    def Rescale(acc_o, scores_scale):
        for i, j in T.Parallel(block_M, dim):
            acc_o[i, j] *= scores_scale[i]

    @T.prim_func
    def main(
            Q: T.Tensor(shape, dtype),
            K: T.Tensor(shape, dtype),
            V: T.Tensor(shape, dtype),
            Output: T.Tensor(shape, dtype),
    ):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (bx, by, bz):
            Q_shared = T.alloc_shared([block_M, dim], dtype)
            K_shared = T.alloc_shared([block_N, dim], dtype)
            V_shared = T.alloc_shared([block_N, dim], dtype)
            O_shared = T.alloc_shared([block_M, dim], dtype)
            acc_s = T.alloc_fragment([block_M, block_N], accum_dtype)
            acc_s_cast = T.alloc_fragment([block_M, block_N], dtype)
            acc_o = T.alloc_fragment([block_M, dim], accum_dtype)
            scores_max = T.alloc_fragment([block_M], accum_dtype)
            scores_max_prev = T.alloc_fragment([block_M], accum_dtype)
            scores_scale = T.alloc_fragment([block_M], accum_dtype)
            scores_sum = T.alloc_fragment([block_M], accum_dtype)
            logsum = T.alloc_fragment([block_M], accum_dtype)

            T.copy(Q[bz, bx * block_M:(bx + 1) * block_M, by, :], Q_shared)
            T.fill(acc_o, 0)
            T.fill(logsum, 0)
            T.fill(scores_max, -T.infinity(accum_dtype))

            loop_range = (
                T.min(T.ceildiv(seq_len, block_N), T.ceildiv(
                    (bx + 1) * block_M, block_N)) if is_causal else T.ceildiv(seq_len, block_N))

            for k in T.Pipelined(loop_range, num_stages=num_stages, order=[-1, 0, 3, 1, -1, 2], stage=[-1, 0, 0, 1, -1, 1], group=[[0], [1, 2], [3, 4, 5, 6, 7, 8, 9, 10], [11], [12], [13]]):
                MMA0(K, Q_shared, K_shared, acc_s, k, bx, by, bz)
                Softmax(acc_s, acc_s_cast, scores_max, scores_max_prev, scores_scale, scores_sum, logsum)
                Rescale(acc_o, scores_scale)
                MMA1(V, V_shared, acc_s_cast, acc_o, k, by, bz)
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] /= logsum[i]
            T.copy(acc_o, O_shared)
            T.copy(O_shared, Output[bz, bx * block_M:(bx + 1) * block_M, by, :])

    return main


def ref_program(Q, K, V, is_causal):
    dim = Q.size(-1)
    scores = torch.einsum('bqhd,bkhd->bhqk', Q, K)
    scores = scores / torch.sqrt(torch.tensor(dim, dtype=scores.dtype))
    attention_weights = F.softmax(scores, dim=-1)
    return torch.einsum('bhqk,bkhd->bqhd', attention_weights, V)


def main(batch=1, heads=1, seq_len=256, dim=64, is_causal=False):
    flops_per_matmul = 2.0 * batch * heads * seq_len * seq_len * dim
    total_flops = 2 * flops_per_matmul
    if is_causal:
        total_flops *= 0.5
    kernel = flashattn(batch, heads, seq_len, dim, is_causal)


if __name__ == "__main__":
    main()
)PY";

std::map<std::string, std::string> params(bool causal) {
    return {{"batch", "2"},
            {"heads", "4"},
            {"seq_len", "256"},
            {"dim", "64"},
            {"is_causal", causal ? "True" : "False"}};
}
}  // namespace

TEST(ElaborateAttentionTest, CausalKernel) {
    auto e = elaborateText(kMha, params(true));
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    const std::string& ir = e->ir;
    for (const char* line : {
             "def flashattn(Q: T.Tensor((2, 256, 4, 64), \"float16\"), K: T.Tensor((2, 256, 4, "
             "64), \"float16\"), "
             "V: T.Tensor((2, 256, 4, 64), \"float16\"), Output: T.Tensor((2, 256, 4, 64), "
             "\"float16\")):\n",
             "    with T.Kernel(4, 4, 2, threads=128) as (bx, by, bz):\n",
             "        T.copy(Q[bz:bz + 1, bx * 64:bx * 64 + 64, by:by + 1, 0:64], Q_shared)\n",
             "        for k in T.Pipelined(T.min(4, ((bx + 1) * 64 + 64 - 1) // 64), num_stages=1, "
             "order=[-1, 0, 3, 1, -1, 2], "
             "stage=[-1, 0, 0, 1, -1, 1]):\n",
             "                    acc_s[i, j] = T.if_then_else(bx * 64 + i >= k * 64 + j, 0.0, "
             "-T.infinity(\"float32\"))\n",
             "            T.gemm(Q_shared, K_shared, acc_s, policy=\"FullRow\", "
             "transpose_B=True)\n",
             "                scores_max[i] = T.max(scores_max[i], scores_max_prev[i])\n",
             "                    acc_o[i, j] = acc_o[i, j] * scores_scale[i]\n",
             "        T.copy(O_shared, Output[bz:bz + 1, bx * 64:bx * 64 + 64, by:by + 1, 0:64])\n",
         })
        EXPECT_NE(ir.find(line), std::string::npos) << line << "\n---\n" << ir;
    EXPECT_EQ(e->result.func->outputs, std::vector<int>{3});
    EXPECT_TRUE(ir::verify(e->result.func).empty());
    ASSERT_TRUE(e->result.flops);
    EXPECT_DOUBLE_EQ(*e->result.flops, 2 * 2.0 * 2 * 4 * 256 * 256 * 64);
    auto again = elaborateText(ir);
    ASSERT_EQ(again->firstError(), nullptr) << again->firstError()->message;
    EXPECT_EQ(again->ir, ir);
}

TEST(ElaborateAttentionTest, NonCausalKeepsTheOtherBranch) {
    auto e = elaborateText(kMha, params(false));
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    EXPECT_NE(e->ir.find("        for k in T.Pipelined(4, num_stages=1"), std::string::npos)
        << e->ir;
    EXPECT_NE(e->ir.find("            T.clear(acc_s)\n"), std::string::npos) << e->ir;
    EXPECT_EQ(e->ir.find("T.if_then_else"), std::string::npos);
}

TEST(ElaborateAttentionTest, MissingParameterIsReported) {
    // Without the file's own call (main() is never run), 'heads' has no value.
    std::string noCall = kMha;
    noCall.replace(noCall.rfind("    main()"), 10, "    pass");
    auto e = elaborateText(noCall, {{"batch", "2"}});
    ASSERT_NE(e->firstError(), nullptr);
    EXPECT_EQ(e->firstError()->message, "parameter 'heads' of 'flashattn' has no value");
    // With it, the values main() passes fill what --param leaves open (KernelCallSite.h).
    auto fromMain = elaborateText(kMha, {{"batch", "2"}});
    ASSERT_EQ(fromMain->firstError(), nullptr) << fromMain->firstError()->message;
    EXPECT_NE(fromMain->ir.find("Q: T.Tensor((2, 256, 1, 64), \"float16\")"), std::string::npos)
        << fromMain->ir;
}
