# Out-of-bounds reads whose index comes from the kernel's arguments: the interpreters' error
# says which argument to change and how (ParallelStoreOobE2ETest.HintNamesTheArgumentsInTheIndex).
#   shifted_read: A[i + off] with `off: T.int32` passed by value: --param off=VALUE.
#   gather:       A[idx[i]] with idx an int32 input tensor: --input idx=RULE.
# With valid arguments (--param off=0; --input idx=int:0:63) both compute and match float64.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def shifted_read(N=64, block=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32"), off: T.int32):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i + off]

    return main


@tilelang.jit(out_idx=[2])
def gather(N=64, block=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), idx: T.Tensor((N,), "int32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[idx[bx * block + i]] * 2.0

    return main


def ref_program(A, off):
    # Every off but 0 reads past one end of A (the block covers the whole tensor).
    return A + 0.0 * off


def gather_ref(A, idx):
    return A[idx.long()] * 2.0
