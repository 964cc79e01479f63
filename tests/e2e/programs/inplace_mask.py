# An in-place kernel, the way dsa_hisa/clean_and_maintain_logits.py works: it masks row r of L
# past lengths[r] with -inf and doubles column 0, and leaves every other element of L as the
# caller gave it. So L is an output whose initial values matter: `tilec run --inout L` starts it
# with random values and hands those to the reference as its first input.
import torch
import tilelang
import tilelang.language as T


@tilelang.jit
def inplace_mask(rows=8, cols=64):
    @T.prim_func
    def main(L: T.Tensor((rows, cols), T.float32), lengths: T.Tensor((rows,), T.int32)):
        with T.Kernel(rows, threads=cols) as bx:
            tx = T.get_thread_binding()
            if tx == 0:
                L[bx, tx] = L[bx, tx] * 2.0
            if tx >= lengths[bx]:
                L[bx, tx] = -T.infinity(T.float32)

    return main


def ref_program(L, lengths):
    cols = torch.arange(L.shape[1])
    out = torch.where(cols[None, :] == 0, L * 2.0, L)
    return out.masked_fill(cols[None, :] >= lengths.long()[:, None], float("-inf"))
