import tilelang.language as T


# T.tma_copy moves bytes (the tensor memory accelerator has no conversion): a float16 tensor
# into a float32 tile is an error at the call, not a silent conversion.
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float32")
        ready = T.alloc_barrier(arrive_count=128)
        T.tma_copy(A, s, barrier=ready)  # expect-error: T.tma_copy cannot convert dtypes: the source 'A' is float16 but the destination 's' is float32
        T.barrier_arrive(ready)
        T.barrier_wait(ready, 0)
        T.copy(s, B)
