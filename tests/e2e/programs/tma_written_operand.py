# A T.Pipelined loop whose body writes a wgmma operand tile with ordinary stores, in the shape of
# MHA backward's dS^T: per tile k, C1 = A_k @ B_k (both loaded by TMA), S_s = C1 / 2 stored as
# float16, then acc += S_s @ W (W_s loaded once before the loop) and rowsum += the row r_k
# (a 1-D tile loaded from a row of R). With TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 the
# fragment-path TMA schedule takes it: S_s gets two copies (iteration k writes copy k % 2),
# R's row is one TMA box of one row, one block barrier per iteration.
# mode 1: a T.Parallel reads S_s before the second gemm (its first reader is not a gemm, so no
# barrier orders the stores before it): the second gemm stays on mma.sync.
# mode 2: the second gemm reads S_s before the loop body writes it (the previous iteration's
# tile; zeros before the loop): the written-operand schedule declines (S_s is used outside the
# loop, and read before its write), the cp.async one runs.
#   Out = sum_k (A_k @ B_k / 2) @ W,  Rows[j] = sum_k R[k, j]  (+ mode 1: Chk = S_s of the last k)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4, 5, 6])
def tma_written_operand(T_tiles=3, num_stages=2, threads=128, mode=0):
    M, N, K = 64, 64, 64

    @T.prim_func
    def main(
        A: T.Tensor((T_tiles * M, K), "float16"),
        B: T.Tensor((T_tiles * K, N), "float16"),
        W: T.Tensor((N, N), "float16"),
        R: T.Tensor((T_tiles, 2, N), "float32"),
        Out: T.Tensor((M, N), "float32"),
        Rows: T.Tensor((N,), "float32"),
        Chk: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(1, threads=threads) as bx:
            A_s = T.alloc_shared((M, K), "float16")
            B_s = T.alloc_shared((K, N), "float16")
            W_s = T.alloc_shared((N, N), "float16")
            S_s = T.alloc_shared((M, N), "float16")
            r_s = T.alloc_shared((N,), "float32")
            c1 = T.alloc_fragment((M, N), "float32")
            acc = T.alloc_fragment((M, N), "float32")
            chk = T.alloc_fragment((M, N), "float32")
            rows = T.alloc_fragment((N,), "float32")
            T.copy(W, W_s)
            T.clear(acc)
            T.clear(rows)
            T.clear(chk)
            if mode == 2:
                for i, j in T.Parallel(M, N):
                    S_s[i, j] = T.cast(0, "float16")
            for k in T.Pipelined(T_tiles, num_stages=num_stages):
                T.copy(A[k * M, 0], A_s)
                T.copy(B[k * K, 0], B_s)
                T.copy(R[k, 1, 0], r_s)
                if mode == 2:
                    T.gemm(S_s, W_s, acc)
                T.clear(c1)
                T.gemm(A_s, B_s, c1)
                for i, j in T.Parallel(M, N):
                    S_s[i, j] = T.cast(c1[i, j] * 0.5, "float16")
                if mode == 1:
                    for i, j in T.Parallel(M, N):
                        chk[i, j] = T.cast(S_s[(i + 1) % M, j], "float32")
                if mode != 2:
                    T.gemm(S_s, W_s, acc)
                for j in T.Parallel(N):
                    rows[j] += r_s[j]
            T.copy(acc, Out)
            T.copy(rows, Rows)
            T.copy(chk, Chk)

    return main


def ref_program(A, B, W, R, T_tiles=3, num_stages=2, threads=128, mode=0):
    import torch

    M = K = 64
    out = torch.zeros(M, W.shape[1], dtype=torch.float64)
    chk = torch.zeros(M, W.shape[1], dtype=torch.float64)
    for k in range(T_tiles):
        s = (A[k * M : (k + 1) * M].double() @ B[k * K : (k + 1) * K].double() * 0.5).half().double()
        if mode != 2 or k + 1 < T_tiles:  # mode 2 adds S_{k-1} W: the last tile's S is never read
            out += s @ W.double()
        if mode == 1:
            chk = torch.cat([s[1:], s[:1]], dim=0)  # row i holds S[(i + 1) % M]
    return out.float(), R[:, 1, :].double().sum(0).float(), chk.float()
