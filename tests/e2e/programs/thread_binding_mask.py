# T.thread_binding as TileLang's logits-cleaning kernels use it: `tx = T.thread_binding(0,
# threads, thread="threadIdx.x")` (the whole block dimension) indexing a row in strides of the
# block, and the loop form `for t in T.thread_binding(threads, "threadIdx.x")`: each thread
# writes the elements tx, tx + threads, ... of its row, masked by a per-row [start, end) range.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3])
def mask_rows(M=5, N=200, threads=64):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Lo: T.Tensor((M,), "int32"),
             Hi: T.Tensor((M,), "int32"), Y: T.Tensor((M, N), "float32")):
        with T.Kernel(M, threads=threads) as bx:
            tx = T.thread_binding(0, threads, thread="threadIdx.x")
            lo = Lo[bx]
            hi = Hi[bx]
            for k in T.serial(T.ceildiv(N, threads)):
                idx = k * threads + tx
                if idx < N:
                    Y[bx, idx] = X[bx, idx]
                    if idx < lo or idx >= hi:
                        Y[bx, idx] = 0.0
            for t in T.thread_binding(threads, "threadIdx.x"):
                if t == 0:
                    Y[bx, 0] = Y[bx, 0] + 1.0

    return main


def ref_program(X, Lo, Hi):
    n = torch.arange(X.shape[1])[None, :]
    out = X.masked_fill((n < Lo[:, None]) | (n >= Hi[:, None]), 0.0)
    out[:, 0] = out[:, 0] + 1.0
    return out
