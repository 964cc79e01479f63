# kernel: scale
# params: offset=2.0
# (tilec --kernel scale --param offset=2.0: offset is a parameter of 'shift', not of 'scale')
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale(M=256, block_M=128):  # expect-error: parameter 'offset' belongs to kernel 'shift'
    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = A[bx * block_M + i] * 2.0

    return main


@tilelang.jit(out_idx=[-1])
def shift(M=256, block_M=128, offset=1.0):
    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = A[bx * block_M + i] + offset

    return main
