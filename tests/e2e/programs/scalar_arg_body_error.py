# A kernel with a scalar argument (n) and an error in its body (a negative T.serial step): with
# --param n=7 the error reported is the body's, not "unknown parameter 'n'" (helper-114: the
# scalar arguments are known only after elaboration, which the error stopped).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scalar_arg_body_error(M=4):
    @T.prim_func
    def main(n: T.int32, B: T.Tensor((M,), "int32")):
        with T.Kernel(1, threads=4) as bx:
            for i in T.Parallel(M):
                a = T.alloc_var("int32")
                a = 0
                for k in T.serial(10, 0, -1):
                    a += k + n
                B[i] = a

    return main
