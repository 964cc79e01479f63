# T.reinterpret (a bit cast, TileLang's tir.reinterpret with the value first) inside helper
# functions, as TileLang's DeepSeek-V4 fp8 activation quantization rounds its scale to a power
# of two: the IEEE-754 exponent field of a float32 read through its uint32 bits, 2**e built
# from the bits (e + 127) << 23, and |x| by clearing the sign bit.
import tilelang
import tilelang.language as T


def exponent_of(x):
    bits = T.reinterpret(x, "uint32")
    return T.Cast("int32", (bits >> 23) & 0xFF) - 127


def pow2(e):
    return T.reinterpret((e + 127) << 23, "float32")


def magnitude(x):
    # the older TVM order (dtype first) is accepted too
    return T.reinterpret("float32", T.reinterpret(x, "uint32") & 0x7FFFFFFF)


@tilelang.jit(out_idx=[1, 2, 3])
def float_bits(N=300, block=128, threads=128):
    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), E: T.Tensor((N,), "int32"),
             P: T.Tensor((N,), "float32"), A: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=threads) as bx:
            for i in T.Parallel(block):
                if bx * block + i < N:
                    x = X[bx * block + i]
                    E[bx * block + i] = exponent_of(x)
                    P[bx * block + i] = pow2(exponent_of(x))
                    A[bx * block + i] = magnitude(x)

    return main


def ref_program(X):
    e = torch.floor(torch.log2(torch.abs(X)))
    return e, torch.exp2(e), torch.abs(X)
