// libclang over the generated CUDA (issue 3 item 5): parses kernel.cu together with our device
// header in CUDA device mode and answers "what is in this file" (the outline: functions, the
// kernel, and the kernel's top-level declarations) and "where is the thing under the caret
// defined" (go to definition, into kernel.cu or ts_device.cuh). Plain C++ over the libclang C API
// (no Qt); parsing takes ~100 ms, so the IDE runs it off the UI thread.
//
// Parsing mode: `-x cuda --cuda-device-only -nocudainc -nocudalib` plus a small prelude that
// defines the CUDA attribute macros and includes clang's own builtin-variable header
// (threadIdx, blockIdx, ...). The generated code includes nothing but ts_device.cuh, so the
// toolkit's headers are not needed (and libclang 14 does not support CUDA 12+ headers); the few
// intrinsics the header uses are undeclared, which only produces diagnostics we ignore.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ts::gui {

/// One outline entry.
struct OutlineItem {
    std::string name;  ///< "matmul_kernel", "A_shared"
    std::string kind;  ///< "kernel", "function", "template", "variable"
    int line = 0;      ///< 1-based line in kernel.cu
    int depth = 0;     ///< 0 = file level, 1 = inside the kernel
};

/// A place in one of the two files.
struct CodeLocation {
    std::string file;       ///< "kernel.cu" or "ts_device.cuh"
    int line = 0, col = 0;  ///< 1-based
};

class CudaIndex {
public:
    /// True when this build has libclang.
    static bool available();
    /// Parses `cuda` (as kernel.cu) with `deviceHeader` (as ts_device.cuh). Null with *error set
    /// when libclang is missing or the parse fails outright (syntax errors alone do not fail).
    static std::unique_ptr<CudaIndex> parse(const std::string& cuda,
                                            const std::string& deviceHeader, std::string* error);
    ~CudaIndex();

    const std::vector<OutlineItem>& outline() const { return m_outline; }
    /// Definition of the symbol at `file`:line:col (1-based), if libclang resolves one.
    std::optional<CodeLocation> definitionAt(const std::string& file, int line, int col) const;

private:
    CudaIndex() = default;
    struct Impl;
    std::unique_ptr<Impl> m_impl;
    std::vector<OutlineItem> m_outline;
};

}  // namespace ts::gui
