# A gemm accumulator read inside T.Parallel at the loop variable shifted by a multiple of a row
# step, as sparse MLA's backward stores its dKV accumulator in two halves through a scratch tile
# (`acc_dkv_shared[bi_i, d_i] = acc_dkv[bi_i + s * (BS // 2), d_i]` under `if bi_i < BS // 2`):
# with warps 1 x 4 (FullCol) rows i and i + 16 of the m16n8k16 accumulator are in one thread, so
# the loop follows the accumulator's layout and each thread reads its own registers.
#   Y = 2 * A @ B (32 x 64, float32), written half by half through a 16-row shared tile
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def fragment_shift_read(K=32):
    @T.prim_func
    def main(A: T.Tensor((32, K), "float16"), B: T.Tensor((K, 64), "float16"), Y: T.Tensor((32, 64), "float32")):
        with T.Kernel(1, threads=128) as bx:
            a = T.alloc_shared((32, K), "float16")
            b = T.alloc_shared((K, 64), "float16")
            acc = T.alloc_fragment((32, 64), "float32")
            half = T.alloc_shared((16, 64), "float32")
            T.copy(A, a)
            T.copy(B, b)
            T.clear(acc)
            T.gemm(a, b, acc, policy=T.GemmWarpPolicy.FullCol)
            for s in range(2):
                for i, j in T.Parallel(32, 64):
                    if i < 16:
                        half[i, j] = acc[i + s * 16, j] * 2.0
                for i, j in T.Parallel(16, 64):
                    Y[s * 16 + i, j] = half[i, j]

    return main


def ref_program(A, B):
    return (A.float() @ B.float()) * 2.0
