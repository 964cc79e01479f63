# Float64 references for the kernels of samples/ whose file has none of its own (a kernel that is
# only meaningful inside its chain: samples/mha_bwd.py's main and postprocess steps). Used by
# bench/samples_tilelang.py under TileLang and by `tilec run ... --ref bench/samples_refs.py::NAME`,
# so both sides check such a kernel alone against the same function. Plain torch, in the subset
# TileScope's reference evaluator runs.
import torch


def mha_bwd_main_ref(Q, K, V, dO, lse, Delta, is_causal):
    # samples/mha_bwd.py's mha_bwd_main on arbitrary lse and Delta (the kernel takes them as they
    # come: P = exp2(Q K^T * log2(e) / sqrt(dim) - lse), no softmax normalisation of its own).
    # Returns dK, dV and dQ_acc (dQ_acc starts at zero and receives every key block's piece).
    scale = 1.0 / Q.size(3) ** 0.5
    q, k, v, do = Q.transpose(1, 2), K.transpose(1, 2), V.transpose(1, 2), dO.transpose(1, 2)
    s = (q @ k.transpose(2, 3)) * (scale * 1.4426950408889634)  # (batch, heads, queries, keys)
    p = torch.exp2(s - lse.unsqueeze(-1))
    if is_causal:
        p = p.masked_fill(torch.tril(torch.ones(Q.size(1), Q.size(1), device=Q.device)) == 0, 0.0)
    dv = p.transpose(2, 3) @ do
    dp = do @ v.transpose(2, 3)
    ds = p * (dp - Delta.unsqueeze(-1)) * scale
    dk = ds.transpose(2, 3) @ q
    dq = ds @ k
    return dk.transpose(1, 2), dv.transpose(1, 2), dq.transpose(1, 2)


def mha_bwd_postprocess_ref(dQ_acc):
    # samples/mha_bwd.py's mha_bwd_postprocess: dQ_acc converted to the input dtype (the
    # tolerance absorbs the rounding).
    return dQ_acc * 1.0
