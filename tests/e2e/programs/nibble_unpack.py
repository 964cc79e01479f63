# Meta-level helpers in the style of TileLang's tilelang.quantize modules: TVM's C dtype names
# (T.int, T.uint, "uint" -> uint32), typed constants from tvm.tirx.const, and a nibble unpacker
# returned by a closure. The reference unpacks with torch's & and >>.
import torch
import tilelang
import tilelang.language as T
from tilelang import tvm as tvm
from tvm import tirx


def packed_to_unsigned(storage_dtype):
    def f_convert(nbit: int, val: tirx.PrimExpr, pos: tirx.PrimExpr, dtype: str):
        assert val.dtype == storage_dtype
        mask = tvm.tirx.const((1 << nbit) - 1, storage_dtype)
        return ((val >> (pos * nbit).astype(storage_dtype)) & mask).astype(dtype)

    return f_convert


@tilelang.jit(out_idx=[1])
def nibble_unpack(M=8, N=32, source_format="uint", out_dtype="float16", threads=64):
    assert T.dtype(source_format) in [T.int, T.uint]
    assert T.dtype(source_format) == T.uint32 and T.int == "int32"
    convert = packed_to_unsigned("uint8")

    @T.prim_func
    def main(B: T.Tensor((M, N // 2), "uint8"), D: T.Tensor((M, N), out_dtype)):
        with T.Kernel(M, threads=threads) as bx:
            for j in T.Parallel(N):
                D[bx, j] = convert(4, B[bx, j // 2], j % 2, out_dtype)

    return main


def ref_program(B):
    return torch.stack((B & 0x0F, B >> 4), dim=-1).reshape(B.shape[0], B.shape[1] * 2).to(torch.half)
