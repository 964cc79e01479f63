import tilelang.language as T


# A view of a shared buffer lies on its bytes (dsa_sparse_finetune's sparse_mla_bwd reuses a
# bfloat16 tile as float32 scratch with T.view(KV_shared, shape=..., dtype=float32)), so it may
# not need more bytes than the buffer has: 64 x 64 float32 is 16 KiB, s has 8 KiB.
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float16")
        T.copy(A, s)
        w = T.view(s, shape=[64, 64], dtype="float32")  # expect-error: T.view: the view needs 16384 bytes (4096 float32) but shared 's' has 8192 (4096 float16)
        T.copy(w, B)
