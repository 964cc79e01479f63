# Two warp roles of a 256-thread block (branches on the thread index), each with its own per-thread
# array of n floats: a thread runs one role, so it holds n floats, not 2n (analysis/LocalRegisters.h).
# With roles=False the same two arrays are used by every thread, one after the other: 2n.
#   Y[t] = sum_i (t + i) * trunc(16 X[i])   for every thread t (both variants compute the same;
#   integers below 2^24, so exact in float32 in any summation order: the roles=False variant sums
#   in reverse, which against a float64 reference of random real X was a 1-in-many tolerance flake)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def role_locals(n=160, roles=True):
    @T.prim_func
    def main(X: T.Tensor((n,), "float32"), Y: T.Tensor((256,), "float32")):
        with T.Kernel(1, threads=256) as (bx,):
            tx = T.get_thread_binding()
            a = T.alloc_local((n,), "float32")
            b = T.alloc_local((n,), "float32")
            s = T.alloc_var("float32")
            s = 0.0
            if roles:
                if tx < 128:
                    for i in T.unroll(n):
                        a[i] = T.cast(T.cast(X[i] * 16.0, "int32"), "float32") * (tx + i)
                    for i in T.unroll(n):
                        s += a[i]
                else:
                    for i in T.unroll(n):
                        b[i] = T.cast(T.cast(X[i] * 16.0, "int32"), "float32") * (tx + i)
                    for i in T.unroll(n):
                        s += b[i]
            else:
                for i in T.unroll(n):
                    a[i] = T.cast(T.cast(X[i] * 16.0, "int32"), "float32") * (tx + i)
                for i in T.unroll(n):
                    b[i] = a[n - 1 - i]
                for i in T.unroll(n):
                    s += b[i]
            Y[tx] = s

    return main


def ref_program(X):
    import torch
    t = torch.arange(256, dtype=X.dtype).unsqueeze(1)
    i = torch.arange(X.shape[0], dtype=X.dtype).unsqueeze(0)
    return ((t + i) * torch.trunc(X * 16.0).unsqueeze(0)).sum(dim=1)
