# Plain gemm with an epilogue that forces the fragment path (the accumulator is read by a
# T.Parallel scale), every knob exposed: sizes, blocks, threads, policy, dtype, transposes, stages.
#   out: how the accumulator leaves: 0 = copy to global directly, 1 = via shared tile, 2 = via cast fragment
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def gemm_epi(M=256, N=256, K=128, block_M=128, block_N=128, block_K=64, threads=128, policy=0,
             dtype="float16", ta=0, tb=0, num_stages=2, out=0, scale=0.5):
    pol = [T.GemmWarpPolicy.Square, T.GemmWarpPolicy.FullRow, T.GemmWarpPolicy.FullCol][policy]
    a_shape = (K, M) if ta else (M, K)
    b_shape = (N, K) if tb else (K, N)
    a_tile = (block_K, block_M) if ta else (block_M, block_K)
    b_tile = (block_N, block_K) if tb else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor(a_shape, dtype), B: T.Tensor(b_shape, dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_s = T.alloc_shared(a_tile, dtype)
            B_s = T.alloc_shared(b_tile, dtype)
            acc = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(acc)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                if ta:
                    T.copy(A[k * block_K, by * block_M], A_s)
                else:
                    T.copy(A[by * block_M, k * block_K], A_s)
                if tb:
                    T.copy(B[bx * block_N, k * block_K], B_s)
                else:
                    T.copy(B[k * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, acc, transpose_A=ta, transpose_B=tb, policy=pol)
            for i, j in T.Parallel(block_M, block_N):
                acc[i, j] = acc[i, j] * scale + i * 0.01 - j * 0.003
            if out == 0:
                T.copy(acc, C[by * block_M, bx * block_N])
            elif out == 1:
                C_s = T.alloc_shared((block_M, block_N), dtype)
                T.copy(acc, C_s)
                T.copy(C_s, C[by * block_M, bx * block_N])
            else:
                acc_h = T.alloc_fragment((block_M, block_N), dtype)
                T.copy(acc, acc_h)
                T.copy(acc_h, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B, ta=0, tb=0, block_M=128, block_N=128, scale=0.5):
    a = A.double().T if ta else A.double()
    b = B.double().T if tb else B.double()
    c = a @ b
    M, N = c.shape
    i = (torch.arange(M).double() % block_M).unsqueeze(1)
    j = (torch.arange(N).double() % block_N).unsqueeze(0)
    return (c * scale + i * 0.01 - j * 0.003).half()
