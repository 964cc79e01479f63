# `break` and `continue` at run time in a T.serial loop (TileLang's top-k selector leaves its
# refinement rounds with `if l_new_topk <= 0: break`): per row, the sum and count of the
# non-negative values up to and including the one that takes the sum past `limit`.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def prefix_until(M=4, N=40, limit=3.0, threads=32):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), S: T.Tensor((M,), "float32"),
             C: T.Tensor((M,), "int32")):
        with T.Kernel(M, threads=threads) as bx:
            acc = T.alloc_var("float32")
            cnt = T.alloc_var("int32")
            acc = 0.0
            cnt = 0
            for k in T.serial(N):
                if X[bx, k] < 0:
                    continue
                acc += X[bx, k]
                cnt += 1
                if acc > limit:
                    break
            S[bx] = acc
            C[bx] = cnt

    return main


def ref_program(X, limit):
    p = torch.clamp(X, min=0.0)
    before = torch.cumsum(p, -1) - p
    taken = (X >= 0) & (before <= limit)
    return torch.where(taken, p, 0.0).sum(-1), taken.float().sum(-1)
