# TVM intrinsics TileLang re-exports and TileScope lacks (T.__ldg; helper-130 #7): said so, not
# "unknown tile-language name". (T.erf, T.round and the rest of TVM's math are known:
# ir/MathLib.h, tests/e2e/programs/math_library.py.)
import tilelang.language as T


@T.prim_func
def k(A: T.Tensor((32,), "float32")):
    with T.Kernel(1, threads=32):
        A[0] = T.__ldg(A[1])  # expect-error(col 16): T.__ldg is TileLang's, but TileScope does not support it yet
        # expect-hint: the T.* names TileScope knows are in compiler/frontend/LanguageRegistry.h
