// T.atomic_add/max/min(..., memory_order=...) end to end, without a GPU:
// - tests/e2e/programs/atomic_memory_order.py (column sums finished by the last block to take a
//   ticket with an ordered return_prev atomic, then the counter put back with a release add):
//   acc, the counter (back at zero) and Y, which only the last block writes (NaN otherwise),
//   match the float64 sums on both interpreters, for acq_rel, seq_cst and consume, at a row
//   count that fills the blocks and one that does not;
// - the CUDA holds one ordered `atom` per ordered atomic (ts::atomic_add_ordered with the order;
//   consume becomes acquire, relaxed stays the plain atomicAdd) and compiles with NVRTC for sm_80
//   and sm_90a (each order its own inline atom.<sem>.gpu, PTX ISA 9.7.13.5); the HIP holds the same calls and
//   compiles with hiprtc for gfx90a where hiprtc is installed;
// - the last block's converting copy (float32 acc -> float16 Y) is 4 elements per thread, one
//   vector load and one vector store.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Printer.h"
#include "profiler/cuda/Nvrtc.h"
#include "profiler/hip/Hiprtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/InlineProgram.h"

namespace {

ts::CompileResult compileOrder(const std::string& order, const std::string& target = "cuda:sm_80", int rows = 300) {
    return ts::e2e::compileRepoFile("tests/e2e/programs/atomic_memory_order.py",
                                    {{"order", "\"" + order + "\""}, {"rows", std::to_string(rows)}}, target);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(AtomicMemoryOrder, LastBlockFinishesTheSumsOnBothInterpreters) {
    for (const char* order : {"acq_rel", "seq_cst", "consume"})
        for (int rows : {300, 320}) {
            auto r = compileOrder(order, "cuda:sm_80", rows);
            ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
            ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(
                r, std::string("order ") + order + " rows " + std::to_string(rows)));
        }
}

TEST(AtomicMemoryOrder, CudaHasOneOrderedAtomPerOrderedAtomic) {
    auto r = compileOrder("acq_rel");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_TRUE(has(r.cuda, "ts::atomic_add_ordered<ts::MemoryOrder::acq_rel>(&done[0], 1)")) << r.cuda;
    EXPECT_TRUE(has(r.cuda, "ts::atomic_add_ordered<ts::MemoryOrder::release>(")) << r.cuda;
    // The relaxed column adds stay plain (and free to be vectorized).
    EXPECT_FALSE(has(r.cuda, "ts::atomic_add_ordered<ts::MemoryOrder::relaxed>")) << r.cuda;
    // The converting copy acc (float32) -> Y (float16): 4 elements per thread, one 16-byte load
    // and one 8-byte store (CopyLowering.cpp, VectorAccess.h), scalar when a pointer is unaligned.
    EXPECT_TRUE(has(r.cuda, "ts_vec_load<float, 4>(&acc[((tx * 4) + ")) << r.cuda;
    EXPECT_TRUE(has(r.cuda, "ts_vec_store<ts::half, 4>(&Y[((tx * 4) + ")) << r.cuda;
    auto consume = compileOrder("consume");
    ASSERT_TRUE(consume.ok) << ts::e2e::diagText(consume);
    EXPECT_TRUE(has(consume.cuda, "ts::atomic_add_ordered<ts::MemoryOrder::acquire>(&done[0], 1)")) << consume.cuda;
    auto relaxed = compileOrder("relaxed");
    ASSERT_TRUE(relaxed.ok) << ts::e2e::diagText(relaxed);
    EXPECT_TRUE(has(relaxed.cuda, "atomicAdd(&done[0], 1)")) << relaxed.cuda;

    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    for (const char* order : {"acq_rel", "seq_cst", "acquire", "release"})
        for (auto [target, arch] : {std::pair{"cuda:sm_80", "sm_80"}, std::pair{"cuda:sm_90a", "sm_90a"}}) {
            auto c = compileOrder(order, target);
            ASSERT_TRUE(c.ok) << ts::e2e::diagText(c);
            auto nv = ts::rt::compileCuda(c.cuda, arch, {}, true);
            // Each order instantiates its own inline `atom.<sem>.gpu` (ptxas rejects a bad one).
            EXPECT_TRUE(nv.ok) << order << " " << arch << ":\n" << nv.log;
        }
}

TEST(AtomicMemoryOrder, HipHasTheSameOrderedAtomics) {
    auto r = compileOrder("acq_rel", "hip:gfx90a");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_TRUE(has(r.cuda, "ts::atomic_add_ordered<ts::MemoryOrder::acq_rel>(&done[0], 1)")) << r.cuda;
    // A uint32 counter with a literal value (helper-135 #3): the HIP template deduced T from both
    // (unsigned*, int) and hiprtc found no function; T now comes from the address alone.
    const std::string u32 =
        "import tilelang.language as T\n\n\n"
        "@T.prim_func\n"
        "def main(C: T.Tensor((1,), \"uint32\"), P: T.Tensor((64,), \"uint32\")):\n"
        "    with T.Kernel(1, threads=64) as bx:\n"
        "        for i in T.Parallel(64):\n"
        "            P[i] = T.atomic_add(C[0], 1, return_prev=True, memory_order=\"acq_rel\")\n"
        "        T.atomic_max(C[0], 7, memory_order=\"release\")\n";
    auto h32 = ts::e2e::compileInline("u32.py", u32, "hip:gfx90a");
    ASSERT_TRUE(h32.ok) << ts::e2e::diagText(h32);
    // The tile-level IR keeps the order (the pass explorer shows it before lower-tile-ops).
    EXPECT_TRUE(has(ts::ir::print(h32.elaborated).text, "T.atomic_max(C, 7, memory_order=\"release\")")) << ts::ir::print(h32.elaborated).text;
    std::string why;
    if (!ts::rt::hiprtcAvailable(&why)) GTEST_SKIP() << why;
    auto h = ts::rt::compileHip(r.cuda, "gfx90a");
    EXPECT_TRUE(h.ok) << h.log;
    auto hu = ts::rt::compileHip(h32.cuda, "gfx90a");
    EXPECT_TRUE(hu.ok) << hu.log;
}

}  // namespace

