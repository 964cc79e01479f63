# T.cumsum on a register fragment (shared-memory tiles only on this target).
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        f = T.alloc_fragment((64,), "float32")
        T.copy(A, f)
        T.cumsum(f, dim=0)  # expect-error(col 9): T.cumsum: only shared-memory tiles are supported on this target yet
        T.copy(f, B)
