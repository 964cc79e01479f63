# A T.Fragment written out equal to the mma.sync m16n8k16 accumulator (PTX ISA §9.7.14.5.8,
# warps 2x2): recognised as that family, so T.gemm accepts it and the epilogue stores pairs.
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 32), "float16"), B: T.Tensor((32, 64), "float16"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        A_shared = T.alloc_shared((64, 32), "float16")
        B_shared = T.alloc_shared((32, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        T.annotate_layout({acc: T.Fragment((64, 64),
            forward_thread_fn=lambda i, j: ((i // 32) * 2 + j // 32) * 32 + (i % 8) * 4 + (j % 8) // 2,
            forward_index_fn=lambda i, j: (((i % 32) // 16) * 4 + (j % 32) // 8) * 4 + ((i % 16) // 8) * 2 + j % 2)})
        T.clear(acc)
        T.copy(A, A_shared)
        T.copy(B, B_shared)
        T.gemm(A_shared, B_shared, acc)
        T.copy(acc, C)

def ref_program(A, B):
    return A.float() @ B.float()
