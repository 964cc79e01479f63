// The compilation target and the instruction selector (DESIGN.md §2a). A Target answers two
// kinds of questions, each hardware fact in one place:
//  - what the chip has and allows (capabilities and limits: cp.async, mbarrier, TMA, wgmma, fp8
//    mma; shared memory, threads and registers per block), with the document each value comes
//    from;
//  - which instruction a lowering uses (selection: the gemm engine and mma atom, the copy engine,
//    the pipeline barrier). Tile-op lowerings (compiler/ops/) ask these instead of testing
//    smVersion themselves, so a new code path (sm_90a wgmma/TMA, later HIP) is one answer here
//    plus its lowering file, and the ops' meaning does not change.
// Hardware tables (mma fragments, swizzles, bank rules) stay in compiler/analysis/; the target
// refers to them (mmaAtom -> analysis::selectMmaAtom).
//
// hip:gfx90a (AMD CDNA2, MI200) is the HIP target: 64-lane wavefronts, the MFMA gemm engine
// (ops/GemmMfma.cpp), LDS without async copies (every copy engine is Plain, every capability
// above false), printed as HIP C++ against resources/ts_hip.h (codegen/HipCodegen).
//
// sm_90a selects the wgmma gemm engine; whether one T.gemm takes it (with TMA loads on an
// mbarrier pipeline) is decided per gemm by transforms/Hopper.h, and a gemm that does not qualify
// keeps the sm_80 code path (mma.sync, cp.async + bar.sync), which every other target runs.
// Capabilities tell the truth, so a lowering can check that what it is about to emit exists.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "compiler/analysis/HwLayouts.h"
#include "compiler/ir/Buffer.h"
#include "compiler/ir/DType.h"

namespace ts {

/// How T.gemm multiplies: per-warp mma.sync (sm_80+, PTX ISA §9.7.14), per-warpgroup
/// asynchronous wgmma.mma_async (sm_90a only, PTX ISA §9.7.15), or per-wavefront
/// v_mfma_f32_16x16x16{f16,bf16_1k} (gfx90a, "AMD Instinct MI200" ISA Reference Guide §7.1).
enum class GemmEngine : uint8_t { MmaSync, Wgmma, Mfma };

/// How T.copy moves a tile: plain loads/stores through registers, cp.async (global -> shared
/// without registers, sm_80+), or the tensor memory accelerator (cp.async.bulk.tensor, sm_90+).
enum class CopyEngine : uint8_t { Plain, CpAsync, Tma };

/// What a software pipeline waits with: cp.async.wait_group + bar.sync, or mbarrier transaction
/// counts (expect_tx / try_wait, sm_90+).
enum class BarrierKind : uint8_t { BarSync, Mbarrier };

struct Target {
    std::string name = "cuda:sm_80";  ///< as written on the command line
    int smVersion = 80;               ///< 80, 86, 89, 90; 0 for AMD targets
    bool archSpecific = false;        ///< the "a" suffix (sm_90a)
    /// AMD GPU architecture of a hip: target ("gfx90a": CDNA2, MI200); empty for CUDA targets.
    std::string amdArch;
    /// NVRTC/nvcc architecture string "sm_80", "sm_90a"; hiprtc/hipcc's "gfx90a" for HIP.
    std::string arch() const {
        return isHip() ? amdArch : "sm_" + std::to_string(smVersion) + (archSpecific ? "a" : "");
    }
    /// The HIP backend (AMD CDNA): HIP C++ against resources/ts_hip.h, compiled by hiprtc/hipcc.
    bool isHip() const { return !amdArch.empty(); }
    /// The language codegen prints for this target: "cuda" or "hip" (CompileResult::language).
    const char* language() const { return isHip() ? "hip" : "cuda"; }
    /// Lanes of a warp (32, NVIDIA) or wavefront (64: CDNA runs wave64 only, "AMD Instinct MI200"
    /// ISA Reference Guide §1 "Wavefronts"). What gemm warp grids, reductions and the thread
    /// interpreter count in; the pipeline records it as the function's attr "warp_size" so that
    /// the IR after any pass (interpreter, bank analysis) carries it.
    int warpSize() const { return isHip() ? 64 : 32; }

