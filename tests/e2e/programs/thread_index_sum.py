# Thread-level (SIMT) code with T.get_thread_binding, as TileLang's top-k selector and logits
# cleaning kernels write it: each thread accumulates a strided slice of its row in a register
# (T.alloc_var), then the block halves a shared array of partial sums in log2(threads) steps,
# with explicit barriers; thread 0 stores the row sum.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def row_sum_simt(M=6, N=300, threads=128):
    steps = 0
    t = threads
    while t > 1:
        t //= 2
        steps += 1

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), S: T.Tensor((M,), "float32")):
        with T.Kernel(M, threads=threads) as bx:
            tx = T.get_thread_binding()
            partial = T.alloc_shared((threads,), "float32")
            acc = T.alloc_var("float32")
            acc = 0.0
            for k in T.serial(T.ceildiv(N, threads)):
                if k * threads + tx < N:
                    acc += A[bx, k * threads + tx]
            partial[tx] = acc
            T.sync_threads()
            for s in T.serial(steps):
                half = threads >> (s + 1)
                if tx < half:
                    partial[tx] = partial[tx] + partial[tx + half]
                T.sync_threads()
            if tx == 0:
                S[bx] = partial[0]

    return main


def ref_program(A):
    return A.sum(-1)
