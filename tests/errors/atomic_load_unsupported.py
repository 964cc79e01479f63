import tilelang.language as T


# T.atomic_load is TileLang's; TileScope says it lacks it and how to read a flag with acquire order.
@T.prim_func
def main(F: T.Tensor((1,), "int32"), B: T.Tensor((64,), "int32")):
    with T.Kernel(1, threads=64) as bx:
        for i in T.Parallel(64):
            B[i] = T.atomic_load(F[0], memory_order="acquire")  # expect-error(col 20): T.atomic_load is not supported by TileScope yet
            # expect-hint: for an int32/uint32 flag, T.atomic_add(flag[i], 0, return_prev=True, memory_order="acquire") reads it with acquire order (one atom.acquire.gpu)
