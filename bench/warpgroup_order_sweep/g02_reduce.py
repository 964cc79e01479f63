# Row reductions of a wgmma accumulator into a 1-D fragment (reduce_max / reduce_sum / reduce_absmax),
# with clear=False accumulating across the K loop (the reduction sits inside the loop, after the gemm),
# then a T.Parallel nest subtracting / dividing by the row value. Outputs the tile and the row values.
#   kind: 0 max, 1 sum, 2 absmax;  inloop: 1 reduces inside the pipelined loop with clear=False
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3])
def reduce_rows(M=256, N=256, K=128, block_M=128, block_N=128, block_K=64, threads=128, policy=1,
                dtype="float16", kind=0, inloop=0, num_stages=2, tb=0):
    pol = [T.GemmWarpPolicy.Square, T.GemmWarpPolicy.FullRow, T.GemmWarpPolicy.FullCol][policy]
    b_shape = (N, K) if tb else (K, N)
    b_tile = (block_N, block_K) if tb else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor(b_shape, dtype), C: T.Tensor((M, N), "float32"),
             R: T.Tensor((M, T.ceildiv(N, block_N)), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), dtype)
            B_s = T.alloc_shared(b_tile, dtype)
            acc = T.alloc_fragment((block_M, block_N), "float32")
            r = T.alloc_fragment((block_M,), "float32")
            T.clear(acc)
            if kind == 0:
                T.fill(r, -T.infinity("float32"))
            else:
                T.fill(r, 0)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_s)
                if tb:
                    T.copy(B[bx * block_N, k * block_K], B_s)
                else:
                    T.copy(B[k * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, acc, transpose_B=tb, policy=pol)
                if inloop:
                    # running reduction of the partial sums (a contrived online statistic)
                    if kind == 0:
                        T.reduce_max(acc, r, dim=1, clear=False)
                    elif kind == 1:
                        T.reduce_sum(acc, r, dim=1, clear=False)
                    else:
                        T.reduce_absmax(acc, r, dim=1, clear=False)
            if not inloop:
                if kind == 0:
                    T.reduce_max(acc, r, dim=1, clear=False)
                elif kind == 1:
                    T.reduce_sum(acc, r, dim=1, clear=False)
                else:
                    T.reduce_absmax(acc, r, dim=1, clear=False)
            for i, j in T.Parallel(block_M, block_N):
                acc[i, j] = acc[i, j] - r[i] * 0.5
            T.copy(acc, C[by * block_M, bx * block_N])
            for i in T.Parallel(block_M):
                if by * block_M + i < M:
                    R[by * block_M + i, bx] = r[i]

    return main


def ref_program(A, B, kind=0, inloop=0, block_N=128, block_K=64, tb=0):
    a = A.double()
    b = B.double().T if tb else B.double()
    M, K = a.shape
    N = b.shape[1]
    nb = N // block_N
    c = a @ b
    cb = c.reshape(M, nb, block_N)
    if inloop:
        # partial sums after each K step (K a multiple of block_K here)
        r = None
        for s in range(K // block_K):
            p = (a[:, : (s + 1) * block_K] @ b[: (s + 1) * block_K, :]).reshape(M, nb, block_N)
            if kind == 0:
                v = p.amax(dim=2)
            elif kind == 1:
                v = p.sum(dim=2)
            else:
                v = p.abs().amax(dim=2)
            if r is None:
                r = v if kind != 1 else v
            elif kind == 1:
                r = r + v
            else:
                r = torch.maximum(r, v)
    else:
        if kind == 0:
            r = cb.amax(dim=2)
        elif kind == 1:
            r = cb.sum(dim=2)
        else:
            r = cb.abs().amax(dim=2)
    C = (cb - r.unsqueeze(2) * 0.5).reshape(M, N)
    return C.float(), r.float()
