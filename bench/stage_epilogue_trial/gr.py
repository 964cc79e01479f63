# general gemm trial: output dtype, transposes, tiles
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3])
def matmul(M=256, N=256, K=128, block_M=128, block_N=128, block_K=32, in_dtype="float16", out_dtype="float16",
           accum_dtype="float", num_stages=3, threads=128, trans_A=False, trans_B=False, swz=False, direct=False):
    A_shape = (K, M) if trans_A else (M, K)
    B_shape = (N, K) if trans_B else (K, N)
    A_sh = (block_K, block_M) if trans_A else (block_M, block_K)
    B_sh = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(
            A: T.Tensor(A_shape, in_dtype),
            B: T.Tensor(B_shape, in_dtype),
            C: T.Tensor((M, N), out_dtype),
            R: T.Tensor((T.ceildiv(M, block_M), N), "float32"),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared(A_sh, in_dtype)
            B_shared = T.alloc_shared(B_sh, in_dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            cmax = T.alloc_fragment((block_N,), "float32")
            T.use_swizzle(panel_size=10, enable=swz)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                if trans_A:
                    T.copy(A[k * block_K, by * block_M], A_shared)
                else:
                    T.copy(A[by * block_M, k * block_K], A_shared)
                if trans_B:
                    T.copy(B[bx * block_N, k * block_K], B_shared)
                else:
                    T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_A=trans_A, transpose_B=trans_B)
            T.copy(C_local, C[by * block_M, bx * block_N], disable_tma=direct)
            T.reduce_max(C_local, cmax, dim=0)
            T.copy(cmax, R[by, bx * block_N])

    return main


def ref_program(A, B):
    import torch
    c = A.double() @ B.double()
    r = torch.stack([c[i:i + block_M].max(dim=0).values for i in range(0, M, block_M)])
    return c, r
