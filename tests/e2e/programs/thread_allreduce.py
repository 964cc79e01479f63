# TVM's thread allreduce as BitBLAS-style GEMV kernels write it: each of W lanes of a row
# (threadIdx.x) sums 4 elements, T.tvm_thread_allreduce combines the W partial sums inside the
# T.attr reduce_scope, and lane 0 stores the row total.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def row_sums(M=4, W=32):
    @T.prim_func
    def main(A: T.Tensor((M, W * 4), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=(W, M)) as bx:
            acc = T.alloc_local((1,), "float32")
            red = T.alloc_local((1,), "float32")
            kr = T.thread_binding(0, W, thread="threadIdx.x")
            ni = T.thread_binding(0, M, thread="threadIdx.y")
            acc[0] = 0.0
            for j in T.serial(4):
                acc[0] += A[ni, kr * 4 + j]
            with T.attr(
                T.comm_reducer(lambda x, y: x + y, [T.cast(0, "float32")]),
                "reduce_scope",
                T.reinterpret(T.uint64(0), dtype="handle"),
            ):
                T.evaluate(T.tvm_thread_allreduce(T.uint32(1), acc[0], True, red[0], kr, dtype="handle"))
            if kr == 0:
                B[ni] = red[0]

    return main


def ref_program(A):
    return A.sum(1)
