# Multi-head attention backward over (batch, seq, heads, dim) tensors, as four kernels run in
# order (`tilec run --chain`; the forward is here because the backward needs its log-sum-exp):
#  1. mha_fwd: FlashAttention forward (online softmax, as in flash_attn_fwd.py) that also stores
#     each query row's log-sum-exp in base 2, lse = m * log2(e) / sqrt(dim) + log2(l).
#  2. mha_bwd_preprocess: Delta = rowsum(O * dO) per query row (fp32).
#  3. mha_bwd_main: one block per block_M keys of one head walks the query tiles in a software
#     pipeline and RECOMPUTES the probabilities from Q, K and lse instead of reading a stored
#     seq x seq matrix: with s = 1/sqrt(dim),
#         P^T = exp2(K Q^T * s * log2(e) - lse)          (keys x queries)
#         dV += P^T dO,    dP^T = V dO^T,    dS^T = P^T * (dP^T - Delta) * s
#         dK += dS^T Q,    dQ  += dS K        (dS^T round-trips through shared memory)
#     dK and dV stay in fp32 fragments for the whole loop and are written once; dQ gets a piece
#     from every key block, so each block adds its block_N x dim piece into an fp32 dQ_acc with
#     T.atomic_add (outputs only atomics write start at zero); dq_tma=True (cuda:sm_90a) stages the piece
#     in shared memory and adds it with one TMA reduce-add (use_tma=True), not per-element atomics.
#     ds_regs=True keeps dS^T in registers too: dK += dS^T Q reads it there (sm_90a: wgmma with A in
#     registers, issued after dS^T is stored for dQ, in flight across dQ's barrier; FA3's order).
#  4. mha_bwd_postprocess: dQ = dQ_acc converted to the input dtype. With dq_convert=True the main
#     kernel does it instead (`--chain mha_fwd,mha_bwd_preprocess,mha_bwd_main`): each key block,
#     its dQ adds done, takes a ticket from dq_done[b, head] (an acq_rel atomic publishes its adds
#     and sees the earlier blocks'); the head's last block converts dQ and zeroes the counter again.
#     Correct, but slower on the H100 than the postprocess (0.584 vs 0.488 + 0.038 ms; README).
# Masks: keys and queries past seq_len (ragged tiles) and, when is_causal, keys after the query
# (causal key blocks also skip the query tiles that lie wholly before them).
#   tilec run samples/mha_bwd.py --chain mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess --ref bwd_ref --param seq_len=100
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[3, 4])
def mha_fwd(batch=1, heads=2, seq_len=100, dim=64, is_causal=False, block_M=64, block_N=64, num_stages=2,
            threads=128, dtype="float16"):
    qk_scale = 1.4426950408889634 / dim**0.5  # log2(e) / sqrt(dim)
    acc = "float32"
    shape = (batch, seq_len, heads, dim)
    total_flops = 4 * batch * heads * seq_len * seq_len * dim // (2 if is_causal else 1)
    total_bytes = 4 * batch * seq_len * heads * dim * 2 + batch * heads * seq_len * 4

    @T.prim_func
    def main(
        Q: T.Tensor(shape, dtype),
        K: T.Tensor(shape, dtype),
        V: T.Tensor(shape, dtype),
        O: T.Tensor(shape, dtype),
        lse: T.Tensor((batch, heads, seq_len), acc),
    ):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (qb, head, b):
            q0 = qb * block_M
            Q_s = T.alloc_shared((block_M, dim), dtype)
            K_s = T.alloc_shared((block_N, dim), dtype)
            V_s = T.alloc_shared((block_N, dim), dtype)
            S = T.alloc_fragment((block_M, block_N), acc)
            P = T.alloc_fragment((block_M, block_N), dtype)
            acc_o = T.alloc_fragment((block_M, dim), acc)
            m = T.alloc_fragment((block_M,), acc)
            m_prev = T.alloc_fragment((block_M,), acc)
            alpha = T.alloc_fragment((block_M,), acc)
            l = T.alloc_fragment((block_M,), acc)
            l_tile = T.alloc_fragment((block_M,), acc)

            T.copy(Q[b, q0:q0 + block_M, head, :], Q_s)
            T.fill(acc_o, 0)
            T.fill(l, 0)
            T.fill(m, -T.infinity(acc))
            kv_tiles = T.ceildiv(seq_len, block_N)
            if is_causal:
                kv_tiles = T.min(kv_tiles, T.ceildiv(q0 + block_M, block_N))
            for kt in T.Pipelined(kv_tiles, num_stages=num_stages):
                k0 = kt * block_N
                T.copy(K[b, k0:k0 + block_N, head, :], K_s)
                for i, j in T.Parallel(block_M, block_N):
                    if is_causal:
                        S[i, j] = T.if_then_else(k0 + j <= q0 + i, 0, -T.infinity(acc))
                    else:
                        S[i, j] = T.if_then_else(k0 + j < seq_len, 0, -T.infinity(acc))
                T.gemm(Q_s, K_s, S, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(m, m_prev)
                T.reduce_max(S, m, dim=1, clear=False)
                for i in T.Parallel(block_M):
                    alpha[i] = T.exp2((m_prev[i] - m[i]) * qk_scale)
                for i, j in T.Parallel(block_M, block_N):
                    S[i, j] = T.exp2(S[i, j] * qk_scale - m[i] * qk_scale)
                T.reduce_sum(S, l_tile, dim=1)
                for i in T.Parallel(block_M):
                    l[i] = l[i] * alpha[i] + l_tile[i]
                for i, j in T.Parallel(block_M, dim):
                    acc_o[i, j] *= alpha[i]
                T.copy(S, P)
                T.copy(V[b, k0:k0 + block_N, head, :], V_s)
                T.gemm(P, V_s, acc_o, policy=T.GemmWarpPolicy.FullRow)
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] /= l[i]
            T.copy(acc_o, O[b, q0:q0 + block_M, head, :])
            for i in T.Parallel(block_M):
                l[i] = T.log2(l[i]) + m[i] * qk_scale
            T.copy(l, lse[b, head, q0:q0 + block_M])

    return main


