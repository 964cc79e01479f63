// Elaboration: source -> tile-level IR, checked through the IR printer (exact text), spans of
// the produced nodes, parameter handling, outputs, and print -> parse -> print round trips.
#include <gtest/gtest.h>

#include "compiler/frontend/Elaborator.h"
#include "compiler/frontend/LanguageRegistry.h"
#include "compiler/ir/Verifier.h"
#include "tests/unit/ElaborateTestUtil.h"

using namespace ts;
using namespace elab_test;

namespace {
const char* kGemm =
    R"(# Tiled GEMM (a frozen copy of samples/gemm.py, so that spans and text stay put).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M=512, N=512, K=512, block_M=128, block_N=128, block_K=32, dtype="float16", accum_dtype="float",
           num_stages=3, threads=128):

    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B):
    return A @ B


flops = 2 * M * N * K
bytes = (M * K + K * N + M * N) * (2 if dtype in ("float16", "bfloat16") else 4)
)";

}  // namespace

TEST(ElaborateTest, GemmSampleWithOverrides) {
    auto e = elaborateText(kGemm, {{"M", "256"}, {"N", "192"}, {"K", "128"}, {"block_N", "64"}});
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    EXPECT_EQ(e->ir,
              "@T.prim_func\n"
              "def matmul(A: T.Tensor((256, 128), \"float16\"), B: T.Tensor((128, 192), "
              "\"float16\"), C: T.Tensor((256, 192), \"float16\")):\n"
              "    with T.Kernel(3, 2, threads=128) as (bx, by):\n"
              "        A_shared = T.alloc_shared((128, 32), \"float16\")\n"
              "        B_shared = T.alloc_shared((32, 64), \"float16\")\n"
              "        C_local = T.alloc_fragment((128, 64), \"float32\")\n"
              "        T.clear(C_local)\n"
              "        for k in T.Pipelined(4, num_stages=3):\n"
              "            T.copy(A[by * 128:by * 128 + 128, k * 32:k * 32 + 32], A_shared)\n"
              "            T.copy(B[k * 32:k * 32 + 32, bx * 64:bx * 64 + 64], B_shared)\n"
              "            T.gemm(A_shared, B_shared, C_local)\n"
              "        T.copy(C_local, C[by * 128:by * 128 + 128, bx * 64:bx * 64 + 64])\n");
    EXPECT_EQ(e->result.func->outputs, std::vector<int>{2});
    ASSERT_TRUE(e->result.flops);
    EXPECT_DOUBLE_EQ(*e->result.flops, 2.0 * 256 * 192 * 128);
    EXPECT_DOUBLE_EQ(*e->result.bytes, (256.0 * 128 + 128 * 192 + 256 * 192) * 2);
    EXPECT_TRUE(ir::verify(e->result.func).empty());
}

TEST(ElaborateTest, NodesCarrySourceSpans) {
    auto e = elaborateText(kGemm);
    ASSERT_TRUE(e->result.func);
    const ir::KernelNode* k = ir::findKernel(e->result.func);
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->span.line, 16u);  // the `with T.Kernel(...)` statement
    EXPECT_EQ(k->blockVars[1]->name, "by");
    EXPECT_EQ(k->blockVars[1]->span, (Span{16, 94, 16, 96}));
    EXPECT_EQ(e->result.func->params[0]->span, (Span{12, 13, 12, 14}));  // parameter A
    std::vector<const ir::StmtNode*> ops;
    ir::walk(e->result.func->body, [&](const ir::Stmt& s) {
        if (s->kind == ir::StmtKind::TileOp || s->kind == ir::StmtKind::Alloc ||
            s->kind == ir::StmtKind::For)
            ops.push_back(s.get());
    });
    ASSERT_EQ(ops.size(), 9u);
    EXPECT_EQ(ops[0]->span, (Span{17, 24, 17, 65}));  // T.alloc_shared((block_M, block_K), dtype)
    EXPECT_EQ(ops[3]->span, (Span{20, 13, 20, 29}));  // T.clear(C_local)
    EXPECT_EQ(ops[4]->span.line, 21u);                // for k in T.Pipelined(...)
    auto* copy = static_cast<const ir::TileOpNode*>(ops[5]);
    EXPECT_EQ(copy->span, (Span{22, 17, 22, 63}));
    EXPECT_EQ(copy->region(0).span, (Span{22, 24, 22, 52}));  // A[by * block_M, k * block_K]
}

