# T.dp4a takes int8 lanes into an int32 accumulator (TileLang's rule): a float16 operand is refused
# at the call, naming the buffer and its dtype.
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((16,), "float16"), B: T.Tensor((16,), "int8"), C: T.Tensor((1,), "int32")):
    with T.Kernel(1, threads=1) as (bx,):
        a = T.alloc_local((16,), "float16")
        b = T.alloc_local((16,), "int8")
        acc = T.alloc_local((1,), "int32")
        acc[0] = 0
        for k in T.serial(4):
            T.dp4a(a[k * 4], b[k * 4], acc[0])  # expect-error(col 20): T.dp4a: A 'a' is float16, dp4a takes int8
            # expect-hint: int8 A and B, an int32 accumulator C
        C[0] = acc[0]
