# Golden: what simplify folds before any lowering: arithmetic on constants and loop variables
# (i * 1 + 0, (j + 4) - 4, 2 * k // 2), conditions that value ranges decide (i < 64 for
# i in 0..31) and the dead branch they leave; insert-sync's barrier between the shared writes and
# the reads of other threads' elements.
# golden: simplify insert-sync
# params: N=64
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def fold(N=64, threads=32):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            s = T.alloc_shared((N,), "float32")
            for i in T.serial(N // 2 + 0):
                s[i * 1 + 0] = A[(i + 4) - 4]
            for k in T.serial(N // 2):
                if k < 64:
                    s[2 * (k + N // 2) // 2] = A[k + N // 2] * 1.0
                else:
                    s[k] = 0.0
            for j in T.serial(N):
                B[j] = s[j]

    return main