namespace {
// T.atomic_add(B[0:4], 1): TileLang's tile-region form with a scalar value, each element updated
// once (the value broadcast over the region); T.atomic_add(C[0], 1) outside T.Parallel: every
// thread adds (the element form). helper-135 #5: the tile interpreter added 32 to each of B's
// elements, the lowering (and the GPU) 32 to B[0] alone.
TEST(AtomicBroadcast, ScalarIntoARegionUpdatesEachElementOnce) {
    const std::string src =
        "import tilelang.language as T\n\n\n"
        "@T.prim_func\n"
        "def main(B: T.Tensor((4,), \"int32\"), C: T.Tensor((1,), \"int32\"), D: T.Tensor((6,), \"int32\")):\n"
        "    with T.Kernel(1, threads=32) as bx:\n"
        "        T.atomic_add(B[0:4], 1)\n"
        "        T.atomic_add(C[0], 1)\n"
        "        T.atomic_max(D[1:6], 7, memory_order=\"release\")\n";
    ts::CompileResult r = ts::e2e::compileInline("bcast.py", src);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    for (bool lowered : {false, true}) {
        std::vector<ts::HostTensor> args{{ts::ir::DType::Int32, {4}, {0, 0, 0, 0}},
                                         {ts::ir::DType::Int32, {1}, {0}},
                                         {ts::ir::DType::Int32, {6}, {9, 0, 3, 8, -1, 7}}};
        const std::string err = ts::e2e::runInterpreter(r, args, lowered);
        ASSERT_TRUE(err.empty()) << err;
        const char* level = lowered ? "lowered" : "tile";
        EXPECT_EQ(args[0].data, (std::vector<double>{1, 1, 1, 1})) << level;
        EXPECT_EQ(args[1].data, (std::vector<double>{32})) << level;
        EXPECT_EQ(args[2].data, (std::vector<double>{9, 7, 7, 8, 7, 7})) << level;  // D[0] untouched
    }
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_80", {}, true);
    EXPECT_TRUE(nv.ok) << nv.log;
}
}  // namespace
