# A shared tile of 1 MiB (sm_80 has about 163 KiB per block).
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((256, 1024), "float32")):
    with T.Kernel(1, threads=128) as (bx,):  # expect-error(col 5): shared memory: the kernel needs 1048576 bytes, more than the
        # expect-hint: use smaller tiles or fewer pipeline stages
        s = T.alloc_shared((256, 1024), "float32")
        T.copy(A, s)
        T.copy(s, A)
