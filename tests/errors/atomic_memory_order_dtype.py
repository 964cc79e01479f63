import tilelang.language as T


# An ordered atomic is one atom with .sem: none for a 16-bit float add (a CAS loop off sm_90).
@T.prim_func
def main(A: T.Tensor((128,), "float16"), B: T.Tensor((128,), "float16")):
    with T.Kernel(1, threads=128) as bx:
        T.atomic_add(B, A, memory_order="release")  # expect-error(col 22): T.atomic_add with a memory_order on float16 'B': TileScope orders atomics of int32 and uint32 and float32 adds
        # expect-hint: drop memory_order (a relaxed atomic), or make the flag or counter an int32 tensor and order through it
