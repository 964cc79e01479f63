# Autotune drivers beside a kernel, in the shapes of TileLang's gemm autotune examples (written
# anew here): `get_best_config` builds an AutoTuner over its nested tunable `kernel` and returns
# the tuner's run() result; `build_tuner` returns (autotuner, configs, kernel); `tune_and_time`
# only runs the tuner `build_tuner` builds. None of them is a kernel: `tilec kernels` lists the
# three as autotune drivers (each compiled as its tuned kernel at the first config: block_M=16,
# threads=64), `tune_and_time` also under `build_tuner`; `scale` is the kernel.
import tilelang
import tilelang.language as T
from tilelang.autotuner import AutoTuner


def get_configs():
    return [{"block_M": bm, "threads": th} for bm in [16, 32] for th in [64, 128]]


@tilelang.jit(out_idx=[-1])
def scale(M=64, N=32, block_M=32):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            for i, j in T.Parallel(block_M, N):
                B[bx * block_M + i, j] = A[bx * block_M + i, j] * 2.0

    return main


def get_best_config(M=64, N=32):
    def kernel(block_M=None, threads=None):
        @T.prim_func
        def plus_one(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
            with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
                for i, j in T.Parallel(block_M, N):
                    B[bx * block_M + i, j] = A[bx * block_M + i, j] + 1.0

        return plus_one

    autotuner = AutoTuner.from_kernel(kernel=kernel, configs=get_configs()).set_compile_args(out_idx=[-1])
    return autotuner.run(warmup=3, rep=20)


def build_tuner(M=96, N=32):
    def kernel(block_M=None, threads=None):
        @T.prim_func
        def times_three(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
            with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
                for i, j in T.Parallel(block_M, N):
                    B[bx * block_M + i, j] = A[bx * block_M + i, j] * 3.0

        return times_three

    configs = get_configs()
    autotuner = AutoTuner.from_kernel(kernel=kernel, configs=configs).set_compile_args(out_idx=[-1])
    return autotuner, configs, kernel


def tune_and_time(M=96, N=32, warmup=3):
    autotuner, _, _ = build_tuner(M, N)
    result = autotuner.run(warmup=warmup, rep=20)
    return result


def ref_program(A):
    return A * 2.0


def ref_plus_one(A):
    return A + 1.0


def ref_times_three(A):
    return A * 3.0
