# Split-K GEMM: each block multiplies one K slice of A and B and adds its partial C tile into
# the output with tile-level atomics (the output must start at zero). `mode` picks the form:
#   "region"   T.atomic_add(C[by * bm, bx * bn], C_local)        (fragment region -> global)
#   "parallel" T.atomic_add(C[...i, ...j], C_local[i, j]) inside T.Parallel   (dQ accumulation)
#   "shared"   the partial tile staged through shared memory, then a region atomic from it
import tilelang
import tilelang.language as T


@tilelang.jit
def splitk(M=96, N=64, K=256, block_M=32, block_N=32, block_K=32, split_k=4, mode="region",
           dtype=T.float16, accum_dtype=T.float32, out_dtype=T.float32):
    k_per_split = K // split_k

    @T.prim_func
    def main(A: T.Tensor[(M, K), dtype], B: T.Tensor[(K, N), dtype], C: T.Tensor[(M, N), out_dtype]):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split_k, threads=128) as (bx, by, bz):
            A_s = T.alloc_shared((block_M, block_K), dtype)
            B_s = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(k_per_split, block_K), num_stages=2):
                T.copy(A[by * block_M, bz * k_per_split + ko * block_K], A_s)
                T.copy(B[bz * k_per_split + ko * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, C_local)
            if mode == "region":
                T.atomic_add(C[by * block_M, bx * block_N], C_local)
            elif mode == "parallel":
                for i, j in T.Parallel(block_M, block_N):
                    T.atomic_add(C[by * block_M + i, bx * block_N + j], C_local[i, j])
            else:
                C_s = T.alloc_shared((block_M, block_N), accum_dtype)
                T.copy(C_local, C_s)
                T.atomic_add(C[by * block_M:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N], C_s)

    return main


def ref_program(A, B):
    return (A.float() @ B.float())
