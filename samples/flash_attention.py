# Attention forward O = softmax(Q K^T / sqrt(dim)) V, tensors laid out (batch, heads, seq, dim),
# FlashAttention-2 style: one block per block_M query rows walks the key/value tiles once,
# keeping a running row maximum and row sum (online softmax) so the seq x seq score matrix never
# leaves registers. The score accumulator is reduced in place (quad shuffles), rescaled, cast
# to fp16 and fed to the second T.gemm as a register A operand. Sequence lengths that are not a
# multiple of the tiles are masked; is_causal hides keys after the query and skips key tiles
# past the block's last query row.
#   tilec run samples/flash_attention.py --param seq_len=4096 --param heads=16 --param dim=128
import tilelang
import tilelang.language as T
import torch.nn.functional as F


@tilelang.jit(out_idx=[3])
def flash_attention(batch=1, heads=2, seq_len=200, dim=64, is_causal=False, block_M=64,
                    block_N=64, num_stages=2, threads=128, dtype="float16"):
    log2e = 1.4426950408889634
    scale = log2e / dim**0.5  # exp(x / sqrt(dim)) == exp2(x * scale)
    accum = "float32"
    shape = (batch, heads, seq_len, dim)

    @T.prim_func
    def main(
        Q: T.Tensor(shape, dtype),
        K: T.Tensor(shape, dtype),
        V: T.Tensor(shape, dtype),
        O: T.Tensor(shape, dtype),
    ):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (bq, h, b):
            q_tile = T.alloc_shared((block_M, dim), dtype)
            k_tile = T.alloc_shared((block_N, dim), dtype)
            v_tile = T.alloc_shared((block_N, dim), dtype)
            scores = T.alloc_fragment((block_M, block_N), accum)
            probs = T.alloc_fragment((block_M, block_N), dtype)
            out = T.alloc_fragment((block_M, dim), accum)
            row_max = T.alloc_fragment((block_M,), accum)
            prev_max = T.alloc_fragment((block_M,), accum)
            rescale = T.alloc_fragment((block_M,), accum)
            tile_sum = T.alloc_fragment((block_M,), accum)
            row_sum = T.alloc_fragment((block_M,), accum)

            T.copy(Q[b, h, bq * block_M:(bq + 1) * block_M, :], q_tile)
            T.clear(out)
            T.clear(row_sum)
            T.fill(row_max, -T.infinity(accum))
            n_tiles = (T.min(T.ceildiv(seq_len, block_N), T.ceildiv((bq + 1) * block_M, block_N))
                       if is_causal else T.ceildiv(seq_len, block_N))
            for t in T.Pipelined(n_tiles, num_stages=num_stages):
                T.copy(K[b, h, t * block_N:(t + 1) * block_N, :], k_tile)
                # Masked scores start at -inf, so the gemm leaves them -inf and exp2 gives 0.
                for i, j in T.Parallel(block_M, block_N):
                    if is_causal:
                        scores[i, j] = T.if_then_else(
                            t * block_N + j <= bq * block_M + i, 0, -T.infinity(accum))
                    else:
                        scores[i, j] = T.if_then_else(t * block_N + j < seq_len, 0,
                                                      -T.infinity(accum))
                T.gemm(q_tile, k_tile, scores, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(row_max, prev_max)
                T.reduce_max(scores, row_max, dim=1, clear=False)
                for i in T.Parallel(block_M):
                    rescale[i] = T.exp2(prev_max[i] * scale - row_max[i] * scale)
                for i, j in T.Parallel(block_M, block_N):
                    scores[i, j] = T.exp2(scores[i, j] * scale - row_max[i] * scale)
                T.reduce_sum(scores, tile_sum, dim=1)
                for i in T.Parallel(block_M):
                    row_sum[i] = row_sum[i] * rescale[i] + tile_sum[i]
                T.copy(scores, probs)
                for i, j in T.Parallel(block_M, dim):
                    out[i, j] *= rescale[i]
                T.copy(V[b, h, t * block_N:(t + 1) * block_N, :], v_tile)
                T.gemm(probs, v_tile, out, policy=T.GemmWarpPolicy.FullRow)
            for i, j in T.Parallel(block_M, dim):
                out[i, j] = out[i, j] / row_sum[i]
            T.copy(out, O[b, h, bq * block_M:(bq + 1) * block_M, :])

    return main


def ref_program(Q, K, V, is_causal):
    return F.scaled_dot_product_attention(Q, K, V, is_causal=is_causal)


# Work of one launch, as functions of the kernel's parameters (TileScope calls them with the
# kernel's values of the same names for TFLOP/s and GB/s; plain Python, so TileLang runs the file too).
def total_flops(batch, heads, seq_len, dim, is_causal):
    # Two seq x seq x dim matmuls; causal attention computes about half of them.
    return 4 * batch * heads * seq_len * seq_len * dim // (2 if is_causal else 1)


def total_bytes(batch, heads, seq_len, dim, dtype):
    return 4 * batch * heads * seq_len * dim * (2 if dtype in ("float16", "bfloat16") else 4)
