# Column sums of X finished by the last block to arrive ("last block" pattern, as in a split-K
# GEMM or MHA backward's dQ that the last contributing block converts): every block adds its
# partial sums into acc with relaxed atomics, then thread 0 takes a ticket from `done` with an
# ordered atomic (memory_order=order: its release publishes the block's adds, its acquire makes
# the other blocks' adds visible); the block whose ticket is the last converts acc into Y and
# puts the counter back to zero for the next launch. acc and done start at zero (outputs only
# atomics write); Y is written by the last block alone.
import tilelang
import tilelang.language as T
import torch


@tilelang.jit
def column_sums(rows=300, cols=64, block_rows=32, threads=128, order="acq_rel", dtype="float16"):
    blocks = (rows + block_rows - 1) // block_rows

    @T.prim_func
    def main(X: T.Tensor((rows, cols), "float32"), acc: T.Tensor((cols,), "float32"),
             done: T.Tensor((1,), "int32"), Y: T.Tensor((cols,), dtype)):
        with T.Kernel(blocks, threads=threads) as bx:
            tile = T.alloc_fragment((block_rows, cols), "float32")
            part = T.alloc_fragment((cols,), "float32")
            ticket = T.alloc_shared((1,), "int32")
            tx = T.get_thread_binding()
            for i, j in T.Parallel(block_rows, cols):
                r = bx * block_rows + i
                tile[i, j] = T.if_then_else(r < rows, X[T.min(r, rows - 1), j], 0)
            T.reduce_sum(tile, part, dim=0)
            T.atomic_add(acc, part)
            T.sync_threads()  # every thread's adds come before thread 0's release
            if tx == 0:
                ticket[0] = T.atomic_add(done[0], 1, return_prev=True, memory_order=order)
            T.sync_threads()
            if ticket[0] == blocks - 1:
                T.copy(acc, Y)
                if tx == 0:
                    T.atomic_add(done[0], -blocks, memory_order="release")

    return main


def ref_program(X):
    s = X.double().sum(dim=0)
    return s, torch.zeros(1, dtype=torch.int32), s
