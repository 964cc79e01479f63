# TileLang's dequantize helpers as a kernel calls them: T.import_source with the helper's CUDA
# text, T.call_extern(name, T.access_ptr(src, "r"), T.access_ptr(dst, "w"), N). TileScope models
# the named decoders (frontend/ElaborateExtern.h); the source text below is only a stand-in that
# names the function, as the real helper text would.
import tilelang
import tilelang.language as T

DECODERS = """
template <typename T1, typename T2>
__device__ void decode_fp4_to_bf16_twiddling(T1 *src, T2 *dst, const int N = 8);
template <typename T1, typename T2>
__device__ void decode_i4u_to_f16(T1 *src, T2 *dst, const int N = 8);
template <typename T1, typename T2>
__device__ void decode_i4s_to_f16(T1 *src, T2 *dst, const int N = 8);
template <typename T1, typename T2>
__device__ void decode_i2u_to_i8s(T1 *src, T2 *dst, const int N = 16);
template <typename T1, typename T2>
__device__ void decode_i2s_to_i8s(T1 *src, T2 *dst, const int N = 16);
"""


def decoder_name(bits, out_dtype, twiddling):
    short = {"bfloat16": "bf16", "float16": "f16"}
    name = f"decode_fp{bits}_to_{short[out_dtype]}"
    return name + ("_twiddling" if twiddling else "")


@tilelang.jit(out_idx=[-1])
def fp4_decode(G=4):
    func = decoder_name(4, "bfloat16", True)

    # Each thread decodes one group: 4 packed bytes -> 8 bfloat16 values.
    @T.prim_func
    def main(Q: T.Tensor((G * 4,), "uint8"), D: T.Tensor((G * 8,), "bfloat16")):
        with T.Kernel(1, threads=G) as bx:
            T.import_source(DECODERS)
            tx = T.get_thread_binding()
            q = T.alloc_local((4,), "uint8")
            d = T.alloc_local((8,), "bfloat16")
            for v in T.serial(4):
                q[v] = Q[tx * 4 + v]
            T.call_extern(func, T.access_ptr(q, "r"), T.access_ptr(d, "w"), 1, dtype="bfloat16")
            for v in T.serial(8):
                D[tx * 8 + v] = d[v]

    return main


@tilelang.jit(out_idx=[-1])
def i4_decode(G=4, signed=False):
    func = f"decode_i4{'s' if signed else 'u'}_to_f16"

    @T.prim_func
    def main(Q: T.Tensor((G * 4,), "int8"), D: T.Tensor((G * 8,), "float16")):
        with T.Kernel(1, threads=G) as bx:
            T.import_source(DECODERS)
            tx = T.get_thread_binding()
            q = T.alloc_local((4,), "int8")
            d = T.alloc_local((8,), "float16")
            for v in T.serial(4):
                q[v] = Q[tx * 4 + v]
            T.call_extern(func, T.access_ptr(q, "r"), T.access_ptr(d, "w"), dtype="float16")
            for v in T.serial(8):
                D[tx * 8 + v] = d[v]

    return main


@tilelang.jit(out_idx=[-2, -1])
def i2_dp4a(G=4, signed=False):
    # BitNet's form: call_extern with TVM's positional dtype ("handle", name, ...), the 16
    # decoded int8 weights then dotted with 16 int8 activations by four T.dp4a.
    func = f"decode_i2{'s' if signed else 'u'}_to_i8s"

    @T.prim_func
    def main(Q: T.Tensor((G * 4,), "int8"), A: T.Tensor((G * 16,), "int8"), D: T.Tensor((G * 16,), "int8"),
             P: T.Tensor((G,), "int32")):
        with T.Kernel(1, threads=G) as bx:
            T.import_source(DECODERS)
            tx = T.get_thread_binding()
            q = T.alloc_local((4,), "int8")
            d = T.alloc_local((16,), "int8")
            a = T.alloc_local((16,), "int8")
            acc = T.alloc_local((1,), "int32")
            for v in T.serial(4):
                q[v] = Q[tx * 4 + v]
            for v in T.serial(16):
                a[v] = A[tx * 16 + v]
            T.call_extern("handle", func, T.access_ptr(q, "r"), T.access_ptr(d, "w"))
            acc[0] = 0
            for k in T.serial(4):
                T.dp4a(a[k * 4], d[k * 4], acc[0])
            for v in T.serial(16):
                D[tx * 16 + v] = d[v]
            P[tx] = acc[0]

    return main
