import tilelang.language as T


# A TMA copy completing on a hand-written mbarrier (TileLang's warp_specialize examples): the
# barriers themselves compile (T.alloc_barrier), the hand-written TMA transfer does not yet.
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float16")
        ready = T.alloc_barrier(arrive_count=128)
        T.tma_copy(A, s, barrier=ready)  # expect-error(col 9): T.tma_copy is not supported by TileScope yet
        T.copy(s, B)
