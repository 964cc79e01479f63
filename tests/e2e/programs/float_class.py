# T.isnan / T.isinf / T.isfinite (TVM's float classification; TileLang's isfinite test and its
# issue-2307 `T.device_assert(T.isfinite(...))`): the kernel plants NaN, +inf and -inf among the
# inputs (every 5th element from 1, 2, 3) and writes each flag as 0/1 and the finite values
# (0 elsewhere). 16-bit floats classify in float32 on the GPU (CUDA's __hne is false for NaN).
import torch

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2, 3, 4])
def float_class(N=1000, block=256, dtype=T.float16):
    @T.prim_func
    def main(X: T.Tensor((N,), dtype), Nan: T.Tensor((N,), T.float32), Inf: T.Tensor((N,), T.float32),
             Fin: T.Tensor((N,), T.float32), Clean: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for t in T.Parallel(block):
                i = bx * block + t
                if i < N:
                    v = T.if_then_else(i % 5 == 1, T.cast(float("nan"), dtype),
                                       T.if_then_else(i % 5 == 2, T.infinity(dtype),
                                                      T.if_then_else(i % 5 == 3, -T.infinity(dtype), X[i])))
                    Nan[i] = T.if_then_else(T.isnan(v), 1.0, 0.0)
                    Inf[i] = T.if_then_else(T.isinf(v), 1.0, 0.0)
                    Fin[i] = T.if_then_else(T.isfinite(v), 1.0, 0.0)
                    Clean[i] = T.if_then_else(T.isfinite(v), v, T.cast(0, dtype))

    return main


def ref_program(X):
    k = torch.arange(X.shape[0]) % 5
    v = X.masked_fill(k == 1, float("nan")).masked_fill(k == 2, float("inf")).masked_fill(k == 3, float("-inf"))
    fin = torch.isfinite(v)
    return (torch.isnan(v).float(), torch.isinf(v).float(), fin.float(), torch.where(fin, v, torch.zeros_like(v)))
