import tilelang.language as T


# A hand-written producer/consumer schedule on mbarriers (TileLang's warp_specialize examples):
# TileScope builds mbarrier schedules itself from T.Pipelined and has no T.alloc_barrier yet.
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16")):
    with T.Kernel(1, threads=256) as bx:
        s = T.alloc_shared((64, 64), "float16")
        ready = T.alloc_barrier(arrive_count=128)  # expect-error(col 17): T.alloc_barrier is not supported by TileScope yet
        T.copy(A, s)
        T.copy(s, B)
