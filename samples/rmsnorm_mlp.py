# RMSNorm fused into a SwiGLU MLP: Y = (silu(Xn @ Wg) * (Xn @ Wu)) @ Wd with Xn = rmsnorm(X; G),
# X (M, D), G (D,), Wg and Wu (D, N), Wd (N, D), fp16 or bf16 in, fp32 accumulation. Two kernels,
# run in order (`tilec run --chain norm_gate_up,down_proj`):
#  1. norm_gate_up: H = silu(r * ((X * G) @ Wg)) * (r * ((X * G) @ Wu)), r = 1/rms of X's row.
#     The norm is folded into the two GEMMs that share the X tile (as in rmsnorm_matmul.py and
#     swiglu.py): each pipelined step loads X, G, Wg and Wu tiles, copies the X tile into
#     registers, adds its squares into an fp32 fragment and writes X * G to the shared tile both
#     GEMMs read. The row scale r factors out of both products and is applied to the
#     accumulators before silu; only H (M, N) is stored.
#  2. down_proj: Y = H @ Wd, a pipelined GEMM.
# Neither the normalised X nor the two (M, N) projections ever reach memory.
#   tilec run samples/rmsnorm_mlp.py --chain norm_gate_up,down_proj --ref mlp_ref --param M=200 --param D=72 --param N=136
import tilelang
import tilelang.language as T
import torch
import torch.nn.functional as F


