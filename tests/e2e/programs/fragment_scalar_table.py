# A small table in a fragment read as a scalar outside T.Parallel (`if gate[k] ...` in a serial
# loop, the block-sparse attention pattern): every thread holds the whole table (replicated
# layout), so the branch is uniform and any thread can read any entry.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def gated_tile_sum(M=64, N=256, block_N=64):
    tiles = N // block_N

    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Gate: T.Tensor((tiles,), "int32"), Y: T.Tensor((M, block_N), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            gate = T.alloc_fragment((tiles,), "int32")
            acc = T.alloc_fragment((M, block_N), "float32")
            T.copy(Gate, gate)
            T.clear(acc)
            for k in T.serial(tiles):
                if gate[k] % 2 != 0:
                    for i, j in T.Parallel(M, block_N):
                        acc[i, j] += X[i, k * block_N + j]
            T.copy(acc, Y)

    return main


def ref_program(X, Gate):
    odd = (Gate % 2 != 0).float()
    return (X.reshape(64, 4, 64) * odd.reshape(1, 4, 1)).sum(dim=1)
