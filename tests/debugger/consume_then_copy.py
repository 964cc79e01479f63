# A pipelined loop that reads a shared tile and then overwrites it in the same iteration
# (consume, then copy the next tile into the same buffer). Whatever num_stages says, the result
# must be the sequential loop's: B = sum over k of A[:, k-th tile]. ValidateTest runs
# `tilec validate` on it for num_stages 0..3 (the reference is the elaborated kernel on the tile
# interpreter, which runs the loop sequentially).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def tile_sum(M=64, K=256, block_K=32, dtype="float32", num_stages=2):

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((M, block_K), dtype)):
        with T.Kernel(1, threads=128) as bx:
            S = T.alloc_shared((M, block_K), dtype)
            acc = T.alloc_fragment((M, block_K), dtype)
            T.clear(acc)
            T.copy(A[0, 0], S)
            for k in T.Pipelined(K // block_K, num_stages=num_stages):
                for i, j in T.Parallel(M, block_K):
                    acc[i, j] += S[i, j]  # consume the tile
                T.copy(A[0, ((k + 1) % (K // block_K)) * block_K], S)  # then overwrite it
            T.copy(acc, B)

    return main