TEST(ElaborateTest, SamplesRoundTripThroughThePrinter) {
    for (const char* s : {"gemm.py", "add.py", "softmax.py"}) {
        auto first = elaborateText(readSample(s));
        ASSERT_EQ(first->firstError(), nullptr) << s << ": " << first->firstError()->message;
        auto second = elaborateText(first->ir);
        ASSERT_EQ(second->firstError(), nullptr)
            << s << ": " << second->firstError()->message << "\n"
            << first->ir;
        EXPECT_EQ(first->ir, second->ir) << s;
        EXPECT_EQ(first->result.func->outputs.size(), 1u) << s;
    }
}

TEST(ElaborateTest, MacrosStaticIfAndPythonLoopsFoldAway) {
    std::string src = R"(import tilelang
import tilelang.language as T

@T.macro
def scale(buf, factor):
    for i, j in T.Parallel(4, 8):
        buf[i, j] = buf[i, j] * factor

@tilelang.jit
def f(use_scale=True, parts=2, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((8, 8), dtype)):
        with T.Kernel(1, threads=32) as bx:
            s = T.alloc_fragment((4, 8), dtype)
            for p in range(parts) if False else [0, 1]:
                T.copy(A[p * 4, 0], s)
                if use_scale:
                    scale(s, 2)
                else:
                    T.clear(s)
                T.copy(s, A[p * 4:p * 4 + 4, :])
    return main
)";
    EXPECT_EQ(irOf(src),
              "@T.prim_func\n"
              "def f(A: T.Tensor((8, 8), \"float32\")):\n"
              "    with T.Kernel(1, threads=32) as (bx,):\n"
              "        s = T.alloc_fragment((4, 8), \"float32\")\n"
              "        T.copy(A[0:4, 0:8], s)\n"
              "        for i in T.Parallel(4):\n"
              "            for j in T.Parallel(8):\n"
              "                s[i, j] = s[i, j] * 2.0\n"
              "        T.copy(s, A[0:4, 0:8])\n"
              "        T.copy(A[4:8, 0:8], s)\n"
              "        for i in T.Parallel(4):\n"
              "            for j in T.Parallel(8):\n"
              "                s[i, j] = s[i, j] * 2.0\n"
              "        T.copy(s, A[4:8, 0:8])\n");
    std::string cleared = irOf(src, {{"use_scale", "False"}});
    EXPECT_NE(cleared.find("T.clear(s)"), std::string::npos);
    EXPECT_EQ(cleared.find("T.Parallel"), std::string::npos);
}

TEST(ElaborateTest, RunTimeIfLoopsAndScalarMath) {
    std::string src = kernel(R"(        acc = T.alloc_fragment((16, 16), "float32")
        v = T.alloc_var("float32")
        for i in range(4):
            for j in T.serial(2, 10, 4):
                if bx * 16 + i < 50 and j != 6:
                    v += T.exp2(T.cast(A[i, j], "float32")) * 0.5
                else:
                    v = T.max(v, -T.infinity("float32"))
        for u in T.unroll(2):
            for w in T.vectorized(4):
                C[u, w] = T.if_then_else(u > 0, v, A[u, w].astype("float32")) + T.float32(1)
        T.sync_threads()
        T.print(v, msg="v")
)");
    EXPECT_EQ(
        irOf(src),
        "@T.prim_func\n"
        "def k(A: T.Tensor((64, 64), \"float16\"), B: T.Tensor((64, 64), \"float16\"), C: "
        "T.Tensor((64, 64), \"float32\")):\n"
        "    with T.Kernel(2, 2, threads=128) as (bx, by):\n"
        "        acc = T.alloc_fragment((16, 16), \"float32\")\n"
        "        v = T.alloc_var(\"float32\", 0.0)\n"
        "        for i in T.serial(4):\n"
        "            for j in T.serial(2):\n"
        "                if bx * 16 + i < 50 and 2 + j * 4 != 6:\n"
        "                    v[0] = v[0] + T.exp2(T.cast(A[i, 2 + j * 4], \"float32\")) * 0.5\n"
        "                else:\n"
        "                    v[0] = T.max(v[0], -T.infinity(\"float32\"))\n"
        "        for u in T.unroll(2):\n"
        "            for w in T.vectorized(4):\n"
        "                C[u, w] = T.if_then_else(u > 0, v[0], T.cast(A[u, w], \"float32\")) + "
        "1.0\n"
        "        T.sync_threads()\n"
        "        T.print(v[0], \"v\")\n");
}

