import tilelang.language as T


# A memory_order that is none of C++'s (TileLang's names) is refused, not ignored.
@T.prim_func
def main(A: T.Tensor((128,), "int32"), B: T.Tensor((1,), "int32")):
    with T.Kernel(1, threads=128) as bx:
        for i in T.Parallel(128):
            T.atomic_add(B[0], A[i], memory_order="strong")  # expect-error(col 38): T.atomic_add: memory_order 'strong' is not a memory order
            # expect-hint: one of "relaxed", "consume", "acquire", "release", "acq_rel", "seq_cst"
