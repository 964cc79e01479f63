# T.shfl_sync(value, src_lane[, width[, mask]]), TileLang's signature (mask last, unlike CUDA's
# __shfl_sync): every lane reads lane SRC of its group of W lanes, then a rotation by one lane
# inside the group (src_lane = (lane + 1) % W, with the mask given). As the corpus's warp_sync test (all lanes read
# lane 31's value), on 64 threads so two warps take part.
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[1, 2])
def shfl_broadcast(SRC=31, W=32):
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32"), C: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            tx = T.get_thread_binding()
            B[tx] = T.shfl_sync(A[tx], SRC, W)
            C[tx] = T.shfl_sync(A[tx], (tx + 1) % W, W, 0xFFFFFFFF)

    return main


def ref_program(A, SRC, W):
    lanes = A.reshape(64 // W, W)
    b = lanes[:, SRC % W : SRC % W + 1].expand(64 // W, W).reshape(64)
    c = torch.cat([lanes[:, 1:], lanes[:, :1]], dim=1).reshape(64)
    return b, c
