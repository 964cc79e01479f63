# A one-element fragment read as a scalar through a let value used both outside T.Parallel (a
# store to global memory) and inside one (TileLang's fp8 block mean pooling re-quantization:
# block_scale = T.max(max_abs[0] * c, eps)). The fragment is placed replicated (every thread
# holds the reduced value), whichever use layout inference sees first.
import tilelang
import tilelang.language as T


@tilelang.jit
def absmax_scale(M=8, N=64, threads=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Q: T.Tensor((M, N), "float32"),
             S: T.Tensor((M,), "float32")):
        with T.Kernel(M, threads=threads) as bx:
            row = T.alloc_fragment((N,), "float32")
            max_abs = T.alloc_fragment((1,), "float32")
            T.copy(A[bx, 0:N], row)
            T.reduce_absmax(row, max_abs, dim=0, clear=True)
            scale = T.max(max_abs[0] * 0.25, 1e-6)
            inv = 1.0 / scale
            for j in T.Parallel(N):
                Q[bx, j] = row[j] * inv
            S[bx] = scale

    return main


def ref_program(A):
    scale = torch.maximum(A.abs().amax(-1) * 0.25, torch.tensor(1e-6))
    return A / scale.unsqueeze(-1), scale
