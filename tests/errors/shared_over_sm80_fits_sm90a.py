# A Hopper-sized kernel: 192 KiB of shared memory is more than sm_80's 163 KiB per block but fits
# sm_90a's 227 KiB. Compiled for sm_80 (tilec's default without a GPU) the hint names
# --target cuda:sm_90a instead of only "use smaller tiles" (found by the new-user trial).
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((192, 256), "float32")):
    with T.Kernel(1, threads=128) as (bx,):  # expect-error(col 5): shared memory: the kernel needs 196608 bytes, more than the 166912-byte per-block limit of sm_80
        # expect-hint: it fits cuda:sm_90a (232448 bytes per block; --target cuda:sm_90a)
        s = T.alloc_shared((192, 256), "float32")
        T.copy(A, s)
        T.copy(s, A)