TEST(ElaborateTest, TileOpsAndRegions) {
    std::string src = R"(import tilelang.language as T
@T.prim_func
def k(X: T.Tensor((4, 128, 64), "float16"), Y: T.Tensor((128,), "float32"), W: T.Tensor((64, 32), "float16")):
    with T.Kernel(4, threads=128) as (b,):
        s = T.alloc_shared((32, 64), "float16")
        w = T.alloc_shared((64, 32), "float16")
        f = T.alloc_fragment((32, 32), "float32")
        r = T.alloc_fragment((32,), "float32")
        T.copy(X[b, 32 * b, 0], s)
        T.copy(X[b, 0:32, :], s)
        T.copy(W, w)
        T.gemm(s, w, f, transpose_B=False, policy=T.GemmWarpPolicy.FullRow, clear_accum=True, k_pack=2)
        T.gemm(w, s, f, transpose_A=True, transpose_B=True)
        T.fill(f[0:16, :], 1)
        T.reduce_max(f, r, dim=1, clear=False)
        T.reduce_sum(f, r)
        T.cumsum(r, dim=0, reverse=True)
        T.atomic_add(Y[b * 32], r)
        T.atomic_max(Y[b], r[3])
        T.copy(r, Y[b * 32:(b + 1) * 32])
        for i in T.Parallel(s.shape[0]):
            Y[i] = T.float32(s.shape[1]) + T.min(i, 3)
)";
    EXPECT_EQ(irOf(src),
              "@T.prim_func\n"
              "def k(X: T.Tensor((4, 128, 64), \"float16\"), Y: T.Tensor((128,), \"float32\"), W: "
              "T.Tensor((64, 32), \"float16\")):\n"
              "    with T.Kernel(4, threads=128) as (b,):\n"
              "        s = T.alloc_shared((32, 64), \"float16\")\n"
              "        w = T.alloc_shared((64, 32), \"float16\")\n"
              "        f = T.alloc_fragment((32, 32), \"float32\")\n"
              "        r = T.alloc_fragment((32,), \"float32\")\n"
              "        T.copy(X[b:b + 1, 32 * b:32 * b + 32, 0:64], s)\n"
              "        T.copy(X[b:b + 1, 0:32, 0:64], s)\n"
              "        T.copy(W, w)\n"
              "        T.gemm(s, w, f, clear_accum=True, k_pack=2, policy=\"FullRow\")\n"
              "        T.gemm(w, s, f, transpose_A=True, transpose_B=True)\n"
              "        T.fill(f[0:16, 0:32], 1.0)\n"
              "        T.reduce_max(f, r, dim=1, clear=False)\n"
              "        T.reduce_sum(f, r, dim=-1)\n"
              "        T.cumsum(r, r, dim=0, reverse=True)\n"
              "        T.atomic_add(Y[b * 32:b * 32 + 32], r)\n"
              "        T.atomic_max(Y[b:b + 1], r[3])\n"
              "        T.copy(r, Y[b * 32:b * 32 + 32])\n"
              "        for i in T.Parallel(32):\n"
              "            Y[i] = 64.0 + T.cast(T.min(i, 3), \"float32\")\n");
}

// T.gemm(..., wg_wait=N) (TileLang's count of wgmma groups left in flight) has no counterpart:
// TileScope places the waits itself. It was accepted silently; now a warning at the keyword
// (LANGUAGE.md §5), once per call site, and the gemm is the same as without it.
TEST(ElaborateTest, GemmWgWaitWarnsThatItHasNoEffect) {
    const std::string body = "        s = T.alloc_shared((64, 64), \"float16\")\n"
                             "        f = T.alloc_fragment((64, 64), \"float32\")\n"
                             "        for i in range(2):\n"
                             "            T.gemm(s, s, f, wg_wait=-1)\n"
                             "        T.gemm(s, s, f)\n";
    auto e = elab_test::elaborateText(elab_test::kernel(body));
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    const auto warnings = e->warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0]->message, "T.gemm: wg_wait=-1 has no effect: TileScope chooses where each wgmma is waited for");
    EXPECT_EQ(warnings[0]->hint, "remove wg_wait=; the results and the generated code are the same without it");
    EXPECT_EQ(warnings[0]->span.line, 8u);  // the kernel() prelude is 4 lines
    EXPECT_EQ(warnings[0]->span.col, 29u);  // `wg_wait`
    // The same three gemms without an attribute from it.
    auto plain = elab_test::irOf(elab_test::kernel(body));
    EXPECT_EQ(plain.find("wg_wait"), std::string::npos) << plain;
}

