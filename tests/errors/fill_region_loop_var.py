# A region whose start is a loop variable: `buf[k * 24 : k * 24 + 32]` is in bounds for k = 0
# and 1 but reaches element 80 of a 72-element shared tile for k = 2 (issue 14: this compiled
# and faulted on the H200 with an illegal address).
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((96,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        buf = T.alloc_shared((72,), "float32")
        for k in T.serial(3):
            T.fill(buf[k * 24 : k * 24 + 32], 1.0)  # expect-error: T.fill: region of 'buf' is out of bounds in dimension 0: start k * 24 ranges over [0, 48]
        T.copy(buf, A[0:72])
