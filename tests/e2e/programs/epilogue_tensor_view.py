# A wgmma gemm whose accumulator is stored to C at the end and read back in the same kernel
# through a view of C's memory (D = 2 C). stage-epilogue (sm_90a) sends such a final store through
# a staged shared tile and a TMA store, whose global writes complete only at the kernel's exit:
# not here, where the kernel reads C again (ops/CopyTma.cpp tmaStoreWhyNot sees the read through
# the view; compared by buffer, the store was staged and the read raced with it).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3])
def epilogue_tensor_view(M=128, N=128, K=128, block_M=128, block_N=128, block_K=64):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float16"), D: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), "float16")
            B_s = T.alloc_shared((block_K, block_N), "float16")
            C_l = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(C_l)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_s)
                T.copy(B[k * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, C_l)
            T.copy(C_l, C[by * block_M, bx * block_N])
            T.sync_threads()
            Cf = T.Tensor((M * N,), "float16", C.data)
            for i, j in T.Parallel(block_M, block_N):
                D[by * block_M + i, bx * block_N + j] = Cf[(by * block_M + i) * N + bx * block_N + j] * 2

    return main


def ref_program(A, B):
    c = (A.double() @ B.double()).half()
    return c, (2 * c.double()).half()