// An integer literal the destination's dtype cannot hold wraps as C converts it (what the CUDA
// does), with a warning at the value: TVM refuses such a literal, and it was silent (helper-118:
// T.atomic_add(int32, 3000000000), T.atomic_max(uint32, -1)). Literals that fit say nothing.
TEST(ElaborateTest, IntegerLiteralsThatWrapInAStoreOrAnAtomicWarn) {
    const std::string src = "import tilelang.language as T\n"
                            "@T.prim_func\n"
                            "def k(O: T.Tensor((32,), \"int32\"), U: T.Tensor((32,), \"uint32\")):\n"
                            "    with T.Kernel(1, threads=32) as bx:\n"
                            "        for i in T.Parallel(32):\n"
                            "            T.atomic_add(O[i], 3000000000)\n"
                            "            T.atomic_max(U[i], -1)\n"
                            "            T.atomic_add(O[i], -2147483648)\n"
                            "            U[i] = 4294967295\n"
                            "        O[0] = 2147483648\n";
    auto e = elab_test::elaborateText(src);
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    const auto w = e->warnings();
    ASSERT_EQ(w.size(), 3u);
    EXPECT_EQ(w[0]->message, "T.atomic_add value: the literal 3000000000 does not fit int32; it wraps to -1294967296 (C's conversion; TVM refuses the literal)");
    EXPECT_EQ(w[0]->span.line, 6u);
    EXPECT_EQ(w[0]->span.col, 32u);  // the literal
    EXPECT_EQ(w[1]->message, "T.atomic_max value: the literal -1 does not fit uint32; it wraps to 4294967295 (C's conversion; TVM refuses the literal)");
    EXPECT_EQ(w[2]->message, "the stored value: the literal 2147483648 does not fit int32; it wraps to -2147483648 (C's conversion; TVM refuses the literal)");
    EXPECT_EQ(w[2]->hint, "write the int32 value you mean, or give the buffer a wider dtype");
    // Floats a float dtype overflows, a float past an integer dtype, T.fill's value and uint64's
    // wrap printed unsigned (helper-119/120); 65504.0 fits float16 and says nothing.
    const std::string more = "import tilelang.language as T\n"
                             "@T.prim_func\n"
                             "def k(H: T.Tensor((32,), \"float16\"), P: T.Tensor((32,), \"int32\"), U: T.Tensor((32,), \"uint64\")):\n"
                             "    with T.Kernel(1, threads=32) as bx:\n"
                             "        S = T.alloc_fragment((32,), \"int8\")\n"
                             "        T.fill(S, 300)\n"
                             "        for i in T.Parallel(32):\n"
                             "            H[i] = 70000.0\n"
                             "            H[i] = 65504.0\n"
                             "            T.atomic_add(P[i], 2.5e10)\n"
                             "            U[i] = -1\n";
    auto m = elab_test::elaborateText(more);
    ASSERT_EQ(m->firstError(), nullptr) << m->firstError()->message;
    const auto mw = m->warnings();
    ASSERT_EQ(mw.size(), 4u);
    EXPECT_EQ(mw[0]->message, "T.fill value: the literal 300 does not fit int8; it wraps to 44 (C's conversion; TVM refuses the literal)");
    EXPECT_EQ(mw[1]->message, "the stored value: 70000.0 is outside float16's range: it becomes inf");
    EXPECT_EQ(mw[2]->message, "T.atomic_add value: 25000000000.0 is outside int32's range: converting it is undefined in C");
    EXPECT_EQ(mw[3]->message, "the stored value: the literal -1 does not fit uint64; it wraps to 18446744073709551615 (C's conversion; TVM refuses the literal)");
    // The wrapped values are what the IR stores (the CUDA's conversion).
    auto ir = elab_test::irOf(src);
    EXPECT_NE(ir.find("-1294967296"), std::string::npos) << ir;
    EXPECT_NE(ir.find("4294967295"), std::string::npos) << ir;
}

