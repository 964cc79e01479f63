# A 2-D convolution (NHWC image, KH x KW x C x F filter) as an implicit GEMM, in the form of
# TileLang's convolution examples: T.im2col loads a tile of the image's im2col matrix, the
# filter is read through a flattened view (T.Tensor(shape, dtype, kernel.data)) and the result
# written through one of the output. The e2e test computes the convolution in float64.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def conv(N=2, C=32, H=6, W=5, F=16, K=3, S=1, D=1, P=1, block_M=32, block_N=16, block_K=32,
         threads=128):
    KH, KW = K, K
    OH = (H + 2 * P - D * (K - 1) - 1) // S + 1
    OW = (W + 2 * P - D * (K - 1) - 1) // S + 1

    @T.prim_func
    def main(data: T.Tensor((N, H, W, C), "float16"), kernel: T.Tensor((KH, KW, C, F), "float16"),
             out: T.Tensor((N, OH, OW, F), "float16")):
        with T.Kernel(T.ceildiv(F, block_N), T.ceildiv(N * OH * OW, block_M), threads=threads) as (bx, by):
            data_shared = T.alloc_shared((block_M, block_K), "float16")
            kernel_shared = T.alloc_shared((block_K, block_N), "float16")
            out_local = T.alloc_fragment((block_M, block_N), "float")
            out_shared = T.alloc_shared((block_M, block_N), "float16")
            kernel_flat = T.Tensor((KH * KW * C, F), "float16", kernel.data)
            out_flat = T.Tensor((N * OH * OW, F), "float16", out.data)
            T.clear(out_local)
            for k_iter in T.Pipelined(T.ceildiv(KH * KW * C, block_K), num_stages=2):
                T.im2col(data, data_shared, by, k_iter, KH, S, D, P)
                T.copy(kernel_flat[k_iter * block_K, bx * block_N], kernel_shared)
                T.gemm(data_shared, kernel_shared, out_local)
            T.copy(out_local, out_shared)
            T.copy(out_shared, out_flat[by * block_M, bx * block_N])

    return main
