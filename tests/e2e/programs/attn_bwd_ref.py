# Float64 reference for an attention backward chain (written for TileScope's tests; it holds no
# kernel): `tilec run FILE --chain fwd,preprocess,bwd,postprocess --ref
# tests/e2e/programs/attn_bwd_ref.py::attn_bwd_ref` checks the chain's final outputs with it.
# Tensors are [batch, seq_len, heads, dim] (BSHD). The chain's free inputs Q, K, V, dO arrive by
# name; is_causal takes the kernels' factory value. Returns (dK, dV, dQ): the order in which the
# chain (backward kernel: dK, dV; postprocess: dQ) produces its final outputs.
import torch


def attn_bwd_ref(Q, K, V, dO, is_causal=False):
    dim = Q.size(3)
    seq_len = Q.size(1)
    sm_scale = 1.0 / dim**0.5
    q = Q.float().transpose(1, 2)  # [batch, heads, seq_len, dim]
    k = K.float().transpose(1, 2)
    v = V.float().transpose(1, 2)
    do = dO.float().transpose(1, 2)
    scores = (q @ k.transpose(2, 3)) * sm_scale  # [batch, heads, query, key]
    if is_causal:
        mask = torch.tril(torch.ones(seq_len, seq_len))
        scores = scores.masked_fill(mask == 0, float("-inf"))
    p = torch.softmax(scores, dim=-1)
    o = p @ v
    # Backward of O = softmax(S) V with S = scale * Q K^T, by hand (no autograd):
    dv = p.transpose(2, 3) @ do
    dp = do @ v.transpose(2, 3)
    delta = (do * o).sum(-1, keepdim=True)  # rowsum(dO * O) = rowsum(P * dP)
    ds = p * (dp - delta)
    dq = (ds @ k) * sm_scale
    dk = (ds.transpose(2, 3) @ q) * sm_scale
    return dk.transpose(1, 2), dv.transpose(1, 2), dq.transpose(1, 2)