// An eager kernel whose tensors are declared in its signature (TileLang allows it; helper-119:
// "tensor 'A' is used before its declaration" for testing/ issue_1744 and language/let).
TEST(ElaborateTest, EagerKernelTensorsDeclaredInTheSignature) {
    const std::string src = "import tilelang\n"
                            "import tilelang.language as T\n"
                            "@tilelang.jit\n"
                            "def k(A: T.Tensor((64,), T.float16), B: T.Tensor((64,), T.float16), n: int = 3):\n"
                            "    with T.Kernel(1, threads=32):\n"
                            "        for i in T.serial(64):\n"
                            "            B[i] = A[i] * n\n";
    auto e = elab_test::elaborateText(src);
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    EXPECT_NE(e->ir.find("def k(A: T.Tensor((64,), \"float16\"), B: T.Tensor((64,), \"float16\")):"), std::string::npos) << e->ir;
}

// A pytest test function defining its @T.prim_func and returning nothing: that prim_func is the
// kernel (helper-119: "must return its @T.prim_func" hid the real problem, a missing T.Kernel).
TEST(ElaborateTest, ATestFunctionsPrimFuncIsItsKernel) {
    const std::string ok = "import tilelang.language as T\n"
                           "def test_k():\n"
                           "    @T.prim_func\n"
                           "    def foo(x: T.Tensor((32,), T.int32)):\n"
                           "        with T.Kernel(1, threads=32) as bx:\n"
                           "            for i in T.Parallel(32):\n"
                           "                x[i] = i\n";
    auto e = elab_test::elaborateText(ok);
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    const std::string bad = "import tilelang.language as T\n"
                            "def test_k():\n"
                            "    @T.prim_func\n"
                            "    def foo(x: T.Tensor((32,), T.int32)):\n"
                            "        pass\n";
    auto b = elab_test::elaborateText(bad);
    ASSERT_NE(b->firstError(), nullptr);
    EXPECT_EQ(b->firstError()->message, "kernel 'foo' has no 'with T.Kernel(...)' block");
}

TEST(ElaborateTest, OutputsFromOutIdxOrWrites) {
    std::string factory = R"(import tilelang
import tilelang.language as T
@tilelang.jit(out_idx=OUT)
def f(n=64):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32"), C: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(n):
                B[i] = A[i]
    return main
)";
    auto with = [&](const std::string& out) {
        std::string s = factory;
        s.replace(s.find("OUT"), 3, out);
        return elaborateText(s);
    };
    auto last = with("[-1]");
    ASSERT_TRUE(last->result.func) << last->firstError()->message;
    EXPECT_EQ(last->result.func->outputs, std::vector<int>{2});
    EXPECT_EQ(with("[0, -2]")->result.func->outputs, (std::vector<int>{0, 1}));
    EXPECT_EQ(with("None")->result.func->outputs, std::vector<int>{1});  // written tensors
    auto bad = with("[3]");
    ASSERT_NE(bad->firstError(), nullptr);
    EXPECT_EQ(bad->firstError()->message, "out_idx 3 is out of range for 3 tensor parameters");
}

TEST(ElaborateTest, WrittenOutputsIndexTensorsWhenScalarsFollow) {
    // Fuzz finding (ASan heap overflow): output detection walked the signature (tensors and
    // scalars) but indexed the tensor list. Tensor, scalar, tensor: the written outputs are the
    // tensor indices {0, 1}, never past the two tensors.
    auto e = elaborateText(R"(import tilelang
import tilelang.language as T
@tilelang.jit
def f(n=64):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), s: T.float32, B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(n):
                A[i] += s
                B[i] = A[i]
    return main
)");
    ASSERT_TRUE(e->result.func) << e->firstError()->message;
    EXPECT_EQ(e->result.func->outputs, (std::vector<int>{0, 1}));
    EXPECT_EQ(e->result.func->params.size(), 2u);
}

