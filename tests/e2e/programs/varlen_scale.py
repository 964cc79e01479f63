# A varlen batch (sequences packed back to back, cu_seqlens their offsets) with a scalar kernel
# argument max_len bounding every sequence, the way varlen attention kernels take it. Each row of
# sequence b is scaled by scale * (b + 1); Seq records b per row. The references take what the
# kernel does not have by name: `max_len` (the scalar), `n_seq` (tilec run --ref-param), and
# return O only (Seq is not checked). Inputs: tilec run --input cu_seqlens=offsets:TOTAL.
import torch
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def varlen_scale(batch=3, total=160, D=32, block=32, scale=2.0):
    @T.prim_func
    def main(X: T.Tensor((total, D), T.float32), cu_seqlens: T.Tensor((batch + 1,), T.int32),
             max_len: T.int32, O: T.Tensor((total, D), T.float32),
             Seq: T.Tensor((total,), T.float32)):
        with T.Kernel(T.ceildiv(max_len, block), batch, threads=128) as (bx, b):
            start = cu_seqlens[b]
            end = cu_seqlens[b + 1]
            for i, j in T.Parallel(block, D):
                if start + bx * block + i < end:
                    O[start + bx * block + i, j] = X[start + bx * block + i, j] * scale * (b + 1)
            for i in T.Parallel(block):
                if start + bx * block + i < end:
                    Seq[start + bx * block + i] = b

    return main


def ref_program(X, cu_seqlens, max_len, batch, scale):
    # Sequence index of each row: the number of offsets after the first that are <= the row.
    rows = torch.arange(X.shape[0])
    seq = torch.zeros(X.shape[0])
    for b in range(batch - 1):
        seq = seq + (rows >= cu_seqlens[b + 1]).float()
    assert max_len >= 0
    return X * scale * (seq + 1).unsqueeze(1)


def ref_by_position(cu_seqlens, X, n_seq, scale):
    rows = torch.arange(X.shape[0])
    seq = torch.zeros(X.shape[0])
    for b in range(n_seq - 1):
        seq = seq + (rows >= cu_seqlens[b + 1]).float()
    return X * scale * (seq + 1).unsqueeze(1)
