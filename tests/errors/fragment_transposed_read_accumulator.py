# A gemm accumulator read transposed inside T.Parallel: such reads need the fragment held whole
# by every thread (replicated), but the mma instruction fixes the accumulator's layout.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 32), "float16"), B: T.Tensor((32, 64), "float16"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        a = T.alloc_shared((64, 32), "float16")
        b = T.alloc_shared((32, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        out = T.alloc_fragment((64, 64), "float32")
        T.copy(A, a)
        T.copy(B, b)
        T.clear(acc)
        T.gemm(a, b, acc)
        for i, j in T.Parallel(64, 64):
            out[i, j] = acc[j, i]  # expect-error: conflicting layouts for fragment 'acc': T.gemm at line 17 needs mma.sync
        T.copy(out, C)
