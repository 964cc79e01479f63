// The NVIDIA GPUs visible through the driver and the facts about them that the compiler and the
// runtime need: compute capability (which picks the codegen target), SM count, memory sizes and
// the opt-in shared-memory limit per block. Values come from cuDeviceGetAttribute (CUDA Driver
// API reference, "Device Management").
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace ts::rt {

/// One CUDA device as reported by the driver.
struct DeviceInfo {
    int ordinal = 0;            ///< CUdevice ordinal (0-based, as CUDA_VISIBLE_DEVICES renumbers)
    std::string name;           ///< marketing name, e.g. "NVIDIA H200"
    int ccMajor = 0;            ///< compute capability major (9 for Hopper)
    int ccMinor = 0;            ///< compute capability minor
    int smCount = 0;            ///< streaming multiprocessors
    size_t globalMemBytes = 0;  ///< total device memory, bytes
    int maxSmemPerBlockOptin =
        0;                       ///< max dynamic+static shared memory per block after opt-in, bytes
    int maxSmemPerSm = 0;        ///< shared memory per SM, bytes
    int maxThreadsPerBlock = 0;  ///< 1024 on every current GPU
    int l2Bytes = 0;             ///< L2 cache size, bytes
};

/// All devices, in ordinal order. Returns an empty list and sets *whyNone (if given) when there is
/// no driver, cuInit fails, or the driver reports zero devices. Never throws.
std::vector<DeviceInfo> listDevices(std::string* whyNone = nullptr);

/// Queries one device. Throws CudaError on a driver failure.
DeviceInfo queryDevice(int ordinal);

/// The NVRTC real architecture to compile for on this device: "sm_80" for any 8.x (an sm_80 cubin
/// runs on 8.6/8.9 and is the codegen target), "sm_90a" for 9.0 (arch-specific: wgmma, setmaxnreg;
/// PTX ISA "Target ISA notes"), otherwise "sm_<major><minor>" (cubins only run within one major
/// version, so a newer GPU gets its own arch).
std::string archFor(const DeviceInfo& d);
/// Same as archFor for a bare compute capability.
std::string archForCapability(int ccMajor, int ccMinor);

/// The arch to compile code generated for `targetArch` with so that it loads on a device whose
/// arch is `deviceArch`: a cubin only runs on its own major compute capability (CUDA C++
/// Programming Guide, "Binary Compatibility"), so code for an older major (the sm_80 path on an
/// H200) is compiled for the device's arch — its instructions (mma.sync, ldmatrix, cp.async) are
/// in every later ISA (PTX ISA, per-instruction "Target ISA notes"). Arch-specific targets (sm_90a)
/// and everything else keep `targetArch`.
std::string loadableArch(const std::string& targetArch, const std::string& deviceArch);

/// One line for logs and the IDE status bar: "NVIDIA H200 (sm_90a, 132 SMs, 139.8 GiB)".
std::string describe(const DeviceInfo& d);

}  // namespace ts::rt
