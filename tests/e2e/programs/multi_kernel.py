# Three kernels in one file (DESIGN.md §2b), in the shapes real TileLang files use: a forward
# kernel checked by the module-level ref_program, a reduction whose reference is nested in a
# test function (`--ref run_row_mean.ref_program`), and a factory that returns one of two
# prim_funcs (`--ref scale_ref`). tile_of, ref_program, scale_ref and run_row_mean are helpers,
# not kernels.
#   tilec kernels tests/e2e/programs/multi_kernel.py
#   tilec run tests/e2e/programs/multi_kernel.py --kernel row_mean --ref run_row_mean.ref_program
import tilelang
import tilelang.language as T

SCALE = 2.0


def tile_of(n):
    return 32 if n % 32 == 0 else 16


@tilelang.jit(out_idx=[-1])
def affine_fwd(M=256, N=128, block_M=32, threads=128):
    @T.prim_func
    def fwd(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as (bx,):
            X = T.alloc_fragment((block_M, N), "float32")
            T.copy(A[bx * block_M, 0], X)
            for i, j in T.Parallel(block_M, N):
                X[i, j] = X[i, j] * SCALE + 1.0
            T.copy(X, B[bx * block_M, 0])

    return fwd


@tilelang.jit(out_idx=[-1])
def row_mean(M=128, N=64, block_M=16, threads=128):
    @T.prim_func
    def rows(A: T.Tensor((M, N), "float32"), S: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as (bx,):
            X = T.alloc_fragment((block_M, N), "float32")
            s = T.alloc_fragment((block_M,), "float32")
            T.copy(A[bx * block_M, 0], X)
            T.reduce_sum(X, s, dim=1)
            for i in T.Parallel(block_M):
                S[bx * block_M + i] = s[i] / N

    return rows


@tilelang.jit(out_idx=[-1])
def scale_cols(M=64, N=256, block_N=tile_of(256), halve=False):
    @T.prim_func
    def full(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), threads=128) as (bx,):
            for i, j in T.Parallel(M, block_N):
                B[i, bx * block_N + j] = A[i, bx * block_N + j] * 3.0

    @T.prim_func
    def half(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), threads=128) as (bx,):
            for i, j in T.Parallel(M, block_N):
                B[i, bx * block_N + j] = A[i, bx * block_N + j] * 1.5

    if halve:
        return half
    return full


def ref_program(A):
    return A * SCALE + 1.0


def scale_ref(A, halve):
    return A * (1.5 if halve else 3.0)


def run_row_mean(M=128, N=64):
    kernel = row_mean(M, N)
    cols = N  # simple: the nested reference sees it, with the kernel's N

    def ref_program(A):
        return A.sum(dim=1) / cols

    return kernel, ref_program
