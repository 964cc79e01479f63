import tilelang.language as T


# A tensor of 2^62 float16 has 2^63 bytes: the byte comparison of a view against it overflowed
# int64 (fuzz_pipeline, helper-118) and the message said 'W' had 0 bytes.
@T.prim_func
def main(W: T.Tensor((4611686018427387904,), "float16"), B: T.Tensor((64,), "int16")):
    with T.Kernel(1, threads=32) as bx:
        V = T.view(W, (64,), dtype="int16")  # expect-error: T.view: the view has 128 bytes (64 int16) but 'W' has 9223372036854775808 (4611686018427387904 float16)
        for i in T.serial(64):
            B[i] = V[i]
