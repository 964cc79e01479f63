# kernel: make
# params: reduce_fn=other_kernel
import tilelang
import tilelang.language as T


# A kernel factory passed where an op is expected: calling it inside the kernel makes another
# kernel and runs none of its statements here (before, the reduction was dropped silently and
# `out` was never written).
@tilelang.jit
def other_kernel(f, o, dim, N=4):
    @T.prim_func
    def main(A: T.Tensor((N,), T.float32)):
        with T.Kernel(1, threads=32):
            A[0] = 1.0

    return main


def make(reduce_fn=T.reduce_max, length=32):
    @T.prim_func
    def k(a: T.Tensor((length, 8), T.float32), out: T.Tensor((length,), T.float32)):
        with T.Kernel(1, threads=32):
            f = T.alloc_fragment((length, 8), T.float32)
            o = T.alloc_fragment((length,), T.float32)
            T.copy(a, f)
            reduce_fn(f, o, dim=1)  # expect-error(col 13): 'other_kernel' returns a kernel (the @T.prim_func 'main'): calling it inside a kernel does not run its statements here
            T.copy(o, out)

    return k


def test_it():
    make(other_kernel)
