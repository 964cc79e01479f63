# Which tensors a kernel writes when it writes them only through views (no out_idx: the written
# tensors are the outputs): B by name, C through a same-dtype flat view, D through a float32 view
# of int32 memory, Q only by atomics through an int32 view of float32 memory (an output only
# atomics write starts at zero, so its result is nb adds of the bits 1).
import tilelang
import tilelang.language as T
import torch


@tilelang.jit
def global_view_outputs(M=16, N=16, nb=3):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32"), C: T.Tensor((M, N), "float32"),
             D: T.Tensor((M, N), "int32"), Q: T.Tensor((M, N), "float32")):
        with T.Kernel(nb, threads=128) as bx:
            Cv = T.view(C, (M * N,))
            Dv = T.view(D, (M, N), dtype="float32")
            Qi = T.view(Q, (M, N), dtype="int32")
            for i, j in T.Parallel(M, N):
                B[i, j] = X[i, j]
                Cv[i * N + j] = X[i, j]
                Dv[i, j] = X[i, j]
                T.atomic_add(Qi[i, j], 1)

    return main


def ref_program(X):
    q = torch.full(X.shape, 3, dtype=torch.int32).view(torch.float32)
    return X, X, X.view(torch.int32), q
