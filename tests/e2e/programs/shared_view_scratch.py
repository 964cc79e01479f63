# A view of a shared tile's bytes with another shape and dtype as float32 scratch, as sparse MLA's
# backward reuses its bfloat16 KV tile (T.view(KV_shared, shape=[BS // 2, D], dtype=accum)):
# per chunk k, `half` (64 x 64 float16) holds X's rows, a fragment takes (k + 1) * half, and its
# two 32-row halves pass one after the other through `scratch` (32 x 64 float32 = half's 8 KiB)
# into a float32 accumulator, read at another thread's row. Writing scratch overwrites half and
# the next chunk's copy into half overwrites scratch: only barriers keep them apart.
#   Y[b, s * 32 + i, j] = sum_k (k + 1) * X[b, k * 64 + s * 32 + (i + 5) % 32, j]
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def shared_view_scratch(B=2, L=3):
    @T.prim_func
    def main(X: T.Tensor((B, L * 64, 64), "float16"), Y: T.Tensor((B, 64, 64), "float32")):
        with T.Kernel(B, threads=128) as bx:
            half = T.alloc_shared((64, 64), "float16")
            acc = T.alloc_fragment((64, 64), "float32")
            out = T.alloc_shared((64, 64), "float32")
            scratch = T.view(half, shape=[32, 64], dtype="float32")
            for i, j in T.Parallel(64, 64):
                out[i, j] = 0.0
            for k in T.serial(L):
                T.copy(X[bx, k * 64 : (k + 1) * 64, :], half)
                for i, j in T.Parallel(64, 64):
                    acc[i, j] = T.cast(half[i, j], "float32") * (k + 1)
                for s in range(2):
                    T.copy(acc[s * 32 : (s + 1) * 32, :], scratch)
                    for i, j in T.Parallel(32, 64):
                        out[s * 32 + i, j] += scratch[(i + 5) % 32, j]
            T.copy(out, Y[bx, :, :])

    return main
