// What ptxas says about each kernel it assembled: registers, spills, barriers, static shared
// memory and its performance remarks, read from the `ptxas info` lines of an NVRTC log compiled
// with --ptxas-options=-v (compileCuda always passes it). No GPU needed: the figures are ptxas's
// own allocation for the cubin that runs, so tilec and the IDE can show them right after a compile.
//
// The lines parsed (CUDA 13 ptxas; one block per entry function):
//   ptxas info    : Compiling entry function 'matmul_kernel' for 'sm_90a'
//   ptxas info    : Function properties for matmul_kernel
//   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 189 registers, used 1 barriers, 1024 bytes smem
//   ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions are serialized
//                   due to ... in the function 'matmul_kernel'
// "used N barriers" counts named barriers (bar.sync ids, 16 per SM: PTX ISA §9.7.13.1); "smem" is
// static shared memory only (TileScope kernels use dynamic shared memory, so usually absent).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ts::rt {

/// One entry function's figures from ptxas -v.
struct PtxasKernelInfo {
    std::string name;
    int registers = -1;            ///< per thread; -1 when the log had no "Used N registers" line
    int barriers = 0;              ///< named barriers the kernel uses
    int64_t stackBytes = 0;        ///< per thread
    int64_t spillStoreBytes = 0;   ///< per thread, to local memory
    int64_t spillLoadBytes = 0;
    int64_t staticSmemBytes = 0;
    /// ptxas's remarks about this function, code first: "(C7514) Potential Performance Loss: ...".
    std::vector<std::string> remarks;
    /// C7514/C7515...: ptxas serialized this kernel's wgmma (each one waited to completion).
    bool wgmmaSerialized = false;
    /// C7507: ptxas ignored a setmaxnreg (the code after it needs more registers than it sets),
    /// so the warpgroups keep the launch's register count.
    bool setmaxnregIgnored = false;
};

struct PtxasInfo {
    std::vector<PtxasKernelInfo> kernels;  ///< in the order ptxas compiled them
    const PtxasKernelInfo* find(const std::string& name) const;
};

/// Parses the ptxas -v lines of `log` (other lines are ignored).
PtxasInfo parsePtxasInfo(const std::string& log);

/// `log` without the ptxas -v lines ("ptxas info" and the properties' "ptxas   ." lines; ptxas's
/// errors, warnings and fatal lines stay in the log) (what a user reads as the compiler's messages), and the ptxas
/// lines alone in *ptxasLines when given.
std::string withoutPtxasInfo(const std::string& log, std::string* ptxasLines = nullptr);

/// One line per kernel: "matmul_kernel: 189 registers, no spills, 1 barrier" (spills as
/// "24 B spill stores + 24 B spill loads per thread").
std::string ptxasSummary(const PtxasKernelInfo& k);

}  // namespace ts::rt
