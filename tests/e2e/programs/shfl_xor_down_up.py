# T.shfl_xor / T.shfl_down / T.shfl_up (TileLang's (value, delta, width=32, mask=0xFFFFFFFF);
# CUDA's __shfl_xor_sync / __shfl_down_sync / __shfl_up_sync): lane l of a group of W lanes reads
# lane l ^ DELTA, l + DELTA, l - DELTA; a source past the end of the group (xor, down) or before
# its start (up) leaves the lane its own value, and xor may read an earlier group (DELTA >= W).
# 64 threads: two warps take part.
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[1, 2, 3])
def shfl_modes(DELTA=1, W=32):
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), X: T.Tensor((64,), "float32"), D: T.Tensor((64,), "float32"),
             U: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            tx = T.get_thread_binding()
            X[tx] = T.shfl_xor(A[tx], DELTA, W)
            D[tx] = T.shfl_down(A[tx], DELTA, width=W)
            U[tx] = T.shfl_up(A[tx], DELTA, W, 0xFFFFFFFF)

    return main


def ref_program(A, DELTA, W):
    lane = torch.arange(64) % 32
    base = torch.arange(64) - lane
    first = lane // W * W
    last = first + W - 1
    xor = torch.bitwise_xor(lane, DELTA)
    down = lane + DELTA
    up = lane - DELTA
    x = torch.gather(A, 0, torch.where(xor <= last, base + xor, base + lane))
    d = torch.gather(A, 0, torch.where(down <= last, base + down, base + lane))
    u = torch.gather(A, 0, torch.where(up >= first, base + up, base + lane))
    return x, d, u
