import tilelang
import tilelang.language as T


# prefer_instruction="tma" with TMA disabled (here through annotations=, which take precedence
# over the keywords as in TileLang's copy_op.py) is TileLang's error too.
@tilelang.jit
def k(M=128, N=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), T.float32), B: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=128) as bx:
            s = T.alloc_shared((M, N), T.float32)
            T.copy(A, s, annotations={"disable_tma": True}, prefer_instruction="tma")  # expect-error(col 61): T.copy: prefer_instruction="tma" conflicts with disable_tma=True
            T.copy(s, B)

    return main
