import tilelang.language as T


# A view of a fragment keeps its dtype (T.reshape of a fragment is supported): registers hold
# values, so reading float32 accumulators as pairs of float16 has no meaning here.
@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 128), "float16")):
    with T.Kernel(1, threads=128) as bx:
        x = T.alloc_fragment((64, 64), "float32")
        T.copy(A, x)
        h = T.view(x, shape=[64, 128], dtype="float16")  # expect-error: T.view: a view of fragment 'x' with another dtype (float32 as float16) is not supported yet
        T.copy(h, B)
