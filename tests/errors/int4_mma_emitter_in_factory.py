# TileLang's INT4 tensor-core macro emitter built in the factory, as TileLang's bitnet int8 x int2
# prefill kernel does (the emitter's ldmatrix/mma macros are then called in the prim_func): the
# diagnostic is at the construction, naming the emitter family; TileScope lowers T.gemm itself.
import tilelang
import tilelang.language as T
from tilelang.cuda.intrinsics.macro.mma_macro_generator import INT4TensorCoreIntrinEmitter


@tilelang.jit(out_idx=[-1])
def int4_gemm(M=64, N=64, K=64):
    mma_emitter = INT4TensorCoreIntrinEmitter(  # expect-error(col 19): 'INT4TensorCoreIntrinEmitter' (from tilelang.cuda.intrinsics.macro.mma_macro_generator) is not available at compile time: TileLang's hand-written tensor-core macro emitters
        a_dtype="int8",
        b_dtype="int8",
        accum_dtype="int32",
    )

    @T.prim_func
    def main(A: T.Tensor((M, K), "int8"), B: T.Tensor((N, K), "int8"), C: T.Tensor((M, N), "int32")):
        with T.Kernel(1, threads=128) as bx:
            A_local = T.alloc_local((8,), "int8")
            mma_emitter.ldmatrix_a(A_local, A, 0, 0)
            C[0, 0] = 0

    return main
