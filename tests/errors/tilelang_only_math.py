# TVM math TileLang re-exports and TileScope lacks (GELU's T.erf; helper-130 #7): said so like
# T.round, not "unknown tile-language name".
import tilelang.language as T


@T.prim_func
def k(A: T.Tensor((32,), "float32")):
    with T.Kernel(1, threads=32):
        A[0] = T.erf(A[0])  # expect-error(col 16): T.erf is TileLang's, but TileScope does not support it yet
        # expect-hint: the T.* names TileScope knows are in compiler/frontend/LanguageRegistry.h
