# T.launch_thread("threadIdx.x", extent) inside a T.Kernel (TVM's launch_thread, as TileLang's
# sync_threads test writes it): the block's own thread index. Each thread reverses one element
# of its block's slice through shared memory, so a wrong index shows in the output.
import tilelang
import tilelang.language as T


@tilelang.jit
def reverse_blocks(N=1024, block=128):
    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            tx = T.launch_thread("threadIdx.x", block)
            s = T.alloc_shared((block,), T.float32)
            s[tx] = A[bx * block + tx]
            T.sync_threads()
            B[bx * block + tx] = s[block - 1 - tx] * 2.0

    return main


def ref_program(A):
    block = 128
    return A.reshape(-1, block).flip(1).reshape(-1) * 2.0
