# A flag given as a string ("yes") instead of a Python bool.
import tilelang
import tilelang.language as T


@tilelang.jit
def add_tma(M=64, N=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as bx:
            A_s = T.alloc_shared((M, N), "float32")
            T.copy(A, A_s)
            T.atomic_add(Out, A_s, use_tma="yes")  # expect-error(col 36): expected True or False, got str
            # expect-hint: write True or False
    return main
