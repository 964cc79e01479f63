import tilelang
import tilelang.language as T


# One argument too many, and a parameter given twice: both raise TypeError in Python.
@tilelang.jit
def scale(N, block_M=128):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block_M), threads=128) as bx:
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = A[bx * block_M + i] * 2.0

    return main


def main():
    kernel = scale(1024, 64,
                   3,  # expect-error(col 20): 'scale' takes 2 positional arguments but this call passes 3 (__main__ -> main())
                   N=2048)  # expect-error(col 20): this call gives 'scale' two values for 'N'
    return kernel


if __name__ == "__main__":
    main()
