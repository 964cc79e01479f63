// The one entry point of the tile compiler (DESIGN.md §2): source text + options in, a
// CompileResult out. Everything the IDE and tilec show comes from CompileResult; nothing
// re-derives compiler facts elsewhere. compile() never throws and never prints: problems are
// Diagnostics in the result.
#pragma once
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/target/Target.h"
#include "compiler/ir/Printer.h"
#include "compiler/ir/Stmt.h"
#include "compiler/support/Diagnostic.h"

namespace ts {
namespace fe {
class Module;  // compiler/frontend/Module.h: the parsed file (factory, ref_program, flops/bytes)
}

struct CompileOptions {
    /// The kernel to compile when the file has several (DESIGN.md §2b): a factory / eager /
    /// prim_func def name as listed in CompileResult::kernels (or the name of a factory's inner
    /// @T.prim_func when that is unique). Empty: the default kernel (ProgramKernel::isDefault).
    std::string kernel;
    /// Factory parameter overrides as text ("M" -> "4096"); parsed as Python literals. They go
    /// to the selected kernel; a name that only another kernel of the file has is an error
    /// naming that kernel, except when the value is the one in the file's `# tilescope:` pragma
    /// (ParamPragma.h: the pragma keeps values for every kernel of the file). Names starting
    /// with '@' (the pragma's settings `@kernel`, `@ref`) are ignored.
    std::map<std::string, std::string> params;
    std::string target = "cuda:sm_80";  ///< "cuda:sm_80" | "cuda:sm_90a" | "hip:gfx90a"
    bool recordSnapshots = true;        ///< print IR after every pass (pass viewer, --print-after)
    bool verify = true;                 ///< run the IR verifier after every pass
    std::string stopAfter;              ///< stop the pipeline after this pass (no codegen then)
    /// Polled between passes; when it becomes true compile() returns early with cancelled=true.
    const std::atomic<bool>* cancel = nullptr;
};

/// The IR after one pass, as the pass viewer shows it.
struct PassSnapshot {
    std::string name, summary;
    std::string ir;                       ///< printed IR after the pass (empty if not recorded)
    std::vector<ir::LineOrigin> lines;    ///< origin of each printed line (1-based line i -> lines[i-1])
    double micros = 0;                    ///< time of the pass alone (printing excluded)
    bool changed = false;                 ///< the pass rewrote the IR
    bool failed = false;
    std::vector<Diagnostic> diagnostics;  ///< what this pass reported
};

/// A parameter of the kernel factory (IDE parameter panel, `--param`).
struct FactoryParam {
    std::string name;
    std::string defaultValue;  ///< Python repr of the default ("4096", "\"float16\""); empty = none
    std::string value;         ///< value used for this compile (repr)
    bool overridden = false;
    Span span;                 ///< the parameter in the source
};

/// One tensor argument of the generated kernel, in call order.
struct TensorArg {
    std::string name;
    ir::DType dtype;
    std::vector<int64_t> shape;
    bool isOutput = false;
    Span span;  ///< the parameter's declaration (launch-time argument errors point here)
};

/// One scalar argument of the generated kernel; scalars follow the tensors in call order. A
/// symbolic size (T.dynamic) takes its value from a tensor dimension at launch (`tensor`,
/// `dim`); a scalar parameter (`n: T.int32`) is passed by value. See compiler/LaunchArgs.h.
struct ScalarArg {
    std::string name;
    ir::DType dtype = ir::DType::Int32;
    int tensor = -1, dim = -1;  ///< defining tensor argument and dimension; -1: by value
    std::string value;          ///< from --param (Python literal text); empty = not given
    Span span;                  ///< the T.dynamic call or the parameter
};

/// A TMA tensor map the sm_90a kernel takes after its scalars (compiler/transforms/Hopper.h),
/// encoded at launch (cuTensorMapEncodeTiled) over tensor argument `tensor` (row-major, rank 2..5,
/// its launch-time shape and address) with a box of boxInner elements along the contiguous
/// (last) dimension x boxOuter elements along dimension `rowDim` (outermost-first numbering, as
/// in the IR shape; -1 = rank - 2) and 1 along every other dimension, swizzle `swizzleBytes`
/// (32, 64, 128) and zero fill out of bounds.
struct TensorMapArg {
    int tensor = -1;
    int64_t boxInner = 0, boxOuter = 0;
    int swizzleBytes = 0;
    int rowDim = -1;
};

/// How to launch the generated kernel.
struct KernelInfo {
    std::string name;                    ///< extern "C" symbol in `cuda`
    unsigned grid[3] = {1, 1, 1};        ///< constant extents (1 where gridExtent[d] is set)
    /// Grid extents that depend on scalar arguments (T.ceildiv(n, 128)); null = grid[d].
    /// Evaluated at launch by resolveLaunch (compiler/LaunchArgs.h).
    ir::Expr gridExtent[3];
    unsigned block[3] = {1, 1, 1};
    size_t dynamicSmemBytes = 0;
    /// The kernel has a grid barrier (T.sync_grid): it must be launched cooperatively
    /// (cuLaunchCooperativeKernel), every block resident at once; the runtime checks that the
    /// grid fits (occupancy x SMs) before launching.
    bool cooperative = false;
    std::vector<TensorArg> args;         ///< shape entries of symbolic sizes are -1
    std::vector<ScalarArg> scalars;
    std::vector<ir::Var> scalarVars;     ///< the IR variables of `scalars` (same order)
    std::vector<TensorMapArg> tensorMaps;  ///< TMA maps, kernel parameters after the scalars
};

/// One kernel of a program (DESIGN.md §2b): a @tilelang.jit / @autotune factory, a factory
/// returning an inner @T.prim_func, an eager @tilelang.jit function, or a bare @T.prim_func.
/// Module-level helpers (layout functions, ref_program, main) are not kernels.
struct ProgramKernel {
    std::string name;  ///< the def's name: what CompileOptions::kernel / --kernel take
    std::string
        primFuncName;     ///< a factory's inner @T.prim_func as written ("" if built elsewhere)
    std::string pattern;  ///< "factory" | "eager" | "prim_func" (LANGUAGE.md §1) | "autotuner"
    /// An autotune driver (pattern "autotuner", frontend/AutotuneDrivers.h): a function that
    /// builds (and maybe runs) a TileLang AutoTuner rather than being a kernel, compiled as the
    /// tuned kernel at the tuner's first config. What it does, in words; "" for a kernel.
    std::string autotuner;
    /// The drivers of the file that only run this driver's tuner, "NAME (line N)" (the same
    /// tuned kernel, reached through their own parameters).
    std::vector<std::string> tunerRunners;
    Span span;            ///< the def's name in the source
    std::vector<std::string> params;  ///< settable parameters (--param names), signature order
    bool isJit = false, isAutotune = false;
    bool isDefault = false;  ///< compiled when no kernel is named (the best-ranked entry)
    /// Lines of the `with T.Kernel(...)` blocks written in the kernel function (found in the
    /// source without compiling; a block under a compile-time `if` counts even when not taken).
    /// Two or more: the function launches them in order (CompileResult::launches).
    std::vector<uint32_t> kernelBlockLines;
};

struct CompileResult {
    bool ok = false;                  ///< no errors and codegen ran
    bool cancelled = false;
    SourcePtr source;
    std::vector<Diagnostic> diagnostics;  ///< all errors/warnings, in order
    std::vector<FactoryParam> params;     ///< of the selected kernel
    /// Every kernel of the file, in source order (filled whenever the file parsed, also when the
    /// selected kernel failed to compile or the requested name was unknown).
    std::vector<ProgramKernel> kernels;
    int selectedKernel = -1;  ///< index into `kernels` of the kernel compiled; -1: none
    /// The compiled kernel's entry in `kernels`, or null.
    const ProgramKernel* selected() const {
        return selectedKernel >= 0 && size_t(selectedKernel) < kernels.size()
                   ? &kernels[size_t(selectedKernel)]
                   : nullptr;
    }
    std::shared_ptr<const fe::Module> module;  ///< parsed file (for the reference program)
    ir::PrimFunc elaborated;          ///< tile-level IR (input of the first pass; interpreter input)
    ir::PrimFunc lowered;             ///< IR after the last pass that ran
    std::vector<PassSnapshot> passes; ///< one per pass that ran, in pipeline order
    std::string cuda;                 ///< generated device C++: CUDA (includes "ts_device.cuh"),
                                      ///< or HIP for a hip: target (includes "ts_hip.h")
    std::string language = "cuda";    ///< of `cuda`: "cuda" or "hip"
    std::vector<Span> cudaLineSpans;  ///< source span of each generated line (1-based -> [i-1])
    KernelInfo kernel;
    std::optional<double> flops, bytes;  ///< the sample's `flops`/`bytes` for these parameters
    double frontendMicros = 0, passesMicros = 0, codegenMicros = 0;

