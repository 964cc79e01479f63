# Grid tails: M and N not multiples of the block. Out-of-range A rows / B columns are loaded as 0,
# so a tail block's row max / row sum also sees those zero columns (the reference pads likewise).
# C = A @ B - rowstat (rowstat over the block's columns, zero-padded), R = rowstat per block.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3])
def odd_rows(M=200, N=200, K=96, block_M=128, block_N=128, block_K=32, threads=128, policy=1, kind=0,
             num_stages=2, dtype="float16"):
    pol = [T.GemmWarpPolicy.Square, T.GemmWarpPolicy.FullRow, T.GemmWarpPolicy.FullCol][policy]

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), "float32"),
             R: T.Tensor((M, T.ceildiv(N, block_N)), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), dtype)
            B_s = T.alloc_shared((block_K, block_N), dtype)
            acc = T.alloc_fragment((block_M, block_N), "float32")
            r = T.alloc_fragment((block_M,), "float32")
            T.clear(acc)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_s)
                T.copy(B[k * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, acc, policy=pol)
            if kind == 0:
                T.reduce_max(acc, r, dim=1)
            else:
                T.reduce_sum(acc, r, dim=1)
            for i, j in T.Parallel(block_M, block_N):
                acc[i, j] = acc[i, j] - r[i]
            T.copy(acc, C[by * block_M, bx * block_N])
            for i in T.Parallel(block_M):
                if by * block_M + i < M:
                    R[by * block_M + i, bx] = r[i]

    return main


def ref_program(A, B, block_N=128, kind=0):
    c = A.double() @ B.double()
    M, N = c.shape
    nb = (N + block_N - 1) // block_N
    p = torch.zeros(M, nb * block_N).double()
    p[:, 0:N] = c
    p = p.reshape(M, nb, block_N)
    r = p.amax(dim=2) if kind == 0 else p.sum(dim=2)
    out = (p - r.unsqueeze(2)).reshape(M, nb * block_N)[:, 0:N]
    return out.float(), r.float()
