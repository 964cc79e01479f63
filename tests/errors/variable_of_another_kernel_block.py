# The thread index of one T.Kernel block used in the next: Python keeps `tx` bound after the
# `with`, but each block is its own launch. A fuzzed corpus file reached simplify's IR check with
# it ("variable 'tx' is used outside its scope", an internal error).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def two_blocks(N=128):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            tx = T.get_thread_binding()
            B[tx] = A[tx]
        with T.Kernel(1, threads=128) as bx:
            B[tx] = A[tx] * 2.0  # expect-error(col 13): 'tx' is a variable of another T.Kernel block
            # expect-hint: bind it again in this block (e.g. tx = T.get_thread_binding())

    return main
