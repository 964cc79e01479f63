#include "compiler/codegen/HipCodegen.h"

#include <set>

#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"

namespace ts::codegen {
using namespace ts::ir;

bool hipSupportsIntrinsic(const std::string& op) {
    static const std::set<std::string> kSupported = {
        intrin::kAddressOf,     intrin::kCpAsync,       intrin::kCpAsyncCommit,
        intrin::kCpAsyncWait,   intrin::kCopyVec,       intrin::kStorePair,
        intrin::kZeroVec,       intrin::kGemmSS,        intrin::kWarpAllreduce,
        intrin::kAtomic,
    };
    // Other "tl." intrinsics are lowering choices of the CUDA targets (register-A gemm, and any
    // Hopper instruction); plain calls (math, sync_threads, print, atomic_prev) print as in CUDA.
    return op.rfind("tl.", 0) != 0 || kSupported.count(op) > 0;
}

CudaOutput emitHip(const PrimFunc& f, const Target&, DiagnosticEngine& diags) {
    bool ok = true;
    walk(f->body, [](const Stmt&) {}, [&](const Expr& e) {
        auto* c = as<CallNode>(e);
        if (!c) return;
        if (c->op == intrin::kSyncGrid) {
            // hip_cooperative_groups.h does not build beside ts_hip.h under hiprtc, and the HIP
            // path has no cooperative launch (hipModuleLaunchCooperativeKernel) to run it with.
            diags.error(c->span,
                        "T.sync_grid (a grid-wide barrier) has no HIP implementation in TileScope: the "
                        "hip:gfx90a path has no cooperative launch",
                        "compile this kernel for a CUDA target (cuda:sm_80 or cuda:sm_90a)", "codegen-hip");
            ok = false;
            return;
        }
        if (!hipSupportsIntrinsic(c->op)) {
            diags.error(c->span,
                        c->op + " has no HIP implementation (resources/ts_hip.h): the hip:gfx90a "
                                "path has no equivalent of this CUDA lowering",
                        c->op == intrin::kGemmRS
                            ? "stage the register operand of T.gemm through a shared tile"
                            : "compile this kernel for a CUDA target",
                        "codegen-hip");
            ok = false;
        } else if (c->op == intrin::kGemmSS && c->args.size() >= 2) {
            // MFMA 16x16x16 f16/bf16 with an f32 accumulator is the only gemm atom ts_hip.h has.
            auto* a = as<CallNode>(c->args[0]);
            auto* l = a && !a->args.empty() ? as<LoadNode>(a->args[0]) : nullptr;
            if (l && l->buffer->dtype != DType::Float16 && l->buffer->dtype != DType::BFloat16) {
                diags.error(c->span,
                            "T.gemm with " + std::string(dtypeName(l->buffer->dtype)) +
                                " operands has no MFMA atom on the hip:gfx90a path (float16 and "
                                "bfloat16 with a float32 accumulator only)",
                            "cast the operands to float16/bfloat16", "codegen-hip");
                ok = false;
            }
        }
    });
    CudaOutput out = emitDeviceCpp(f, DeviceDialect::Hip, diags);
    if (!ok) out.source += "\n#error \"TileScope: this kernel uses constructs the HIP path lacks\"\n";
    return out;
}

}  // namespace ts::codegen
