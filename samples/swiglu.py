# SwiGLU feed-forward gate: Y = silu(X @ Wg) * (X @ Wu), X (M, K), Wg and Wu (K, N), fp16 or
# bf16 in, fp32 accumulation. One block owns a block_M x block_N tile of Y and runs TWO GEMMs that
# share the X tile: each pipelined step loads one X tile and one tile of each weight into shared
# memory and accumulates both products, so X is read from memory once for both. The epilogue
# stays in registers: silu(g) = g / (1 + exp2(-g * log2(e))) (exp2 is one MUFU.EX2) times the
# up-projection, converted once and stored. Neither (M, N) product ever reaches memory.
#   tilec run samples/swiglu.py --param M=4096 --param K=4096 --param N=11008 --param dtype=bfloat16
#   tilec run samples/swiglu.py --param M=1000 --param K=200 --param N=300
import tilelang
import tilelang.language as T
import torch.nn.functional as F


@tilelang.jit(out_idx=[-1])
def swiglu(M=512, N=512, K=512, block_M=128, block_N=128, block_K=32, num_stages=3, threads=256,
           dtype="float16"):
    acc = "float32"
    log2e = 1.4426950408889634

    @T.prim_func
    def main(
            X: T.Tensor((M, K), dtype),
            Wg: T.Tensor((K, N), dtype),
            Wu: T.Tensor((K, N), dtype),
            Y: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            X_s = T.alloc_shared((block_M, block_K), dtype)
            Wg_s = T.alloc_shared((block_K, block_N), dtype)
            Wu_s = T.alloc_shared((block_K, block_N), dtype)
            gate = T.alloc_fragment((block_M, block_N), acc)
            up = T.alloc_fragment((block_M, block_N), acc)
            out = T.alloc_fragment((block_M, block_N), dtype)
            T.clear(gate)
            T.clear(up)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(X[by * block_M, k * block_K], X_s)
                T.copy(Wg[k * block_K, bx * block_N], Wg_s)
                T.copy(Wu[k * block_K, bx * block_N], Wu_s)
                T.gemm(X_s, Wg_s, gate, policy=T.GemmWarpPolicy.FullRow)
                T.gemm(X_s, Wu_s, up, policy=T.GemmWarpPolicy.FullRow)
            for i, j in T.Parallel(block_M, block_N):
                out[i, j] = T.cast(gate[i, j] / (1.0 + T.exp2(-gate[i, j] * log2e)) * up[i, j], dtype)
            T.copy(out, Y[by * block_M, bx * block_N])

    return main


def ref_program(X, Wg, Wu):
    return F.silu(X @ Wg) * (X @ Wu)


# Work of one launch, as functions of the kernel's parameters (TileScope calls them with the
# kernel's values of the same names for TFLOP/s and GB/s; plain Python, so TileLang runs the file too).
def total_flops(M, N, K):
    # Two M x N x K GEMMs; the elementwise epilogue (about 5 per output) is negligible.
    return 4 * M * N * K


def total_bytes(M, N, K, dtype):
    # X once, both weights once, Y once (a lower bound: tiles are reread by other blocks).
    return (M * K + 2 * K * N + M * N) * (2 if dtype in ("float16", "bfloat16") else 4)
