// The target as instruction selector (compiler/target/Target.h): capabilities, limits and
// selections of sm_80, sm_86, sm_89, sm_90, sm_90a and hip:gfx90a, each value checked by hand
// against the document the header cites (PTX ISA "Target ISA notes" of the instruction; CUDA C++
// Programming Guide, "Technical Specifications per Compute Capability"; "AMD Instinct MI200"
// ISA Reference Guide for gfx90a).
#include <gtest/gtest.h>

#include "compiler/target/Target.h"

using ts::BarrierKind;
using ts::CopyEngine;
using ts::GemmEngine;
using ts::Target;
using ts::ir::DType;
using ts::ir::Scope;

namespace {

Target target(const char* s) {
    auto t = ts::parseTarget(s);
    EXPECT_TRUE(t.has_value()) << s;
    return t.value_or(Target{});
}

}  // namespace

TEST(Target, Parses) {
    Target a = target("cuda:sm_80");
    EXPECT_EQ(a.smVersion, 80);
    EXPECT_FALSE(a.archSpecific);
    EXPECT_EQ(a.arch(), "sm_80");
    Target h = target("sm_90a");
    EXPECT_EQ(h.smVersion, 90);
    EXPECT_TRUE(h.archSpecific);
    EXPECT_EQ(h.name, "cuda:sm_90a");
    EXPECT_EQ(h.arch(), "sm_90a");
    EXPECT_FALSE(ts::parseTarget("sm_75"));  // below Ampere: no cp.async / bf16 mma
    Target g = target("hip:gfx90a");
    EXPECT_TRUE(g.isHip());
    EXPECT_FALSE(a.isHip());
    EXPECT_EQ(g.arch(), "gfx90a");
    EXPECT_EQ(g.name, "hip:gfx90a");
    EXPECT_STREQ(g.language(), "hip");
    EXPECT_STREQ(a.language(), "cuda");
    EXPECT_FALSE(ts::parseTarget("hip:gfx942"));  // hiprtc 5.2 cannot compile CDNA3 (profiler/hip)
    EXPECT_FALSE(ts::parseTarget("hip:sm_80"));
    EXPECT_FALSE(ts::parseTarget("cuda:sm_9x"));
}

TEST(Target, Capabilities) {
    Target a = target("sm_80"), ada = target("sm_89"), h = target("sm_90"), ha = target("sm_90a");
    // cp.async and basic mbarrier: sm_80 on.
    for (const Target* t : {&a, &ada, &h, &ha}) {
        EXPECT_TRUE(t->hasCpAsync()) << t->arch();
        EXPECT_TRUE(t->hasMbarrier()) << t->arch();
    }
    // TMA and mbarrier transaction counts: sm_90 on.
    EXPECT_FALSE(a.hasTma());
    EXPECT_FALSE(ada.hasTma());
    EXPECT_TRUE(h.hasTma());
    EXPECT_TRUE(ha.hasTma());
    EXPECT_FALSE(a.hasMbarrierTx());
    EXPECT_TRUE(ha.hasMbarrierTx());
    // wgmma: sm_90a only (an "a" feature), not plain sm_90.
    EXPECT_FALSE(a.hasWgmma());
    EXPECT_FALSE(h.hasWgmma());
    EXPECT_TRUE(ha.hasWgmma());
    // fp8 mma.sync: sm_89 on (sm_80 widens to f16, analysis::selectMmaAtom's operandConversion).
    EXPECT_FALSE(a.hasFp8Mma());
    EXPECT_TRUE(ada.hasFp8Mma());
    EXPECT_TRUE(ha.hasFp8Mma());
}

TEST(Target, Limits) {
    // Maximum shared memory per thread block: 163 KB (8.0), 99 KB (8.6, 8.9), 227 KB (9.0).
    EXPECT_EQ(target("sm_80").maxSharedBytesPerBlock(), 166912);
    EXPECT_EQ(target("sm_86").maxSharedBytesPerBlock(), 101376);
    EXPECT_EQ(target("sm_89").maxSharedBytesPerBlock(), 101376);
    EXPECT_EQ(target("sm_90").maxSharedBytesPerBlock(), 232448);
    EXPECT_EQ(target("sm_90a").maxSharedBytesPerBlock(), 232448);
    for (const char* s : {"sm_80", "sm_90a"}) {
        Target t = target(s);
        EXPECT_EQ(t.maxThreadsPerBlock(), 1024) << s;
        EXPECT_EQ(t.maxRegistersPerThread(), 255) << s;
        EXPECT_EQ(t.maxGridYZ(), 65535) << s;
    }
}

