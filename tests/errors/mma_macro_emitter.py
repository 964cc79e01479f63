import tilelang.language as T
from tilelang.cuda.intrinsics.macro.mma_macro_generator import TensorCoreIntrinEmitter


# TileLang's hand-written tensor-core emitters (ldmatrix / mma.sync TIR macro builders) are a
# second kernel language below T.*: the diagnostic names them at the first use.
@T.prim_func
def main(A: T.Tensor((16, 16), "float16"), C: T.Tensor((16, 16), "float32")):
    with T.Kernel(1, threads=32) as bx:
        emitter = TensorCoreIntrinEmitter(a_dtype="float16", b_dtype="float16", accum_dtype="float32")  # expect-error: hand-written tensor-core macro emitters
        C[0, 0] = 0.0
