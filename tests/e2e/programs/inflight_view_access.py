# The fused "normalise, then GEMM" loop of samples/rmsnorm_matmul.py, reduced: per K tile k,
# X_k is loaded, doubled in registers and stored into the shared A tile Xg_s, then C += Xg_s @ W_k
# (a fragment-path wgmma on sm_90a). With num_stages >= 3 inject-pipeline may keep each
# iteration's wgmma in flight while the next iteration loads and stores
# (InjectPipelineWgmmaGeneric.cpp): Xg_s gets two copies, and the statements before the gemm run
# beside the previous wgmma. They must touch neither its accumulator nor its operand tiles'
# bytes -- also not through a view:
#   mode 0: nothing else in the loop: the in-flight schedule applies
#   mode 1: Snap = C before the last tile's gemm, read through Cv = T.reshape(C, ...) (a view of
#           the accumulator's registers; PTX: not accessible while the wgmma is in flight, and
#           ptxas serialised every wgmma of the kernel)
#   mode 2: each iteration first uses Xg_s's bytes as float32 scratch (T.view): D_k goes through
#           it, transposed, into Total (the view lies on the first of Xg_s's two copies, which the
#           previous wgmma may still be reading)
# (Compared by buffer, modes 1 and 2 kept the in-flight schedule.)
#   Y = 2 X @ W,  Snap = Y minus the last tile's product (mode 1),  Total = sum_k D_k^T (mode 2)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4, 5])
def inflight_view_access(T_tiles=4, num_stages=3, threads=128, mode=0):
    M, N, K = 64, 64, 32

    @T.prim_func
    def main(
        X: T.Tensor((M, T_tiles * K), "float16"),
        W: T.Tensor((T_tiles * K, N), "float16"),
        D: T.Tensor((T_tiles * 32, 32), "float32"),
        Y: T.Tensor((M, N), "float32"),
        Snap: T.Tensor((M, N), "float32"),
        Total: T.Tensor((32, 32), "float32"),
    ):
        with T.Kernel(1, threads=threads) as bx:
            X_s = T.alloc_shared((M, K), "float16")
            Xg_s = T.alloc_shared((M, K), "float16")
            W_s = T.alloc_shared((K, N), "float16")
            xg = T.alloc_fragment((M, K), "float16")
            C = T.alloc_fragment((M, N), "float32")
            snap = T.alloc_fragment((M, N), "float32")
            total = T.alloc_fragment((32, 32), "float32")
            T.clear(C)
            T.clear(snap)
            T.clear(total)
            for k in T.Pipelined(T_tiles, num_stages=num_stages):
                T.copy(X[0, k * K], X_s)
                T.copy(W[k * K, 0], W_s)
                if mode == 2:
                    scratch = T.view(Xg_s, shape=[32, 32], dtype="float32")
                    for i, j in T.Parallel(32, 32):
                        scratch[i, j] = D[k * 32 + i, j]
                    for i, j in T.Parallel(32, 32):
                        total[i, j] += scratch[j, i]
                T.copy(X_s, xg)
                for i, kk in T.Parallel(M, K):
                    xg[i, kk] = xg[i, kk] * 2
                T.copy(xg, Xg_s)
                if mode == 1:
                    Cv = T.reshape(C, [M, N])
                    for i, j in T.Parallel(M, N):
                        snap[i, j] = Cv[i, j]
                T.gemm(Xg_s, W_s, C, policy=T.GemmWarpPolicy.FullRow)
            T.copy(C, Y)
            T.copy(snap, Snap)
            T.copy(total, Total)

    return main


def ref_program(X, W, D, T_tiles=4, num_stages=3, threads=128, mode=0):
    K = 32
    y = 2 * X.double() @ W.double()
    last = 2 * X[:, (T_tiles - 1) * K :].double() @ W[(T_tiles - 1) * K :].double()
    snap = y - last if mode == 1 else 0 * y
    total = sum(D[t * 32 : (t + 1) * 32].double().T for t in range(T_tiles))
    return y.float(), snap.float(), (total if mode == 2 else 0 * total).float()
