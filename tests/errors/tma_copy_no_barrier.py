import tilelang.language as T


# A TMA load completes on an mbarrier; without barrier= nothing tells the readers that the tile
# has landed. (A store, shared -> global, takes none.)
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float16")
        T.tma_copy(A, s)  # expect-error: T.tma_copy: a TMA load into 's' needs barrier=
        T.copy(s, B)
