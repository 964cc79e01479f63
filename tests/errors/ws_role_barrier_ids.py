import tilelang.language as T


# A warp role whose first warp is 16 (threads 512..639): a hazard between its own statements needs
# a named barrier of its threads, and bar.sync ids stop at 15 (id 1 + first warp). Before, insert-
# sync left such a role's body unanalysed, so the race went to the GPU silently.
@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=640) as bx:
        tx = T.get_thread_binding()
        s = T.alloc_shared((64,), "float32")
        if tx < 512:
            B[tx % 64] = A[tx % 64]
        else:
            for i in T.Parallel(64):
                s[i] = A[i] * 2.0
            for i in T.Parallel(64):  # expect-error: needs a barrier of those threads
                B[i] = s[63 - i]
