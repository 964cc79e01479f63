# A T.Pipelined copy loop inside one warp role, the other role doing its own work: warp 0
# (threads 0..31) writes the row count, threads 32..127 stream X through a 2-stage shared ring
# and accumulate each column. The pipeline's block barriers must become the role's named
# barrier (bar.sync 2, 96): warp 0 never reaches them.
#   S[j] = sum_i X[i, j];  Cnt[0] = M
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def role_pipelined(M=96, N=96, block=32, stages=2):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), S: T.Tensor((N,), "float32"), Cnt: T.Tensor((1,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            if T.get_thread_binding() < 32:
                for j in T.Parallel(1):
                    Cnt[j] = M * 1.0
            else:
                acc = T.alloc_fragment((N,), "float32")
                T.clear(acc)
                for k in T.Pipelined(T.ceildiv(M, block), num_stages=stages):
                    xs = T.alloc_shared((block, N), "float32")
                    T.copy(X[k * block, 0], xs)
                    for j in T.Parallel(N):
                        for i in T.serial(block):
                            acc[j] += xs[i, j]
                T.copy(acc, S)

    return main


def ref_program(X):
    import torch
    return X.sum(0), torch.tensor([float(X.shape[0])], dtype=X.dtype)
