import tilelang
import tilelang.language as T


# A constant element index outside a global tensor: lowering's guard made the T.Parallel load 0
# and only the tile interpreter reported it (helper-130 #4); X[-1] is not the last element in a
# kernel.
@tilelang.jit(out_idx=[1])
def k(N=8):
    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), Y: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=32) as _:
            for i in T.Parallel(N):
                Y[i] = X[i] + X[-1]  # expect-error(col 31): index -1 is out of bounds for dimension 0 of tensor 'X' (shape (8,))
                # expect-hint: a negative index does not count from the end in a kernel: write X[7] for that element
            Y[0] = X[N]  # expect-error(col 20): index 8 is out of bounds for dimension 0 of tensor 'X'

    return main
