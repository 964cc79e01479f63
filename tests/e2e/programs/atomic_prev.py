# Histogram with slots: every element adds 1 to its bin with T.atomic_add(..., return_prev=True)
# and stores the count it saw, so Slot holds, per bin, each of 0 .. count-1 exactly once (in an
# order the execution chooses) and Hist the bin counts. `mode` "global" counts in the output
# directly (it must start at zero), "shared" in a shared-memory histogram per block that is then
# added to the output with a region atomic.
import tilelang
import tilelang.language as T


@tilelang.jit
def hist(N=1024, bins=16, block=256, mode="global"):
    @T.prim_func
    def main(X: T.Tensor((N,), T.int32), Hist: T.Tensor((bins,), T.int32),
             Slot: T.Tensor((N,), T.int32)):
        with T.Kernel(T.ceildiv(N, block), threads=128) as bx:
            if mode == "global":
                for i in T.Parallel(block):
                    pos = T.atomic_add(Hist[X[bx * block + i] % bins], 1, return_prev=True)
                    Slot[bx * block + i] = pos
            else:
                h = T.alloc_shared((bins,), T.int32)
                T.fill(h, 0)
                for i in T.Parallel(block):
                    pos = T.atomic_add(h[X[bx * block + i] % bins], 1, return_prev=True)
                    Slot[bx * block + i] = pos
                T.atomic_add(Hist[0:bins], h)

    return main
