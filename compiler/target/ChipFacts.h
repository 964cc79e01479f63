// Facts about the reference chip of each target that are not capabilities of the instruction
// set but of one product: what a factory asks the CUDA driver at run time (`driver.
// get_num_sms()`, `torch.cuda.get_device_properties().multi_processor_count`) and TileScope
// answers at compile time for the target it compiles for. Kept apart from Target.h so that a
// new fact does not rebuild every pass.
#pragma once
#include "compiler/target/Target.h"

namespace ts {

/// Streaming multiprocessors (compute units on AMD) of the target's reference chip (a
/// persistent kernel launches that many blocks). sm_90a/sm_90: H100/H200 SXM, 132 SMs (NVIDIA
/// H100 Tensor Core GPU Architecture whitepaper, "H100 SXM5": 132 SMs; H200 is the same GH100
/// configuration); sm_80: A100, 108 SMs (NVIDIA A100 Tensor Core GPU Architecture whitepaper);
/// sm_86: RTX 3090, 82; sm_89: L40S, 142; gfx90a: one MI250X GCD, 110 CUs ("AMD Instinct MI250X"
/// data sheet: 220 CUs over two GCDs, each its own HIP device).
inline int smCount(const Target& t) {
    if (t.isHip()) return 110;
    switch (t.smVersion) {
        case 86:
            return 82;
        case 89:
            return 142;
        case 90:
            return 132;
        default:
            return 108;
    }
}

}  // namespace ts
