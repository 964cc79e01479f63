# Column statistics of a wgmma accumulator: reduce over dim=0 (the rows spread over warps and, in
# warpgroup order, over m64 tiles and warpgroups), a per-column bias from a 1-D fragment, and a
# per-row bias loaded from global into a 1-D fragment.
#   kind: 0 max, 1 sum, 2 absmax (dim=0)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4, 5])
def colred(M=256, N=256, K=64, block_M=128, block_N=128, block_K=64, threads=128, policy=1,
           dtype="float16", kind=1):
    pol = [T.GemmWarpPolicy.Square, T.GemmWarpPolicy.FullRow, T.GemmWarpPolicy.FullCol][policy]

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), cb: T.Tensor((N,), "float32"),
             rb: T.Tensor((M,), "float32"), C: T.Tensor((M, N), "float32"),
             CR: T.Tensor((T.ceildiv(M, block_M), N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), dtype)
            B_s = T.alloc_shared((block_K, block_N), dtype)
            acc = T.alloc_fragment((block_M, block_N), "float32")
            colv = T.alloc_fragment((block_N,), "float32")
            cbias = T.alloc_fragment((block_N,), "float32")
            rbias = T.alloc_fragment((block_M,), "float32")
            T.clear(acc)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_s)
                T.copy(B[k * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, acc, policy=pol)
            T.copy(cb[bx * block_N], cbias)
            T.copy(rb[by * block_M], rbias)
            for i, j in T.Parallel(block_M, block_N):
                acc[i, j] = acc[i, j] + cbias[j] + rbias[i]
            if kind == 0:
                T.reduce_max(acc, colv, dim=0)
            elif kind == 1:
                T.reduce_sum(acc, colv, dim=0)
            else:
                T.reduce_absmax(acc, colv, dim=0)
            T.copy(acc, C[by * block_M, bx * block_N])
            T.copy(colv, CR[by, bx * block_N])

    return main


def ref_program(A, B, cb, rb, kind=1, block_M=128):
    c = A.double() @ B.double() + cb.double().unsqueeze(0) + rb.double().unsqueeze(1)
    M, N = c.shape
    cr = c.reshape(M // block_M, block_M, N)
    if kind == 0:
        r = cr.amax(dim=1)
    elif kind == 1:
        r = cr.sum(dim=1)
    else:
        r = cr.abs().amax(dim=1)
    return c.float(), r.float()
