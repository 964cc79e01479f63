import tilelang.language as T


# dsa_sparse_finetune's sparse_mla_bwd reuses a float16 shared tile as float32 scratch through
# T.view(KV_shared, shape=..., dtype=float32): views of shared memory (aliasing in the
# shared-memory plan, the interpreters' byte-level reinterpretation) are not supported yet.
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((32, 64), "float32")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float16")
        T.copy(A, s)
        w = T.view(s, shape=[32, 64], dtype="float32")  # expect-error: T.view: a view of shared 's' is not supported yet
        T.copy(w, B)