@tilelang.jit(out_idx=[-1])
def norm_gate_up(M=512, D=512, N=1024, block_M=128, block_N=128, block_K=32, num_stages=3, threads=256,
                 eps=1e-6, dtype="float16"):
    acc = "float32"
    log2e = 1.4426950408889634
    # Work of one launch (TileScope reads these locals for TFLOP/s and GB/s): two M x N x D GEMMs;
    # X, G, both weights and H once (the norm and the epilogue are negligible).
    total_flops = 4 * M * N * D
    total_bytes = (M * D + D + 2 * D * N + M * N) * (2 if dtype in ("float16", "bfloat16") else 4)

    @T.prim_func
    def main(
            X: T.Tensor((M, D), dtype),
            G: T.Tensor((D,), dtype),
            Wg: T.Tensor((D, N), dtype),
            Wu: T.Tensor((D, N), dtype),
            H: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            X_s = T.alloc_shared((block_M, block_K), dtype)
            G_s = T.alloc_shared((block_K,), dtype)
            Xg_s = T.alloc_shared((block_M, block_K), dtype)  # X * G, A operand of both GEMMs
            Wg_s = T.alloc_shared((block_K, block_N), dtype)
            Wu_s = T.alloc_shared((block_K, block_N), dtype)
            sq = T.alloc_fragment((block_M, block_K), acc)
            xg = T.alloc_fragment((block_M, block_K), dtype)  # X, then X * G, in registers
            sum_sq = T.alloc_fragment((block_M,), acc)
            row_scale = T.alloc_shared((block_M,), acc)  # 1/rms, read by the accumulators' row layout
            gate = T.alloc_fragment((block_M, block_N), acc)
            up = T.alloc_fragment((block_M, block_N), acc)
            out = T.alloc_fragment((block_M, block_N), dtype)
            T.clear(gate)
            T.clear(up)
            T.clear(sq)
            for k in T.Pipelined(T.ceildiv(D, block_K), num_stages=num_stages):
                T.copy(X[by * block_M, k * block_K], X_s)
                T.copy(G[k * block_K], G_s)
                T.copy(Wg[k * block_K, bx * block_N], Wg_s)
                T.copy(Wu[k * block_K, bx * block_N], Wu_s)
                T.copy(X_s, xg)  # vector shared loads into registers
                for i, kk in T.Parallel(block_M, block_K):
                    x = T.cast(xg[i, kk], acc)
                    sq[i, kk] += x * x
                    xg[i, kk] = T.cast(x * T.cast(G_s[kk], acc), dtype)
                T.copy(xg, Xg_s)
                T.gemm(Xg_s, Wg_s, gate, policy=T.GemmWarpPolicy.FullRow)
                T.gemm(Xg_s, Wu_s, up, policy=T.GemmWarpPolicy.FullRow)
            T.reduce_sum(sq, sum_sq, dim=1)
            for i in T.Parallel(block_M):
                sum_sq[i] = T.rsqrt(sum_sq[i] / D + eps)
            T.copy(sum_sq, row_scale)
            for i, j in T.Parallel(block_M, block_N):
                g = gate[i, j] * row_scale[i]
                out[i, j] = T.cast(g / (1.0 + T.exp2(-g * log2e)) * (up[i, j] * row_scale[i]), dtype)
            T.copy(out, H[by * block_M, bx * block_N])

    return main


@tilelang.jit(out_idx=[-1])
def down_proj(M=512, D=512, N=1024, block_M=128, block_N=128, block_K=32, num_stages=3, threads=256,
              dtype="float16"):
    acc = "float32"
    total_flops = 2 * M * D * N  # one M x D x N GEMM
    total_bytes = (M * N + N * D + M * D) * (2 if dtype in ("float16", "bfloat16") else 4)

    @T.prim_func
    def main(H: T.Tensor((M, N), dtype), Wd: T.Tensor((N, D), dtype), Y: T.Tensor((M, D), dtype)):
        with T.Kernel(T.ceildiv(D, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            H_s = T.alloc_shared((block_M, block_K), dtype)
            Wd_s = T.alloc_shared((block_K, block_N), dtype)
            C = T.alloc_fragment((block_M, block_N), acc)
            T.clear(C)
            for k in T.Pipelined(T.ceildiv(N, block_K), num_stages=num_stages):
                T.copy(H[by * block_M, k * block_K], H_s)
                T.copy(Wd[k * block_K, bx * block_N], Wd_s)
                T.gemm(H_s, Wd_s, C)
            T.copy(C, Y[by * block_M, bx * block_N])

    return main



# The same MLP as three kernels (`tilec run --chain rms_norm,gate_up,down_proj --ref mlp_ref`):
# rms_norm writes the normalised rows Xn = X * G / rms(X) once (rounded to the input dtype, as
# model code does), gate_up is samples/swiglu.py on Xn (H = silu(Xn @ Wg) * (Xn @ Wu)), then
# down_proj. gate_up's loop is only tile copies and gemms, so on sm_90a it takes the TMA +
# in-flight wgmma schedule; norm_gate_up's loop writes X * G into shared memory with ordinary
# stores: X, Wg, Wu by TMA, G by cp.async, two block barriers per step (its gemms stay in flight
# over two copies of the X * G tile, compiler/transforms/InjectPipelineWgmmaGeneric.cpp). Xn costs
# one extra write and read of M x D (about 0.02 ms at 4096 x 4096 bf16 on the H200);
# bench/h200_rmsnorm.sh times both formulations.
#   tilec run samples/rmsnorm_mlp.py --chain rms_norm,gate_up,down_proj --ref mlp_ref --param M=200 --param D=72 --param N=136
@tilelang.jit(out_idx=[-1])
def rms_norm(M=512, D=512, N=1024, rows=1, norm_threads=128, eps=1e-6, dtype="float16"):
    acc = "float32"
    total_flops = 4 * M * D  # square, add, two scales per element
    total_bytes = (2 * M * D + D) * (2 if dtype in ("float16", "bfloat16") else 4)

    @T.prim_func
    def main(X: T.Tensor((M, D), dtype), G: T.Tensor((D,), dtype), Xn: T.Tensor((M, D), dtype)):
        with T.Kernel(T.ceildiv(M, rows), threads=norm_threads) as (bx,):
            x = T.alloc_fragment((rows, D), dtype)
            sq = T.alloc_fragment((rows, D), acc)
            sum_sq = T.alloc_fragment((rows,), acc)
            T.copy(X[bx * rows, 0], x)  # rows past M read as 0, never stored
            for i, j in T.Parallel(rows, D):
                sq[i, j] = T.cast(x[i, j], acc) * T.cast(x[i, j], acc)
            T.reduce_sum(sq, sum_sq, dim=1)
            for i in T.Parallel(rows):
                sum_sq[i] = T.rsqrt(sum_sq[i] / D + eps)  # the row's 1 / rms
            for i, j in T.Parallel(rows, D):
                x[i, j] = T.cast(T.cast(x[i, j], acc) * sum_sq[i] * T.cast(G[j], acc), dtype)
            T.copy(x, Xn[bx * rows, 0])

    return main


@tilelang.jit(out_idx=[-1])
def gate_up(M=512, D=512, N=1024, block_M=128, block_N=128, block_K=32, num_stages=3, threads=256,
            dtype="float16"):
    acc = "float32"
    log2e = 1.4426950408889634
    total_flops = 4 * M * N * D  # two M x N x D GEMMs
    total_bytes = (M * D + 2 * D * N + M * N) * (2 if dtype in ("float16", "bfloat16") else 4)

    @T.prim_func
    def main(
            Xn: T.Tensor((M, D), dtype),
            Wg: T.Tensor((D, N), dtype),
            Wu: T.Tensor((D, N), dtype),
            H: T.Tensor((M, N), dtype),
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
            for k in T.Pipelined(T.ceildiv(D, block_K), num_stages=num_stages):
                T.copy(Xn[by * block_M, k * block_K], X_s)
                T.copy(Wg[k * block_K, bx * block_N], Wg_s)
                T.copy(Wu[k * block_K, bx * block_N], Wu_s)
                T.gemm(X_s, Wg_s, gate, policy=T.GemmWarpPolicy.FullRow)
                T.gemm(X_s, Wu_s, up, policy=T.GemmWarpPolicy.FullRow)
            for i, j in T.Parallel(block_M, block_N):
                out[i, j] = T.cast(gate[i, j] / (1.0 + T.exp2(-gate[i, j] * log2e)) * up[i, j], dtype)
            T.copy(out, H[by * block_M, bx * block_N])

    return main

def rmsnorm(X, G, eps):
    x = X.float()
    return x * torch.rsqrt((x * x).mean(dim=-1, keepdim=True) + eps) * G.float()


def ref_program(X, G, Wg, Wu, eps):
    # norm_gate_up alone (the file's default kernel).
    xn = rmsnorm(X, G, eps)
    return F.silu(xn @ Wg.float()) * (xn @ Wu.float())


def gate_up_ref(Xn, Wg, Wu):
    # gate_up alone.
    return F.silu(Xn @ Wg) * (Xn @ Wu)


def down_ref(H, Wd):
    # down_proj alone.
    return H @ Wd


def mlp_ref(X, G, Wg, Wu, Wd, eps):
    # The whole chain norm_gate_up -> down_proj in float64 (H is not rounded to the input dtype).
    return ref_program(X, G, Wg, Wu, eps) @ Wd.float()

