import tilelang
import tilelang.language as T


# T.print of a whole buffer prints every element; a tensor with a run-time extent has no
# element count at compile time (helper-133: it said "T.Parallel extents must be compile-time
# constants" about a T.Parallel the user never wrote).
@tilelang.jit
def k(N=8):
    M = T.dynamic("M")

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=32) as bx:
            T.print(A)  # expect-error(col 21): T.print of a whole buffer needs a shape known at compile time; 'A' has shape (M, 8)
            # expect-hint: print a tile of it

    return main
