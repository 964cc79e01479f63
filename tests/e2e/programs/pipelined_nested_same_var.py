# A T.Pipelined loop nested in a T.Pipelined loop that reuses its variable name, inside one warp
# role (found by fuzz_pipeline from role_pipelined.py: the inner loop's rewrite shifted the outer
# body, whose planned producer index then named a non-copy statement -- a null dereference in
# inject-pipeline, a crash of tilec and the IDE). The outer loop now stays a serial loop; both
# interpreters agree (tests/e2e/NestedPipelinedE2ETest.cpp).
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
                    for k in T.Pipelined(T.ceildiv(M, block), num_stages=stages):
                        xs = T.alloc_shared((block, N), "float32")
                        T.copy(X[k * block, 0], xs)
                        for j in T.Parallel(N):
                            for i in T.serial(block):
                                acc[j] += xs[i, j]
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
