# TileLang's vector atomic: T.atomic_addx4(dst[i, 4j], src[i, 4j]) adds 4 consecutive elements.
# Two blocks each add the tile A (staged through shared memory) into D, which starts at zero.
import tilelang
import tilelang.language as T


@tilelang.jit
def addx4(M=8, N=32, blocks=2):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), D: T.Tensor((M, N), "float32")):
        with T.Kernel(blocks, threads=128) as bx:
            S = T.alloc_shared((M, N), "float32")
            T.copy(A, S)
            for i, j in T.Parallel(M, N // 4):
                T.atomic_addx4(D[i, j * 4], S[i, j * 4])

    return main


def ref_program(A):
    return A * 2
