# Weight-only int4 GEMM: C = A @ dequant(B)^T with fp16 (or bf16) activations A (M, K) and int4
# weights packed two per byte, B (N, K // 2) uint8: byte B[n, k // 2] holds weight k of row n in
# its low nibble when k is even, in its high nibble when k is odd. A nibble q in 0..15 stands for
# (q - 8) * Scale[n, k // group_size] (per-group scales, Scale (N, K // group_size) in A's dtype).
# Each pipelined step loads an A tile, a packed B tile (a quarter of the bytes of an fp16 tile)
# and the block_N scales of the step's group; one T.Parallel pass unpacks the nibbles (shift,
# mask), applies zero point and scale in registers and writes the fp16 tile that the tensor-core
# GEMM reads. Weights cross memory at 4 bits; the full-precision matrix never exists.
#   tilec run samples/dequant_gemm.py --param M=16 --param N=4096 --param K=4096
#   tilec run samples/dequant_gemm.py --param M=100 --param N=200 --param K=256 --param group_size=64
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def dequant_gemm(M=256, N=256, K=512, group_size=128, block_M=64, block_N=128, block_K=64, num_stages=3,
                 threads=128, dtype="float16"):
    assert K % group_size == 0, "K must be a multiple of group_size (one scale per group of K)"
    assert group_size % block_K == 0, "a K tile must lie in one scale group: block_K must divide group_size"
    acc = "float32"

    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((N, K // 2), "uint8"),
            Scale: T.Tensor((N, K // group_size), dtype),
            C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), dtype)
            B_s = T.alloc_shared((block_N, block_K // 2), "uint8")
            S_s = T.alloc_shared((block_N,), dtype)
            W_s = T.alloc_shared((block_N, block_K), dtype)  # dequantised weights of this step
            C_f = T.alloc_fragment((block_M, block_N), acc)
            out = T.alloc_fragment((block_M, block_N), dtype)
            T.clear(C_f)
            for k in T.Pipelined(K // block_K, num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_s)
                T.copy(B[bx * block_N, k * (block_K // 2)], B_s)
                T.copy(Scale[bx * block_N:bx * block_N + block_N, k * block_K // group_size], S_s)
                for j, kk in T.Parallel(block_N, block_K):
                    # int32 before shifting: the shift count is int32 (TVM wants both sides alike)
                    q = (T.cast(B_s[j, kk // 2], "int32") >> (4 * (kk % 2))) & 15
                    W_s[j, kk] = T.cast(T.cast(q, acc) - 8.0, dtype) * S_s[j]
                T.gemm(A_s, W_s, C_f, transpose_B=True)
            T.copy(C_f, out)
            T.copy(out, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B, Scale, group_size):
    n, k = B.size(0), 2 * B.size(1)
    b = B.int()  # uint8 arithmetic would wrap at q - 8
    q = torch.stack([b.bitwise_and(15), b // 16], dim=-1).reshape(n, k)  # nibble k of row n
    w = (q - 8) * Scale.repeat_interleave(group_size, dim=1)
    return A @ w.T


# Work of one launch, as functions of the kernel's parameters (TileScope calls them with the
# kernel's values of the same names for TFLOP/s and GB/s; plain Python, so TileLang runs the file too).
def total_flops(M, N, K):
    return 2 * M * N * K


def total_bytes(M, N, K, group_size, dtype):
    elt = 2 if dtype in ("float16", "bfloat16") else 4
    # A and C in the activation dtype, weights at half a byte, one scale per group.
    return (M * K + M * N) * elt + N * K // 2 + (N * K // group_size) * elt
