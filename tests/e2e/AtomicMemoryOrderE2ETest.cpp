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
#include "profiler/cuda/Nvrtc.h"
#include "profiler/hip/Hiprtc.h"
#include "tests/e2e/E2eTestUtil.h"

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
    std::string why;
    if (!ts::rt::hiprtcAvailable(&why)) GTEST_SKIP() << why;
    auto h = ts::rt::compileHip(r.cuda, "gfx90a");
    EXPECT_TRUE(h.ok) << h.log;
}

}  // namespace
