# A T.Pipelined loop of a fragment-path wgmma gemm (sm_90a) that reuses the bytes of its B tile
# as float32 scratch after the gemm: per tile t, acc += A_t @ B_t, then C_t is stored element by
# element into `scratch` (a float32 view of B_s) and read back transposed (another thread's
# element) into `total`. The stores write B_s's bytes, so the loop cannot take the wgmma-only TMA
# schedule (InjectPipelineTmaFragment.cpp), which multi-buffers B_s and refills it by TMA with no
# proxy fence or block barrier in the loop: the view lies on B_s's first stage, where the TMA
# load of a later tile may be landing. (Compared by buffer, fragmentTmaCopies saw no write of an
# operand tile and took that schedule.) The cp.async schedule keeps B_s's copy synchronous
# (plan-pipelines: B_s is also written through the view).
#   Out = sum_t A_t @ B_t,  Total = sum_t C_t^T
# mode 1 (compile checks only: Total is undefined there) reads `scratch` without writing it: a view
# of a multi-buffered tile would stay on its first stage, so B_s is not multi-buffered either
# (plan-pipelines warns at its copy; fragmentTmaCopies declines) -- and by the contract of shared
# views (ir/Views.h) what is written through B_s is not defined through the view anyway.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4])
def fragment_tma_view_scratch(T_tiles=3, num_stages=2, threads=128, mode=0):
    M, N, K = 64, 64, 64

    @T.prim_func
    def main(
        A: T.Tensor((T_tiles * M, K), "float16"),
        B: T.Tensor((T_tiles * K, N), "float16"),
        C: T.Tensor((T_tiles * 32, 32), "float32"),
        Out: T.Tensor((M, N), "float32"),
        Total: T.Tensor((32, 32), "float32"),
    ):
        with T.Kernel(1, threads=threads) as bx:
            A_s = T.alloc_shared((M, K), "float16")
            B_s = T.alloc_shared((K, N), "float16")
            total = T.alloc_fragment((32, 32), "float32")
            acc = T.alloc_fragment((M, N), "float32")
            T.clear(acc)
            T.clear(total)
            for t in T.Pipelined(T_tiles, num_stages=num_stages):
                T.copy(A[t * M, 0], A_s)
                T.copy(B[t * K, 0], B_s)
                T.gemm(A_s, B_s, acc)
                scratch = T.view(B_s, shape=[32, 32], dtype="float32")
                if mode == 0:
                    for i, j in T.Parallel(32, 32):
                        scratch[i, j] = C[t * 32 + i, j]
                for i, j in T.Parallel(32, 32):
                    total[i, j] += scratch[j, i]
            T.copy(acc, Out)
            T.copy(total, Total)

    return main


def ref_program(A, B, C, T_tiles=3, num_stages=2, threads=128, mode=0):
    M = K = 64
    acc = sum(A[t * M : (t + 1) * M].double() @ B[t * K : (t + 1) * K].double() for t in range(T_tiles))
    total = sum(C[t * 32 : (t + 1) * 32].double().T for t in range(T_tiles))
    return acc.float(), total.float()
