# RMSNorm fused into the matmul that follows it: Y = rmsnorm(X; G) @ W with
#     rmsnorm(X; G)[i, k] = X[i, k] * G[k] / sqrt(mean_k(X[i, k]^2) + eps),
# X (M, K), G (K,), W (K, N), fp16 or bf16 in, fp32 accumulation. The normalised X never goes to
# memory and there is no separate norm kernel: the row scale 1/rms(X[i, :]) is one number per row,
# so it factors out of the GEMM, Y[i, :] = (1/rms_i) * ((X[i, :] * G) @ W). Each pipelined step
# loads an X tile, a W tile and the matching slice of G; the X tile is copied into registers, one
# T.Parallel pass adds its squares into an fp32 fragment (reduced to row sums once, after the loop)
# and scales it by G, and it is copied into the shared tile the GEMM reads. The epilogue multiplies each accumulator row by its 1/rms.
# Every block of a row recomputes that row's sum of squares from the tiles it loads anyway.
#   tilec run samples/rmsnorm_matmul.py --param M=4096 --param K=4096 --param N=4096 --param dtype=bfloat16
#   tilec run samples/rmsnorm_matmul.py --param M=1000 --param K=200 --param N=300
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def rmsnorm_matmul(M=512, N=512, K=512, block_M=128, block_N=128, block_K=32, num_stages=3, threads=256,
                   eps=1e-6, dtype="float16"):
    acc = "float32"

    @T.prim_func
    def main(
            X: T.Tensor((M, K), dtype),
            G: T.Tensor((K,), dtype),
            W: T.Tensor((K, N), dtype),
            Y: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            X_s = T.alloc_shared((block_M, block_K), dtype)
            G_s = T.alloc_shared((block_K,), dtype)
            Xg_s = T.alloc_shared((block_M, block_K), dtype)  # X * G, the GEMM's A operand
            W_s = T.alloc_shared((block_K, block_N), dtype)
            sq = T.alloc_fragment((block_M, block_K), acc)  # running squares, per column slot
            xg = T.alloc_fragment((block_M, block_K), dtype)  # X, then X * G, in registers
            inv_rms = T.alloc_fragment((block_M,), acc)  # in the layout of sq's rows
            row_scale = T.alloc_shared((block_M,), acc)  # sq and C spread rows over threads differently
            C = T.alloc_fragment((block_M, block_N), acc)
            out = T.alloc_fragment((block_M, block_N), dtype)
            T.clear(C)
            T.clear(sq)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(X[by * block_M, k * block_K], X_s)  # columns past K read as 0
                T.copy(G[k * block_K], G_s)
                T.copy(W[k * block_K, bx * block_N], W_s)
                T.copy(X_s, xg)  # vector shared loads into registers
                for i, kk in T.Parallel(block_M, block_K):
                    x = T.cast(xg[i, kk], acc)
                    sq[i, kk] += x * x
                    xg[i, kk] = T.cast(x * T.cast(G_s[kk], acc), dtype)
                T.copy(xg, Xg_s)
                T.gemm(Xg_s, W_s, C, policy=T.GemmWarpPolicy.FullRow)
            T.reduce_sum(sq, inv_rms, dim=1)
            for i in T.Parallel(block_M):
                inv_rms[i] = T.rsqrt(inv_rms[i] / K + eps)
            T.copy(inv_rms, row_scale)
            for i, j in T.Parallel(block_M, block_N):
                out[i, j] = T.cast(C[i, j] * row_scale[i], dtype)
            T.copy(out, Y[by * block_M, bx * block_N])

    return main



# The same Y as a chain of two kernels (`tilec run --chain rms_norm,matmul_xn`): rms_norm writes
# the normalised rows Xn = X * G / rms(X) once (rounded to the input dtype, as model code does),
# then matmul_xn is a plain pipelined GEMM Xn @ W whose loop is nothing but two tile copies and the
# gemm. That loop takes the sm_90a TMA + wgmma schedule of samples/gemm.py. The fused kernel above
# writes X * G into shared memory with ordinary stores inside the loop: on sm_90a X and W come by
# TMA (G by cp.async) and each step has two block barriers (one wgmma group in flight over two copies
# of the X * G tile, compiler/transforms/InjectPipelineWgmmaGeneric.cpp). Xn costs one extra write
# and read of M x K (about 0.02 ms at 4096 x 4096 bf16 on the H200); bench/h200_rmsnorm.sh times
# both formulations. rms_norm keeps one row per block in registers (samples/rmsnorm.py's design).
#   tilec run samples/rmsnorm_matmul.py --chain rms_norm,matmul_xn --param M=200 --param K=72 --param N=136
@tilelang.jit(out_idx=[-1])
def rms_norm(M=512, N=512, K=512, rows=1, norm_threads=128, eps=1e-6, dtype="float16"):
    acc = "float32"
    total_flops = 4 * M * K  # square, add, two scales per element
    total_bytes = (2 * M * K + K) * (2 if dtype in ("float16", "bfloat16") else 4)

    @T.prim_func
    def main(X: T.Tensor((M, K), dtype), G: T.Tensor((K,), dtype), Xn: T.Tensor((M, K), dtype)):
        with T.Kernel(T.ceildiv(M, rows), threads=norm_threads) as (bx,):
            x = T.alloc_fragment((rows, K), dtype)
            sq = T.alloc_fragment((rows, K), acc)
            sum_sq = T.alloc_fragment((rows,), acc)
            T.copy(X[bx * rows, 0], x)  # rows past M read as 0, never stored
            for i, j in T.Parallel(rows, K):
                sq[i, j] = T.cast(x[i, j], acc) * T.cast(x[i, j], acc)
            T.reduce_sum(sq, sum_sq, dim=1)
            for i in T.Parallel(rows):
                sum_sq[i] = T.rsqrt(sum_sq[i] / K + eps)  # the row's 1 / rms
            for i, j in T.Parallel(rows, K):
                x[i, j] = T.cast(T.cast(x[i, j], acc) * sum_sq[i] * T.cast(G[j], acc), dtype)
            T.copy(x, Xn[bx * rows, 0])

    return main


@tilelang.jit(out_idx=[-1])
def matmul_xn(M=512, N=512, K=512, block_M=128, block_N=256, block_K=32, num_stages=3, threads=256,
              dtype="float16"):
    acc = "float32"
    total_flops = 2 * M * N * K
    total_bytes = (M * K + K * N + M * N) * (2 if dtype in ("float16", "bfloat16") else 4)

    @T.prim_func
    def main(Xn: T.Tensor((M, K), dtype), W: T.Tensor((K, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            Xn_s = T.alloc_shared((block_M, block_K), dtype)
            W_s = T.alloc_shared((block_K, block_N), dtype)
            C = T.alloc_fragment((block_M, block_N), acc)
            T.clear(C)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(Xn[by * block_M, k * block_K], Xn_s)
                T.copy(W[k * block_K, bx * block_N], W_s)
                T.gemm(Xn_s, W_s, C)
            T.copy(C, Y[by * block_M, bx * block_N])

    return main

def ref_program(X, G, W, eps):
    x = X.float()
    xn = x * torch.rsqrt((x * x).mean(dim=-1, keepdim=True) + eps) * G.float()
    return xn @ W.float()


def rmsnorm_ref(X, G, eps):
    # rms_norm alone (the first kernel of the chain).
    x = X.float()
    return x * torch.rsqrt((x * x).mean(dim=-1, keepdim=True) + eps) * G.float()


def matmul_ref(Xn, W):
    # matmul_xn alone.
    return Xn @ W


# Work of one launch, as functions of the kernel's parameters (TileScope calls them with the
# kernel's values of the same names for TFLOP/s and GB/s; plain Python, so TileLang runs the file too).
def total_flops(M, N, K):
    # The GEMM; the norm (about 4 per element of X) is negligible next to it.
    return 2 * M * N * K


def total_bytes(M, N, K, dtype):
    # X, G, W and Y once (a lower bound: tiles are reread by other blocks).
    return (M * K + K + K * N + M * N) * (2 if dtype in ("float16", "bfloat16") else 4)
