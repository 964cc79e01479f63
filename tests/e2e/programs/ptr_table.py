# Pointer tables (TileLang's T.ptr): each block makes tensors of the group its table entries
# point to, copies the input group through shared memory and writes y = x * scale[g] + 1 into the
# output group. Checked on both interpreters by tests/e2e/PointerTableE2ETest.cpp.
import tilelang
import tilelang.language as T


def ptr_scale(G=3, N=64, threads=64):
    @T.prim_func
    def main(X_ptrs: T.Tensor((G,), T.ptr), Y_ptrs: T.Tensor((G,), T.ptr), scale: T.Tensor((G,), "float32")):
        with T.Kernel(G, threads=threads) as bx:
            X = T.make_tensor(X_ptrs[bx], (N,), "float16")
            Y = T.make_tensor(Y_ptrs[bx], (N,), "float32")
            X_s = T.alloc_shared((N,), "float16")
            T.copy(X, X_s)
            for i in T.Parallel(N):
                Y[i] = T.cast(X_s[i], "float32") * scale[bx] + 1.0

    return main