@tilelang.jit(out_idx=[2])
def mha_bwd_preprocess(batch=1, heads=2, seq_len=100, dim=64, block_M=64, threads=128, dtype="float16"):
    acc = "float32"
    shape = (batch, seq_len, heads, dim)
    total_flops = 2 * batch * seq_len * heads * dim
    total_bytes = 2 * batch * seq_len * heads * dim * 2 + batch * heads * seq_len * 4

    @T.prim_func
    def main(O: T.Tensor(shape, dtype), dO: T.Tensor(shape, dtype), Delta: T.Tensor((batch, heads, seq_len), acc)):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (qb, head, b):
            q0 = qb * block_M
            o = T.alloc_fragment((block_M, dim), dtype)
            do = T.alloc_fragment((block_M, dim), dtype)
            prod = T.alloc_fragment((block_M, dim), acc)
            delta = T.alloc_fragment((block_M,), acc)
            T.copy(O[b, q0:q0 + block_M, head, :], o)
            T.copy(dO[b, q0:q0 + block_M, head, :], do)
            for i, j in T.Parallel(block_M, dim):
                prod[i, j] = T.cast(o[i, j], acc) * T.cast(do[i, j], acc)
            T.reduce_sum(prod, delta, dim=1)
            T.copy(delta, Delta[b, head, q0:q0 + block_M])

    return main