TEST(ElaborateTest, EagerKernel) {
    std::string src = R"(import tilelang
import tilelang.language as T

@tilelang.jit
def matmul(A, B, block_M: int = 64, block_N: int = 64, dtype: T.dtype = T.float16):
    M, N, K = T.const("M, N, K")
    A: T.Tensor((M, K), dtype)
    B: T.Tensor((K, N), dtype)
    C = T.empty((M, N), dtype)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        acc = T.alloc_fragment((block_M, block_N), "float32")
        T.clear(acc)
        T.copy(acc, C[by * block_M, bx * block_N])
    return C
)";
    auto e = elaborateText(src, {{"M", "128"}, {"N", "256"}, {"K", "32"}});
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    EXPECT_EQ(e->ir,
              "@T.prim_func\n"
              "def matmul(A: T.Tensor((128, 32), \"float16\"), B: T.Tensor((32, 256), "
              "\"float16\"), C: T.Tensor((128, 256), \"float16\")):\n"
              "    with T.Kernel(4, 2, threads=128) as (bx, by):\n"
              "        acc = T.alloc_fragment((64, 64), \"float32\")\n"
              "        T.clear(acc)\n"
              "        T.copy(acc, C[by * 64:by * 64 + 64, bx * 64:bx * 64 + 64])\n");
    EXPECT_EQ(e->result.func->outputs, std::vector<int>{2});
    auto missing = elaborateText(src, {{"M", "128"}, {"N", "256"}});
    ASSERT_NE(missing->firstError(), nullptr);
    EXPECT_EQ(missing->firstError()->message, "size 'K' (T.const) of 'matmul' has no value");
}

// A factory called only from code the front end does not run (an autograd function, a
// benchmark's main) has many parameters without a value: one error each, and one warning with
// the command line that gives them all (helper-108: 18 errors, 18 separate hints).
TEST(ElaborateTest, MissingParametersGetOneLineThatGivesThemAll) {
    const std::string src = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def copy(M, N, block):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(M, block), threads=128) as bx:
            T.copy(A[bx * block, 0], B[bx * block, 0])

    return main
)";
    auto e = elaborateText(src, {{"N", "64"}});
    int errors = 0;
    const ts::Diagnostic* all = nullptr;
    for (const auto& d : e->diags.all()) {
        errors += d.severity == ts::Severity::Error;
        if (d.severity == ts::Severity::Warning) all = &d;
    }
    EXPECT_EQ(errors, 2);
    ASSERT_NE(all, nullptr);
    EXPECT_EQ(all->message, "2 parameters of 'copy' have no value");
    EXPECT_EQ(all->hint, "pass them all: --param M=<value> --param block=<value>");
    auto one = elaborateText(src, {{"N", "64"}, {"block", "64"}});
    for (const auto& d : one->diags.all()) EXPECT_NE(d.severity, ts::Severity::Warning) << d.message;  // one missing: its error says it
}

TEST(ElaborateTest, AutotuneParametersComeFromTheFirstConfig) {
    std::string src = R"(import tilelang
import tilelang.language as T
from tilelang.autotuner import autotune

def configs():
    return [{"block": b, "threads": t} for b in [32, 64] for t in [64, 128]]

@autotune(configs=configs())
@tilelang.jit(out_idx=[-1])
def f(n=256, block=None, threads=None):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=threads) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i]
    return main
)";
    auto e = elaborateText(src);
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    EXPECT_NE(e->ir.find("with T.Kernel(8, threads=64) as (bx,):"), std::string::npos) << e->ir;
    auto o = elaborateText(src, {{"block", "128"}});
    EXPECT_NE(o->ir.find("with T.Kernel(2, threads=64)"), std::string::npos) << o->ir;
}

TEST(ElaborateTest, EveryRegisteredNameExistsInT) {
    DiagnosticEngine d;
    auto mod = fe::Module::analyze(
        std::make_shared<SourceFile>(
            "x.py", "import tilelang.language as T\n@T.prim_func\ndef k():\n    pass\n"),
        d);
    fe::elab::Elaborator el(d, *mod);
    auto T = el.module("tilelang.language");
    for (const auto& e : fe::kLanguage)
        EXPECT_NE(T->find(std::string(e.name)), nullptr) << "T." << e.name;
}

TEST(ElaborateTest, AllocVarStoresAndMacroReuse) {
    std::string src = kernel(R"(        acc(C, A[0, 0])
        acc(C, A[1, 1])
)",
                             R"(@T.macro
def acc(out, x):
    s = T.alloc_var("float32", 1)
    s = s * x
    out[0, 0] = s
)");
    EXPECT_EQ(irOf(src),
              "@T.prim_func\n"
              "def k(A: T.Tensor((64, 64), \"float16\"), B: T.Tensor((64, 64), \"float16\"), C: "
              "T.Tensor((64, 64), \"float32\")):\n"
              "    with T.Kernel(2, 2, threads=128) as (bx, by):\n"
              "        s = T.alloc_var(\"float32\", 1.0)\n"
              "        s[0] = s[0] * T.cast(A[0, 0], \"float32\")\n"
              "        C[0, 0] = s[0]\n"
              "        s_1 = T.alloc_var(\"float32\", 1.0)\n"
              "        s_1[0] = s_1[0] * T.cast(A[1, 1], \"float32\")\n"
              "        C[0, 0] = s_1[0]\n");
}

