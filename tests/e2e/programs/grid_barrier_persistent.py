# A persistent kernel with a grid barrier between two phases, in the style of split-KV decode
# kernels: `workers` blocks loop over the work items of each phase. Phase 1: work item
# (row, split) sums its chunk of X's row into Partial[row, split]. Phase 2 (after every block
# passed T.sync_grid, so every partial is written): work item `row` combines the partials,
# Out[row] = sum_s Partial[row, s] * (s + 1).
import tilelang
import tilelang.language as T


@tilelang.jit
def persistent_split_sum(rows=6, splits=3, chunk=64, workers=4):
    @T.prim_func
    def main(X: T.Tensor((rows, splits * chunk), "float32"),
             Partial: T.Tensor((rows, splits), "float32"),
             Out: T.Tensor((rows,), "float32")):
        with T.Kernel(workers, threads=64) as w:
            tile = T.alloc_fragment((1, chunk), "float32")
            part = T.alloc_fragment((1,), "float32")
            acc = T.alloc_var("float32")
            for wave in T.serial(T.ceildiv(rows * splits, workers)):
                item = wave * workers + w
                if item < rows * splits:
                    T.copy(X[item // splits, (item % splits) * chunk:(item % splits + 1) * chunk], tile)
                    T.reduce_sum(tile, part, dim=1)
                    Partial[item // splits, item % splits] = part[0]
            T.sync_grid()
            for wave in T.serial(T.ceildiv(rows, workers)):
                row = wave * workers + w
                if row < rows:
                    acc = 0.0
                    for s in T.serial(splits):
                        acc += Partial[row, s] * (s + 1)
                    Out[row] = acc

    return main
