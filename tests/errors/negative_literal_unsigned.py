import tilelang.language as T


# `u > -1` with a uint32 u: C reads -1 as 4294967295 (false for every u), Python as -1 (true):
# the interpreters and the generated CUDA disagreed, so the literal is refused (as TVM refuses a
# negative unsigned IntImm).
@T.prim_func
def main(U: T.Tensor((64,), "uint32"), B: T.Tensor((64,), "int32")):
    with T.Kernel(1, threads=64) as bx:
        for i in T.Parallel(64):
            B[i] = T.if_then_else(U[i] > -1, 1, 0)  # expect-error: the literal -1 beside a uint32 value: uint32 has no negative values
            # expect-hint: compute in a signed type