TEST(ElaborateTest, PipelinedAttributesAndRanges) {
    std::string src =
        kernel(R"(        for k in T.Pipelined(2, 10, num_stages=2, order=[1, 0], stage=[0, 1]):
            C[k, 0] = 0
        for k in T.Pipelined(bx * 4):
            C[k, 1] = 0
)");
    std::string ir = irOf(src);
    EXPECT_NE(ir.find("for k in T.Pipelined(2, 10, num_stages=2, order=[1, 0], stage=[0, 1]):"),
              std::string::npos)
        << ir;
    EXPECT_NE(ir.find("for k in T.Pipelined(bx * 4):"), std::string::npos) << ir;
}

// Files with several kernels count each kernel's work in its own factory (`total_flops = ...`
// among the factory's statements), else with the file's module-level site: the preprocess and
// the main kernel of one file report different flops.
TEST(ElaborateTest, EachFactoryMayCountItsOwnWork) {
    const char* text = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale(M=64, N=32):
    total_flops = M * N
    total_bytes = 2 * M * N * 4

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            for i, j in T.Parallel(M, N):
                B[i, j] = A[i, j] * 2.0

    return main


@tilelang.jit(out_idx=[-1])
def square(M=64, N=32):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            for i, j in T.Parallel(M, N):
                B[i, j] = A[i, j] * A[i, j]

    return main


def total_flops(M, N):
    return 3 * M * N
)";
    for (auto [kernel, flops, bytes] : {std::tuple{"scale", 16.0 * 32, 2.0 * 16 * 32 * 4},
                                        std::tuple{"square", 3.0 * 16 * 32, -1.0}}) {
        ts::DiagnosticEngine diags;
        auto r = ts::fe::runFrontend(std::make_shared<ts::SourceFile>("k.py", text),
                                     {{"M", "16"}}, diags, kernel);
        ASSERT_TRUE(r.func) << kernel;
        ASSERT_TRUE(r.flops) << kernel;
        EXPECT_DOUBLE_EQ(*r.flops, flops) << kernel;
        if (bytes < 0)
            EXPECT_FALSE(r.bytes) << kernel << ": no byte count of its own, none in the file";
        else
            EXPECT_DOUBLE_EQ(r.bytes.value_or(0), bytes) << kernel;
    }
}

// `with T.Kernel(threads=16):` (TileLang's debug tests) is one block; `tilelang.disable_cache()` at
// module level is accepted (TileScope's cache keys on the generated code). T.isnan/isinf/isfinite
// of numbers fold; of an integer expression they are constants.
TEST(ElaborateTest, KernelWithoutGridIsOneBlockAndFloatClassesFold) {
    const std::string src = "import tilelang\n"
                            "import tilelang.language as T\n"
                            "tilelang.disable_cache()\n"
                            "@T.prim_func\n"
                            "def k(A: T.Tensor((4,), \"float32\"), I: T.Tensor((4,), \"int32\")):\n"
                            "    with T.Kernel(threads=16):\n"
                            "        A[0] = T.if_then_else(T.isnan(float('nan')), 1.0, 2.0)\n"
                            "        A[1] = T.if_then_else(T.isfinite(1e300), 3.0, 4.0)\n"
                            "        A[2] = T.if_then_else(T.isinf(I[0]), 5.0, 6.0)\n"
                            "        A[3] = T.if_then_else(T.isnan(A[3]), 7.0, 8.0)\n";
    EXPECT_EQ(irOf(src),
              "@T.prim_func\n"
              "def k(A: T.Tensor((4,), \"float32\"), I: T.Tensor((4,), \"int32\")):\n"
              "    with T.Kernel(1, threads=16) as (bx,):\n"
              "        A[0] = 1.0\n"
              "        A[1] = 3.0\n"
              "        A[2] = 6.0\n"
              "        A[3] = T.if_then_else(A[3] != A[3], 7.0, 8.0)\n");
}