    /// A kernel function with several `with T.Kernel` blocks (compiler/KernelLaunches.h) runs
    /// them in order on the same tensors: one entry per block, in launch order, each a complete
    /// single-launch result (its block as `elaborated`, its own passes, `lowered` and `kernel`,
    /// kernel.args marking as outputs the function's outputs and the tensors that block writes;
    /// `cuda` the shared translation unit below). Empty for a function with one block. When set,
    /// the fields above describe the whole function where they can: `elaborated` holds every
    /// block (the tile interpreter runs them in order), `cuda` is one translation unit with every
    /// launch's kernel, kernel.args the function's signature and outputs, each pass snapshot
    /// the launches' IR one after the other; `lowered` and the rest of `kernel` are the first
    /// launch's. Running code must go through every launch (app/cli/RunSupport.h).
    std::vector<CompileResult> launches;
};

/// The launches of `r` in order: r.launches' entries, or r itself for a one-block function.
std::vector<const CompileResult*> launchesOf(const CompileResult& r);

/// Compiles `text` (the contents of `path`). Never throws.
CompileResult compile(const std::string& path, const std::string& text, const CompileOptions& opts = {});

/// The kernels of `text` (the contents of `path`) without compiling any: parse and module
/// analysis only (what `tilec kernels` prints). Parse errors and "no kernel found" go to
/// `diagnostics` when given. Never throws.
std::vector<ProgramKernel> listKernels(const std::string& path, const std::string& text,
                                       std::vector<Diagnostic>* diagnostics = nullptr);

/// Names and one-line summaries of the pipeline's passes for `target`, in order (what the pass
/// viewer lists even before a compile succeeds).
std::vector<std::pair<std::string, std::string>> pipelinePasses(const Target& target);

}  // namespace ts
