# T.reduce_max / reduce_min / reduce_absmax with nan_propagate (TileLang's per-call switch; its
# testing/python/language/test_tilelang_language_reduce_maxmin_nan.py): the kernel plants a NaN in
# every third row and reduces each row. nan_propagate=True: those rows give NaN (TileLang's
# MaxOpNan/MinOpNan); False: the max/min of the row's other elements, as fmaxf and __hmax skip a
# NaN operand. The float64 reference plants the same NaNs and masks them the same way.
import torch

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2, 3])
def reduce_nan(rows=64, cols=96, threads=128, dtype=T.float16, nan_propagate=True, shared=False):
    @T.prim_func
    def main(A: T.Tensor((rows, cols), dtype), Mx: T.Tensor((rows,), dtype), Mn: T.Tensor((rows,), dtype),
             Am: T.Tensor((rows,), dtype)):
        with T.Kernel(1, threads=threads):
            # shared=True reduces a shared tile (the lowering through shared memory).
            f = T.alloc_shared((rows, cols), dtype) if shared else T.alloc_fragment((rows, cols), dtype)
            mx = T.alloc_fragment((rows,), dtype)
            mn = T.alloc_fragment((rows,), dtype)
            am = T.alloc_fragment((rows,), dtype)
            T.copy(A, f)
            for i, j in T.Parallel(rows, cols):
                f[i, j] = T.if_then_else(i % 3 == 0, T.if_then_else(j == (i * 7) % cols, T.cast(float("nan"), dtype), f[i, j]),
                                         f[i, j])
            T.reduce_max(f, mx, dim=1, nan_propagate=nan_propagate)
            T.reduce_min(f, mn, dim=1, nan_propagate=nan_propagate)
            T.reduce_absmax(f, am, dim=1, nan_propagate=nan_propagate)
            T.copy(mx, Mx)
            T.copy(mn, Mn)
            T.copy(am, Am)

    return main


def ref_program(A, nan_propagate=True):
    rows, cols = A.shape
    i = torch.arange(rows).unsqueeze(1)
    j = torch.arange(cols).unsqueeze(0)
    planted = (i % 3 == 0) & (j == (i * 7) % cols)
    if nan_propagate:
        a = A.masked_fill(planted, float("nan"))
        return a.amax(dim=1), a.amin(dim=1), a.abs().amax(dim=1)
    return (A.masked_fill(planted, float("-inf")).amax(dim=1), A.masked_fill(planted, float("inf")).amin(dim=1),
            A.abs().masked_fill(planted, 0.0).amax(dim=1))


def main():
    kernel = reduce_nan()
    a = torch.randn(64, 96, dtype=torch.float16, device="cuda")
    mx, mn, am = kernel(a)
    for got, want in zip((mx, mn, am), ref_program(a)):
        torch.testing.assert_close(got, want, equal_nan=True)


if __name__ == "__main__":
    main()
