# batched gemm: 3-D / 4-D output
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def bmm(Bt=3, H=2, M=200, N=136, K=96, block_M=128, block_N=128, block_K=32, dtype="float16", num_stages=3, threads=128,
        four=False, direct=False):
    C_shape = (Bt, H, M, N) if four else (Bt * H, M, N)

    @T.prim_func
    def main(
            A: T.Tensor((Bt * H, M, K), dtype),
            B: T.Tensor((Bt * H, K, N), dtype),
            C: T.Tensor(C_shape, dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), Bt * H, threads=threads) as (bx, by, bz):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[bz, by * block_M, k * block_K], A_shared)
                T.copy(B[bz, k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            if four:
                T.copy(C_local, C[bz // H, bz % H, by * block_M, bx * block_N], disable_tma=direct)
            else:
                T.copy(C_local, C[bz, by * block_M, bx * block_N], disable_tma=direct)

    return main


def ref_program(A, B):
    c = A.double() @ B.double()
    if four:
        return c.reshape(Bt, H, M, N)
    return c
