# Four one-warp roles in one if/elif/elif/elif chain (the last arm's condition, like
# mla_decode_ws's `elif tx >= 256`, holds for every thread left): each arm stores a row of A
# scaled by its own factor into a shared tile, then reads it back reversed, i.e. elements other
# lanes wrote. Every arm needs its own named barrier between the two loops; before issue 8's fix
# only the first arm got one (the others are roles nested in the first one's else role).
import torch
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def role_chain_four(N=64):
    @T.prim_func
    def main(A: T.Tensor((4, N), "float32"), B: T.Tensor((4, N), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            s0 = T.alloc_shared((N,), "float32")
            s1 = T.alloc_shared((N,), "float32")
            s2 = T.alloc_shared((N,), "float32")
            s3 = T.alloc_shared((N,), "float32")
            tx = T.get_thread_binding()
            if tx < 32:
                for i in T.Parallel(N):
                    s0[i] = A[0, i] * 2.0
                for i in T.Parallel(N):
                    B[0, i] = s0[N - 1 - i]
            elif tx < 64:
                for i in T.Parallel(N):
                    s1[i] = A[1, i] * 3.0
                for i in T.Parallel(N):
                    B[1, i] = s1[N - 1 - i]
            elif tx < 96:
                for i in T.Parallel(N):
                    s2[i] = A[2, i] * 4.0
                for i in T.Parallel(N):
                    B[2, i] = s2[N - 1 - i]
            elif tx >= 96:
                for i in T.Parallel(N):
                    s3[i] = A[3, i] * 5.0
                for i in T.Parallel(N):
                    B[3, i] = s3[N - 1 - i]

    return main


def ref_program(A):
    A = A.double()
    return torch.stack([A[r].flip(0) * (r + 2) for r in range(4)])