    // --- capabilities: what the chip has (PTX ISA 8.x "Target ISA notes" of each instruction)
    /// cp.async (PTX ISA §9.7.9.25.3, cp.async, Target ISA notes: requires sm_80 or higher).
    bool hasCpAsync() const { return smVersion >= 80; }
    /// mbarrier objects in shared memory (PTX ISA §9.7.13.15, mbarrier.init/arrive/test_wait:
    /// sm_80 or higher; mbarrier.expect_tx and try_wait, which TMA pipelines wait with: sm_90).
    bool hasMbarrier() const { return smVersion >= 80; }
    bool hasMbarrierTx() const { return smVersion >= 90; }
    /// cp.async.bulk.tensor, the tensor memory accelerator (PTX ISA §9.7.9.25.5, Target ISA
    /// notes: requires sm_90 or higher).
    bool hasTma() const { return smVersion >= 90; }
    /// wgmma.mma_async (PTX ISA §9.7.15) and setmaxnreg, Target ISA notes: "requires sm_90a".
    /// Only the architecture-specific target (PTX ISA, .target directive: features of an "a"
    /// target are supported on that architecture only), not sm_90 and not later chips.
    bool hasWgmma() const { return smVersion == 90 && archSpecific; }
    /// mma.sync m16n8k32 with .e4m3/.e5m2 operands (PTX ISA §9.7.14.5.14, mma, Target ISA notes:
    /// .e4m3/.e5m2 require sm_89 or higher).
    /// Below it analysis::selectMmaAtom's fp8 atom runs as widened f16 mma (its
    /// operandConversion says so).
    bool hasFp8Mma() const { return smVersion >= 89; }

    // --- limits (CUDA C++ Programming Guide, "Compute Capabilities", Table "Technical
    // Specifications per Compute Capability")
    /// Opt-in dynamic shared memory per block, bytes: 163 KB on 8.0 and 8.7, 99 KB on 8.6 and
    /// 8.9, 227 KB on 9.0 (and later chips we compile for); gfx90a: 64 KB of LDS per workgroup
    /// ("AMD Instinct MI200" ISA Reference Guide §2.3 "LDS").
    int64_t maxSharedBytesPerBlock() const;
    /// Threads per block: 1024 on every compute capability >= 2.0 (and per workgroup on gfx90a,
    /// HIP Programming Guide, "Hardware implementation": 1024 work-items).
    int maxThreadsPerBlock() const { return kMaxThreadsPerBlock; }
    static constexpr int kMaxThreadsPerBlock = 1024;  ///< the same on every target (above)
    /// 32-bit registers one thread may use: 255 (compute capability >= 3.5).
    int maxRegistersPerThread() const { return 255; }
    /// Grid extent in y and z: 65535 (x allows 2^31 - 1).
    int64_t maxGridYZ() const { return 65535; }

    // --- selection: what the lowerings emit on this target
    /// The gemm engine T.gemm lowers to: Wgmma where the chip has it (sm_90a), else MmaSync.
    /// Wgmma means "wgmma when the gemm qualifies": ops/GemmSm90.cpp asks
    /// transforms/Hopper.h selectHopperGemm per gemm and falls back to the mma.sync path.
    /// Mfma on AMD targets (ops/GemmMfma.cpp).
    GemmEngine gemmEngine() const {
        return isHip() ? GemmEngine::Mfma : hasWgmma() ? GemmEngine::Wgmma : GemmEngine::MmaSync;
    }
    /// The mma atom for operand dtype `ab` and accumulator dtype `c`: mma.sync on CUDA targets
    /// (analysis::selectMmaAtom, shared with the interpreters and resources/ts_device/), MFMA
    /// 16x16x16 on AMD ones (analysis::selectMfmaAtom, resources/ts_hip.h); nullopt with `why`
    /// listing the supported pairs.
    std::optional<analysis::MmaAtom> mmaAtom(ir::DType ab, ir::DType c, std::string* why) const {
        return isHip() ? analysis::selectMfmaAtom(ab, c, why) : analysis::selectMmaAtom(ab, c, why);
    }
    /// The engine of a copy between scopes `src` -> `dst`; `pipelined` is true when
    /// inject-pipeline marked the copy as an early-issued producer (attr "async"). cp.async only
    /// moves global -> shared. TMA loads are not chosen here: inject-pipeline rewrites the
    /// operand copies of a gemm on the wgmma path into them (transforms/InjectPipelineTma.cpp).
    CopyEngine copyEngine(ir::Scope src, ir::Scope dst, bool pipelined) const;
    /// What a multi-stage cp.async pipeline waits with: BarSync (cp.async groups). The TMA
    /// pipeline of a wgmma gemm waits on mbarriers (InjectPipelineTma.cpp), whatever this says.
    BarrierKind pipelineBarrier() const { return BarrierKind::BarSync; }
};

/// Parses "cuda:sm_80", "cuda:sm_90a", "sm_80", "hip:gfx90a"; nullopt if unknown.
std::optional<Target> parseTarget(const std::string& s);

}  // namespace ts