# No out_idx: the caller passes dK, dV and a zeroed dQ_acc (TileScope starts outputs that only
# atomics write at zero; under TileLang, pass torch.zeros).
@tilelang.jit
def mha_bwd_main(batch=1, heads=2, seq_len=100, dim=64, is_causal=False, block_M=64, block_N=64, num_stages=2,
                 threads=128, dtype="float16", dq_tma=False, ds_regs=False, dp_first=False, dq_convert=False):
    sm_scale = 1.0 / dim**0.5
    qk_scale = 1.4426950408889634 * sm_scale  # log2(e) / sqrt(dim)
    acc = "float32"
    shape = (batch, seq_len, heads, dim)
    # Five seq x seq x dim GEMMs per head (K Q^T, P^T dO, V dO^T, dS^T Q, dS K); causal halves them.
    total_flops = 10 * batch * heads * seq_len * seq_len * dim // (2 if is_causal else 1)
    total_bytes = 7 * batch * seq_len * heads * dim * 2 + 2 * batch * heads * seq_len * 4

    key_blocks = (seq_len + block_M - 1) // block_M

    # The kernel body is a macro so that the two signatures below share it: with dq_convert the
    # kernel also writes dQ and counts finished key blocks per head in dq_done (int32, zero
    # before the first call and after every call); without it, dQ_acc is its last output and
    # mha_bwd_postprocess converts it.
    @T.macro
    def body(Q, K, V, dO, lse, Delta, dK, dV, dQ_acc, dQ, dq_done):
        with T.Kernel(key_blocks, heads, batch, threads=threads) as (kb, head, b):
            k0 = kb * block_M  # first key of this block
            K_s = T.alloc_shared((block_M, dim), dtype)
            V_s = T.alloc_shared((block_M, dim), dtype)
            Q_s = T.alloc_shared((block_N, dim), dtype)
            dO_s = T.alloc_shared((block_N, dim), dtype)
            lse_s = T.alloc_shared((block_N,), acc)
            delta_s = T.alloc_shared((block_N,), acc)
            dS_s = T.alloc_shared((block_M, block_N), dtype)
            qkT = T.alloc_fragment((block_M, block_N), acc)
            dpT = T.alloc_fragment((block_M, block_N), acc)
            pT = T.alloc_fragment((block_M, block_N), dtype)
            dsT = T.alloc_fragment((block_M, block_N), dtype)
            dk = T.alloc_fragment((block_M, dim), acc)
            dv = T.alloc_fragment((block_M, dim), acc)
            dq = T.alloc_fragment((block_N, dim), acc)
            dk_out = T.alloc_fragment((block_M, dim), dtype)
            dv_out = T.alloc_fragment((block_M, dim), dtype)
            if dq_tma:  # dQ's piece staged in shared memory and added by one TMA reduce-add (sm_90)
                dq_s = T.alloc_shared((block_N, dim), acc)

            T.copy(K[b, k0:k0 + block_M, head, :], K_s)
            T.copy(V[b, k0:k0 + block_M, head, :], V_s)
            T.clear(dk)
            T.clear(dv)
            first = k0 // block_N if is_causal else 0  # earlier query tiles see none of these keys
            for qt in T.Pipelined(first, T.ceildiv(seq_len, block_N), num_stages=num_stages):
                q0 = qt * block_N
                T.copy(Q[b, q0:q0 + block_N, head, :], Q_s)
                T.copy(lse[b, head, q0:q0 + block_N], lse_s)
                T.clear(qkT)
                T.gemm(K_s, Q_s, qkT, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(dO[b, q0:q0 + block_N, head, :], dO_s)
                if dp_first:  # sm_90a: dP^T's wgmma stays in flight while the warps compute P^T below
                    T.clear(dpT)
                    T.gemm(V_s, dO_s, dpT, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                for i, j in T.Parallel(block_M, block_N):
                    keep = (k0 + i < seq_len) and (q0 + j < seq_len)
                    if is_causal:
                        keep = keep and (k0 + i <= q0 + j)
                    qkT[i, j] = T.if_then_else(keep, T.exp2(qkT[i, j] * qk_scale - lse_s[j]), 0)
                T.copy(Delta[b, head, q0:q0 + block_N], delta_s)
                T.copy(qkT, pT)
                T.gemm(pT, dO_s, dv, policy=T.GemmWarpPolicy.FullRow)
                if not dp_first:
                    T.clear(dpT)
                    T.gemm(V_s, dO_s, dpT, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                if ds_regs:  # dS also kept in registers: dK += dS Q reads it from there (FA3's order)
                    for i, j in T.Parallel(block_M, block_N):
                        dsT[i, j] = T.cast(qkT[i, j] * (dpT[i, j] - delta_s[j]) * sm_scale, dtype)
                    T.copy(dsT, dS_s)  # for dQ = dS^T K, which needs every warp's rows
                    T.gemm(dsT, Q_s, dk, policy=T.GemmWarpPolicy.FullRow)
                else:
                    for i, j in T.Parallel(block_M, block_N):
                        dS_s[i, j] = T.cast(qkT[i, j] * (dpT[i, j] - delta_s[j]) * sm_scale, dtype)
                    T.gemm(dS_s, Q_s, dk, policy=T.GemmWarpPolicy.FullRow)
                T.clear(dq)
                T.gemm(dS_s, K_s, dq, transpose_A=True, policy=T.GemmWarpPolicy.FullRow)
                if dq_tma:
                    T.copy(dq, dq_s)
                    T.atomic_add(dQ_acc[b, q0:q0 + block_N, head, :], dq_s, use_tma=True)
                else:
                    T.atomic_add(dQ_acc[b, q0:q0 + block_N, head, :], dq)
            T.copy(dk, dk_out)
            T.copy(dv, dv_out)
            T.copy(dk_out, dK[b, k0:k0 + block_M, head, :])
            T.copy(dv_out, dV[b, k0:k0 + block_M, head, :])
            if dq_convert:  # the head's last key block to finish converts its dQ (no postprocess kernel)
                ticket = T.alloc_shared((1,), "int32")
                T.sync_threads()  # every thread's dQ adds come before the ticket's release
                for i in T.Parallel(1):  # one thread takes the block's ticket
                    ticket[i] = T.atomic_add(dq_done[b, head], 1, return_prev=True, memory_order="acq_rel")
                T.sync_threads()
                if ticket[0] == key_blocks - 1:  # acquired: every key block's dQ adds are visible
                    for ct in T.serial(T.ceildiv(seq_len, 128)):  # 128 rows at a time: 32 KB of loads in flight
                        T.copy(dQ_acc[b, ct * 128:ct * 128 + 128, head, :], dQ[b, ct * 128:ct * 128 + 128, head, :])
                    for i in T.Parallel(1):  # back to 0 for the next call
                        T.atomic_add(dq_done[b, head], -key_blocks, memory_order="release")

    if dq_convert:
        @T.prim_func
        def main(
            Q: T.Tensor(shape, dtype),
            K: T.Tensor(shape, dtype),
            V: T.Tensor(shape, dtype),
            dO: T.Tensor(shape, dtype),
            lse: T.Tensor((batch, heads, seq_len), acc),
            Delta: T.Tensor((batch, heads, seq_len), acc),
            dK: T.Tensor(shape, dtype),
            dV: T.Tensor(shape, dtype),
            dQ_acc: T.Tensor(shape, acc),
            dQ: T.Tensor(shape, dtype),
            dq_done: T.Tensor((batch, heads), "int32"),
        ):
            body(Q, K, V, dO, lse, Delta, dK, dV, dQ_acc, dQ, dq_done)
    else:
        @T.prim_func
        def main(
            Q: T.Tensor(shape, dtype),
            K: T.Tensor(shape, dtype),
            V: T.Tensor(shape, dtype),
            dO: T.Tensor(shape, dtype),
            lse: T.Tensor((batch, heads, seq_len), acc),
            Delta: T.Tensor((batch, heads, seq_len), acc),
            dK: T.Tensor(shape, dtype),
            dV: T.Tensor(shape, dtype),
            dQ_acc: T.Tensor(shape, acc),
        ):
            body(Q, K, V, dO, lse, Delta, dK, dV, dQ_acc, None, None)

    return main


@tilelang.jit(out_idx=[1])
def mha_bwd_postprocess(batch=1, heads=2, seq_len=100, dim=64, block_M=64, threads=128, dtype="float16"):
    acc = "float32"
    shape = (batch, seq_len, heads, dim)
    total_flops = batch * seq_len * heads * dim
    total_bytes = batch * seq_len * heads * dim * (4 + 2)

    @T.prim_func
    def main(dQ_acc: T.Tensor(shape, acc), dQ: T.Tensor(shape, dtype)):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (qb, head, b):
            q0 = qb * block_M
            dq = T.alloc_fragment((block_M, dim), acc)
            dq_out = T.alloc_fragment((block_M, dim), dtype)
            T.copy(dQ_acc[b, q0:q0 + block_M, head, :], dq)
            T.copy(dq, dq_out)
            T.copy(dq_out, dQ[b, q0:q0 + block_M, head, :])

    return main


def ref_program(Q, K, V, is_causal):
    # mha_fwd alone: O and the base-2 log-sum-exp of each query row's scaled scores.
    q, k, v = Q.transpose(1, 2), K.transpose(1, 2), V.transpose(1, 2)  # (batch, heads, seq, dim)
    s = (q @ k.transpose(2, 3)) / Q.size(3) ** 0.5
    if is_causal:
        s = s.masked_fill(torch.tril(torch.ones(Q.size(1), Q.size(1), device=Q.device)) == 0, float("-inf"))
    return (s.softmax(dim=-1) @ v).transpose(1, 2), s.logsumexp(dim=-1) * 1.4426950408889634


def delta_ref(O, dO):
    # mha_bwd_preprocess alone: (batch, heads, seq) row sums of O * dO.
    return (O.float() * dO.float()).sum(dim=-1).transpose(1, 2)


def bwd_ref(Q, K, V, dO, is_causal, dq_convert=False):
    # The chain's final outputs dK, dV (mha_bwd_main) and dQ (mha_bwd_postprocess), by hand from
    # P = softmax(Q K^T / sqrt(dim)) in float64; with dq_convert, mha_bwd_main's dK, dV, dQ_acc,
    # dQ and its counters (back at zero).
    scale = 1.0 / Q.size(3) ** 0.5
    q, k, v, do = Q.transpose(1, 2), K.transpose(1, 2), V.transpose(1, 2), dO.transpose(1, 2)
    s = (q @ k.transpose(2, 3)) * scale
    if is_causal:
        s = s.masked_fill(torch.tril(torch.ones(Q.size(1), Q.size(1), device=Q.device)) == 0, float("-inf"))
    p = s.softmax(dim=-1)
    o = p @ v
    dv = p.transpose(2, 3) @ do
    dp = do @ v.transpose(2, 3)
    ds = p * (dp - (do * o).sum(dim=-1, keepdim=True))
    dq = (ds @ k) * scale
    dk = (ds.transpose(2, 3) @ q) * scale
    if dq_convert:
        done = torch.zeros(Q.size(0), Q.size(2), dtype=torch.int32)
        return dk.transpose(1, 2), dv.transpose(1, 2), dq.transpose(1, 2), dq.transpose(1, 2), done
    return dk.transpose(1, 2), dv.transpose(1, 2), dq.transpose(1, 2)
