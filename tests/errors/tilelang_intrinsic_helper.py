import tilelang
import tilelang.language as T
from tilelang.intrinsics import get_ldmatrix_offset


# Helpers of TileLang's Python package that build IR through TVM (intrinsic emitters, layout
# makers) are not evaluated at compile time (make_mma_swizzle_layout is: ElaborateMmaLayouts.h).
@tilelang.jit
def k(N=64):
    @T.prim_func
    def main(A: T.Tensor((N, N), "float16"), B: T.Tensor((N, N), "float16")):
        with T.Kernel(1, threads=128) as bx:
            s = T.alloc_shared((N, N), "float16")
            T.annotate_layout({s: get_ldmatrix_offset(s)})  # expect-error: 'get_ldmatrix_offset' could not be evaluated
            T.copy(A, s)
            T.copy(s, B)

    return main
