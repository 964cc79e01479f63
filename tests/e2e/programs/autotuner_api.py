# TileLang's programmatic autotuner: factories that build AutoTuner.from_kernel(kernel=...,
# configs=...) with chained set_compile_args / set_profile_args, return it (`tuner`), return
# its run() result (`tuned`), return it inside a tuple (`tuner_tuple`), or return only the
# tunable function that the file tunes elsewhere (`make_tunable`). TileScope compiles each at the
# FIRST config (block_M=32, threads=64 here); the others would give other grids.
import itertools

import tilelang
import tilelang.language as T
from tilelang.autotuner import AutoTuner

M, N = 96, 48


def get_configs():
    return [{"block_M": bm, "threads": th} for bm, th in itertools.product([32, 16], [64, 128])]


def make_tunable():
    def kernel(block_M=None, threads=None):
        @T.prim_func
        def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32"),
                 C: T.Tensor((M, N), "float32")):
            with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
                for i, j in T.Parallel(block_M, N):
                    C[bx * block_M + i, j] = A[bx * block_M + i, j] + 2.0 * B[bx * block_M + i, j]

        return main

    return kernel


def tuner(scale=1):
    configs = get_configs()
    return AutoTuner.from_kernel(kernel=make_tunable(), configs=configs).set_compile_args(
        out_idx=[-1], target="auto").set_profile_args(supply_type=tilelang.TensorSupplyType.Auto,
                                                      ref_prog=ref_program)


def tuned(scale=1):
    return tuner(scale).run(warmup=3, rep=20)


def tuner_tuple(scale=1):
    configs = get_configs()
    t = AutoTuner.from_kernel(kernel=make_tunable(), configs=configs)
    return t, configs, make_tunable()


def ref_program(A, B):
    return A + 2.0 * B


def tune_api():
    configs = get_configs()
    for early_stop in [False, True]:
        autotuner = AutoTuner.from_kernel(kernel=make_tunable(), configs=configs)
        result = autotuner.run(warmup=5, rep=50, early_stop=early_stop)
        print(result.config)
