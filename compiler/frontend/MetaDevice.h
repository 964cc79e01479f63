// Compile-time answers to the device queries real factories make, and the small host-side
// helper modules of TileLang whose results are plain numbers (LANGUAGE.md §2):
//  - `tilelang.carver.arch.driver.get_num_sms()` (and torch.cuda's multi_processor_count):
//    the SM count of the chip of the target being compiled for (target/ChipFacts.h), so a
//    persistent kernel `T.Kernel(sm_num)` launches what it would on that chip;
//  - `tilelang.cuda.intrinsics.sparse_layout` (also `tilelang.utils.sparse`): GROUP_CONFIG,
//    get_e_factor and get_e_replicate_factor of 2:4 structured sparsity metadata.
// The rest of those modules stays unavailable (an error where used).
#pragma once
#include "compiler/frontend/MetaEval.h"
#include "compiler/target/Target.h"

namespace ts::fe {

/// Registers the modules above in `in` (called once by Interp's constructor). Until
/// setDeviceTarget, device queries answer for cuda:sm_90a.
void registerDeviceModules(Interp& in);
/// Makes the device queries of `in` answer for `t`.
void setDeviceTarget(Interp& in, const Target& t);
/// Copies the target device queries answer for from `from` to `to` (the elaborator's
/// interpreter takes the one the compile chose for the module's).
void copyDeviceTarget(Interp& from, Interp& to);
/// The SM count device queries of `in` answer.
int deviceSmCount(Interp& in);

}  // namespace ts::fe
