import tilelang.language as T


# A register A operand must be owned row-wise by the warps: policy Square splits the 64 x 64
# tile over a 2 x 2 warp grid, so two warps would need the same rows of P.
@T.prim_func
def main(V: T.Tensor((64, 64), "float16"), O: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        V_shared = T.alloc_shared((64, 64), "float16")
        p = T.alloc_fragment((64, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        T.copy(V, V_shared)
        T.fill(p, 1)
        T.clear(acc)
        T.gemm(p, V_shared, acc, policy=T.GemmWarpPolicy.Square)  # expect-error: needs each warp to own whole rows of A
        T.copy(acc, O)