TEST(Target, SelectsTheGemmEngineAndCopyEngines) {
    // wgmma exists on sm_90a only (PTX ISA §9.7.15, Target ISA notes); sm_90 and sm_89 keep
    // mma.sync. On sm_90a a gemm that does not qualify for wgmma still runs mma.sync (GemmSm90.cpp).
    EXPECT_EQ(target("sm_80").gemmEngine(), GemmEngine::MmaSync);
    EXPECT_EQ(target("sm_89").gemmEngine(), GemmEngine::MmaSync);
    EXPECT_EQ(target("sm_90").gemmEngine(), GemmEngine::MmaSync);
    EXPECT_EQ(target("sm_90a").gemmEngine(), GemmEngine::Wgmma);
    for (const char* s : {"sm_80", "sm_90a"}) {
        Target t = target(s);
        EXPECT_EQ(t.pipelineBarrier(), BarrierKind::BarSync) << s;
        // cp.async only for pipelined global -> shared copies.
        EXPECT_EQ(t.copyEngine(Scope::Global, Scope::Shared, true), CopyEngine::CpAsync) << s;
        EXPECT_EQ(t.copyEngine(Scope::Global, Scope::Shared, false), CopyEngine::Plain) << s;
        EXPECT_EQ(t.copyEngine(Scope::Shared, Scope::Global, true), CopyEngine::Plain) << s;
        EXPECT_EQ(t.copyEngine(Scope::Global, Scope::Fragment, true), CopyEngine::Plain) << s;
    }
}

TEST(Target, MmaAtomByDtypePair) {
    // PTX ISA §9.7.14.5 (mma shapes and types): m16n8k16 for 16-bit operands, m16n8k32 for 8-bit,
    // m16n8k8 for tf32; bf16 only with an f32 accumulator.
    Target t = target("sm_80");
    std::string why;
    auto h = t.mmaAtom(DType::Float16, DType::Float32, &why);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->k, 16);
    EXPECT_EQ(h->elemBytes, 2);
    EXPECT_EQ(h->ptx, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
    auto i8 = t.mmaAtom(DType::Int8, DType::Int32, &why);
    ASSERT_TRUE(i8);
    EXPECT_EQ(i8->k, 32);
    EXPECT_EQ(i8->ptx, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
    auto tf = t.mmaAtom(DType::Float32, DType::Float32, &why);
    ASSERT_TRUE(tf);
    EXPECT_EQ(tf->k, 8);
    EXPECT_EQ(tf->operandConversion, "tf32");
    EXPECT_FALSE(t.mmaAtom(DType::BFloat16, DType::BFloat16, &why));
    EXPECT_NE(why.find("bfloat16"), std::string::npos) << why;
}

TEST(Target, Gfx90a) {
    // CDNA2: 64-lane wavefronts (MI200 ISA §1), 64 KB LDS per workgroup (§2.3), 1024 work-items
    // per workgroup; no cp.async, mbarrier, TMA, wgmma: every copy is plain, every pipeline
    // waits with barriers; T.gemm runs MFMA 16x16x16 on f16/bf16 -> f32 only.
    Target g = target("hip:gfx90a");
    EXPECT_EQ(g.warpSize(), 64);
    EXPECT_EQ(target("sm_90a").warpSize(), 32);
    EXPECT_EQ(g.maxSharedBytesPerBlock(), 65536);
    EXPECT_EQ(g.maxThreadsPerBlock(), 1024);
    EXPECT_FALSE(g.hasCpAsync());
    EXPECT_FALSE(g.hasMbarrier());
    EXPECT_FALSE(g.hasTma());
    EXPECT_FALSE(g.hasWgmma());
    EXPECT_FALSE(g.hasFp8Mma());
    EXPECT_EQ(g.gemmEngine(), GemmEngine::Mfma);
    EXPECT_EQ(g.copyEngine(Scope::Global, Scope::Shared, true), CopyEngine::Plain);
    EXPECT_EQ(g.pipelineBarrier(), BarrierKind::BarSync);
    std::string why;
    auto h = g.mmaAtom(DType::Float16, DType::Float32, &why);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->k, 16);
    EXPECT_EQ(h->ptx, "v_mfma_f32_16x16x16f16");
    auto b = g.mmaAtom(DType::BFloat16, DType::Float32, &why);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->ptx, "v_mfma_f32_16x16x16bf16_1k");
    for (DType ab : {DType::Int8, DType::Float32, DType::Float8E4M3}) {
        why.clear();
        EXPECT_FALSE(g.mmaAtom(ab, ab == DType::Int8 ? DType::Int32 : DType::Float32, &why));
        EXPECT_NE(why.find("MFMA"), std::string::npos) << why;
    }
    EXPECT_FALSE(g.mmaAtom(DType::Float16, DType::Float16, &why));  // no f16-accumulating MFMA atom in ts_hip.h
}
