# T.print of whole buffers: every element with its index ("f f[1, 2] 12.000000"), a shared
# tile's and a fragment's in a T.Parallel over the tile (each element printed once, by the thread
# that holds it on the GPU and the thread-level interpreter), a per-thread local array by every
# thread; the message is printf-escaped ('%'). PrintBufferE2ETest checks both interpreters' lines.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def print_buffers(M=4, N=4, threads=32):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            s = T.alloc_shared((M, N), "float16")
            f = T.alloc_fragment((M, N), "float32")
            loc = T.alloc_local((2,), "int32")
            T.copy(A, s)
            T.print(s, msg="s 100%")
            for i, j in T.Parallel(M, N):
                f[i, j] = i * 10 + j
            T.print(f, msg="f")
            loc[0] = 7
            loc[1] = 8
            T.print(loc)
            T.copy(f, B)

    return main


def ref_program(A):
    import torch
    M, N = A.shape
    return (torch.arange(M).reshape(M, 1) * 10 + torch.arange(N).reshape(1, N)).to(torch.float32)
