# Per-thread work in a two-dimensional block, as TileLang's sparse compressor writes it: thread
# (tm, tn) copies its own chunk of a row into registers (T.copy to a local buffer), T.clear's a
# local, swaps two registers with a tuple assignment (the right side is read before either
# store), checks a T.device_assert, and copies the chunk back out.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def chunks(M=32, N=64, per=8, rows=8, limit=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32"),
             D: T.Tensor((M, N // per), "float32")):
        with T.Kernel(M // rows, threads=(rows, N // per)) as bx:
            tm = T.get_thread_binding(0)
            tn = T.get_thread_binding(1)
            loc = T.alloc_local((per,), "float32")
            two = T.alloc_local((2,), "float32")
            T.clear(loc)
            T.copy(A[bx * rows + tm, tn * per:(tn + 1) * per], loc)
            T.device_assert(tn * per < limit, "chunk inside the limit")
            two[0] = loc[0]
            two[1] = loc[1]
            two[0], two[1] = two[1], two[0] * 2.0
            D[bx * rows + tm, tn] = two[0] - two[1]
            for k in T.serial(per):
                loc[k] = loc[k] * 2.0 + 1.0
            T.copy(loc, B[bx * rows + tm, tn * per:(tn + 1) * per])

    return main


def ref_program(A):
    return A * 2.0 + 1.0, A[:, 1::8] - 2.0 * A[:, 0::8]
