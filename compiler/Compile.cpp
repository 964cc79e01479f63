// compile(): front end (parse, analyse the module, bind parameters, elaborate) -> pipeline
// (Pipeline.cpp) -> CUDA codegen -> launch facts. Never throws: every failure is a diagnostic.
#include "compiler/Compile.h"

#include "compiler/analysis/LocalRegisters.h"

#include <cstdio>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>

#include "compiler/CompileObserver.h"
#include "compiler/KernelLaunches.h"
#include "compiler/Pipeline.h"
#include "compiler/ProgramKernels.h"
#include "compiler/codegen/CudaCodegen.h"
#include "compiler/codegen/GridShape.h"
#include "compiler/codegen/HipCodegen.h"
#include "compiler/frontend/Elaborate.h"
#include "compiler/frontend/Ast.h"
#include "compiler/frontend/MetaDevice.h"
#include "compiler/frontend/Module.h"
#include "compiler/ir/IR.h"
#include "compiler/ops/Registry.h"
#include "compiler/support/CodegenSwitches.h"
#include "compiler/support/ParamPragma.h"
#include "compiler/support/TextCheck.h"
#include "compiler/transforms/Hopper.h"

namespace ts {
namespace {

/// Whether `pass_configs={...}` of @tilelang.jit turns TileLang's automatic barrier insertion
/// off: key tilelang.PassConfigKey.TL_DISABLE_THREAD_STORAGE_SYNC or
/// "tl.disable_thread_storage_sync" with the value True.
bool passConfigTrue(const fe::ast::Expr* passConfigs, const std::string& name, const std::string& enumName) {
    auto* d = fe::ast::as<fe::ast::Dict>(passConfigs);
    if (!d) return false;
    for (size_t i = 0; i < d->keys.size() && i < d->values.size(); ++i) {
        auto* str = fe::ast::as<fe::ast::Str>(d->keys[i]);
        auto* attr = fe::ast::as<fe::ast::Attribute>(d->keys[i]);
        bool key = (str && str->value == name) || (attr && attr->attr == enumName);
        auto* v = fe::ast::as<fe::ast::Constant>(d->values[i]);
        if (key && v && v->type == fe::ast::Constant::Type::Bool && v->boolValue) return true;
    }
    return false;
}

bool disablesStorageSync(const fe::ast::Expr* passConfigs) {
    return passConfigTrue(passConfigs, "tl.disable_thread_storage_sync", "TL_DISABLE_THREAD_STORAGE_SYNC");
}

/// `pass_configs={"tl.disable_tma_lower": True}` (TL_DISABLE_TMA_LOWER): TileLang lowers no copy
/// to TMA; neither do we (function attr tma_lower_disabled, read by xform::tmaDisabledWhy).
bool disablesTmaLower(const fe::ast::Expr* passConfigs) {
    return passConfigTrue(passConfigs, "tl.disable_tma_lower", "TL_DISABLE_TMA_LOWER");
}

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

std::string reprOf(const fe::Value& v) { return fe::repr(v); }

/// True if `e` reads no variable other than the kernel's scalar arguments (and no memory).
bool dependsOnlyOn(const ir::Expr& e, const ir::PrimFuncNode& f) {
    bool ok = true;
    ir::walkExpr(e, [&](const ir::Expr& x) {
        if (auto* v = ir::as<ir::VarNode>(x))
            ok &= std::any_of(f.scalars.begin(), f.scalars.end(),
                              [&](const ir::Var& s) { return s.get() == v; });
        if (ir::as<ir::LoadNode>(x)) ok = false;
    });
    return ok;
}

/// The hint of a kernel whose shared memory exceeds the target's limit: smaller tiles, or the
/// target with more shared memory when the kernel fits there (a Hopper-sized kernel compiled for
/// sm_80, tilec's default without a GPU, is not too big: it is for another target).
std::string sharedMemoryHint(const Target& target, size_t bytes) {
    std::string hint = "use smaller tiles or fewer pipeline stages";
    if (target.isHip()) return hint;
    for (const char* other : {"cuda:sm_90a"}) {
        auto t = parseTarget(other);
        if (t && t->arch() != target.arch() &&
            static_cast<size_t>(t->maxSharedBytesPerBlock()) >= bytes)
            return hint + ", or compile for a GPU with more shared memory: it fits " + other +
                   " (" + std::to_string(t->maxSharedBytesPerBlock()) +
                   " bytes per block; --target " + other + ")";
    }
    return hint;
}

/// A shared tile that only stages a T.atomic_add(..., use_tma=True) (TileLang's TMA reduce-add)
/// on a target without TMA: nothing else reads it, so the add reads it element by element (its
/// note says so) and the tile is shared memory spent for nothing. Named by the shared-memory
/// error: samples/mha_bwd.py with dq_tma=True on hip:gfx90a needed 66560 of 65536 bytes, 16384
/// of them its staging tile dq_s, and the error pointed at T.Kernel with "use smaller tiles"
/// (helper-95). The tile is the program's own (under `if dq_tma:`), so TileScope keeps it.
struct StagingTile {
    const ir::BufferNode* tile = nullptr;
    Span add;            ///< the T.atomic_add that reads it
    std::string from;    ///< the fragment one T.copy stages into it ("" if not that)
    int64_t bytes = 0;
};

std::optional<StagingTile> tmaOnlyStagingTile(const ir::PrimFuncNode& f, const Target& target) {
    if (target.hasWgmma()) return std::nullopt;
    std::map<const ir::BufferNode*, StagingTile> staged;
    std::set<const ir::BufferNode*> read;
    std::map<const ir::BufferNode*, std::vector<std::string>> writers;  // the sources of T.copy's into it
    ir::walk(
        f.body,
        [&](const ir::Stmt& st) {
            auto* t = ir::as<ir::TileOpNode>(st);
            if (!t) return;
            const ops::TileOp* op = ops::find(t->op);
            for (size_t i = 0; i < t->args.size(); ++i) {
                auto* r = std::get_if<ir::Region>(&t->args[i]);
                if (!r || r->buffer->scope != ir::Scope::Shared) continue;
                const ir::BufferNode* b = r->buffer.get();
                if (t->op == ir::TileOpKind::Atomic && i == 1 && ir::attrBool(t->attrs, "use_tma", false)) {
                    if (!staged.count(b)) staged[b] = {b, t->span, {}, 0};
                    continue;
                }
                if (!op || (op->access(*t, i) & ops::kRead)) read.insert(b);
                if (t->op == ir::TileOpKind::Copy && i == 1 && t->isRegion(0))
                    writers[b].push_back(t->region(0).buffer->scope == ir::Scope::Fragment ? t->region(0).buffer->name : std::string());
            }
        },
        [&](const ir::Expr& e) {
            if (auto* l = ir::as<ir::LoadNode>(e)) read.insert(l->buffer.get());
        });
    for (auto& [b, st] : staged) {
        if (read.count(b)) continue;
        auto shape = ir::constShape(*b);
        if (!shape) continue;
        st.bytes = ir::dtypeBytes(b->dtype);
        for (int64_t d : *shape) st.bytes *= d;
        if (auto w = writers.find(b); w != writers.end() && w->second.size() == 1) st.from = w->second[0];
        return st;
    }
    return std::nullopt;
}

/// Grid/block/smem and the tensor signature of the lowered kernel. `tileLevel`: the launch's
/// function before the passes (names a TMA-only staging tile in the shared-memory error).
/// The register-pressure hint: a fragment every thread holds whole (its layout replicates it over
/// the threads, as when a T.Parallel loop reads it along a dimension it does not split, in a
/// T.serial loop) does not shrink with more threads (helper-130 #6).
std::string replicatedHint(const ir::PrimFuncNode& f, const std::string& largest) {
    if (auto it = f.layouts.find(largest); it != f.layouts.end() && it->second && it->second->threads > 1) {
        const ir::LayoutNode& L = *it->second;
        int64_t elems = 1;
        for (int64_t e : L.shape) elems *= e;
        if (L.localSize >= elems)
            return "every thread holds all of '" + largest + "' (" + std::to_string(elems) +
                   " elements: its layout replicates it, because a T.Parallel loop reads it along a dimension the loop "
                   "does not split), so more threads do not help; keep it in a T.alloc_shared tile, from which each "
                   "thread reads only what it uses";
    }
    return "use smaller tiles or more threads per block";
}

bool kernelInfo(const ir::PrimFunc& f, const Target& target, KernelInfo& k,
                DiagnosticEngine& diags, const ir::PrimFuncNode* tileLevel = nullptr) {
    const ir::KernelNode* kn = ir::findKernel(f);
    if (!kn) {
        diags.error(f->span, "the prim_func has no `with T.Kernel(...)` block",
                    "wrap the body in `with T.Kernel(grid..., threads=N) as (bx, ...):`");
        return false;
    }
    for (size_t d = 0; d < 3; ++d) {
        k.grid[d] = 1, k.block[d] = 1;
        k.gridExtent[d] = nullptr;
        if (d < kn->grid.size() && !ir::constInt(kn->grid[d]) && dependsOnlyOn(kn->grid[d], *f)) {
            k.gridExtent[d] = kn->grid[d];  // computed from the scalar arguments at launch
        } else if (d < kn->grid.size()) {
            auto g = ir::constInt(kn->grid[d]);
            if (!g || *g <= 0 || *g > 0x7fffffff) {
                diags.error(kn->span,
                            "grid extent " + std::to_string(d) +
                                " must be a positive compile-time constant (got " +
                                ir::toString(kn->grid[d]) + ")",
                            "a grid extent may use compile-time values, symbolic sizes and "
                            "scalar parameters only");
                return false;
            }
            k.grid[d] = static_cast<unsigned>(*g);
        }
        if (d < kn->threads.size()) k.block[d] = static_cast<unsigned>(kn->threads[d]);
    }
    k.dynamicSmemBytes = static_cast<size_t>(ir::attrInt(f->attrs, "smem_bytes", 0));
    k.cooperative = ir::attrInt(f->attrs, "cooperative", 0) != 0;
    // Hardware limits: the target's (compiler/target/Target.h, with their sources).
    int64_t threads = int64_t(k.block[0]) * k.block[1] * k.block[2];
    if (threads > target.maxThreadsPerBlock() || threads <= 0) {
        diags.error(kn->span,
                    "T.Kernel: threads=" + std::to_string(threads) +
                        " is outside 1..1024 threads per block",
                    "use at most 1024 threads (e.g. threads=128 or 256)");
        return false;
    }
    if (auto g = codegen::linearizedGrid(*kn)) {
        // y or z above the limit: launched as one x extent, decoded by the kernel (GridShape.h).
        k.grid[0] = static_cast<unsigned>((*g)[0] * (*g)[1] * (*g)[2]);
        k.grid[1] = k.grid[2] = 1;
    }
    if (k.grid[1] > target.maxGridYZ() || k.grid[2] > target.maxGridYZ()) {
        diags.error(
            kn->span,
            "T.Kernel: grid (" + std::to_string(k.grid[0]) + ", " + std::to_string(k.grid[1]) +
                ", " + std::to_string(k.grid[2]) + ") exceeds 65535 blocks in y or z",
            "put the largest extent first (grid x allows 2^31-1 blocks) or use larger tiles");
        return false;
    }
    size_t smemLimit = static_cast<size_t>(target.maxSharedBytesPerBlock());
    if (k.dynamicSmemBytes > smemLimit) {
        if (auto st = tileLevel ? tmaOnlyStagingTile(*tileLevel, target) : std::nullopt) {
            const Span at = st->tile->span.valid() ? st->tile->span : kn->span;
            diags.error(at,
                        "shared memory: the kernel needs " + std::to_string(k.dynamicSmemBytes) + " bytes, more than the " +
                            std::to_string(smemLimit) + "-byte per-block limit of " + target.arch() + "; " +
                            std::to_string(st->bytes) + " of them are '" + st->tile->name +
                            "', which only stages the T.atomic_add(..., use_tma=True) at line " + std::to_string(st->add.line) +
                            ": " + target.arch() + " has no TMA (TileScope's TMA is cuda:sm_90a's), so that add is per-element "
                            "atomics and needs no shared tile",
                        (st->from.empty() ? std::string("T.atomic_add from the registers directly")
                                          : "T.atomic_add from '" + st->from + "' directly") +
                            " (no shared tile) on this target, or compile for cuda:sm_90a, whose TMA reduce-add reads '" +
                            st->tile->name + "'");
            return false;
        }
        diags.error(kn->span,
                    "shared memory: the kernel needs " + std::to_string(k.dynamicSmemBytes) +
                        " bytes, more than the " + std::to_string(smemLimit) +
                        "-byte per-block limit of " + target.arch(),
                    sharedMemoryHint(target, k.dynamicSmemBytes));
        return false;
    }
    for (auto& b : f->params) {
        // Tensors of more than 2^31-1 elements get int64 offsets (lower-to-threads); one index
        // is still an int, so a single dimension of 2^31 or more elements stays an error.
        for (const auto& ext : b->shape) {
            auto c = ir::constInt(ext);
            if (c && *c > int64_t(INT32_MAX)) {
                diags.error(b->span,
                            "tensor '" + b->name + "' has a dimension of " + std::to_string(*c) +
                                " elements, more than 2^31-1: indices are 32-bit",
                            "split that dimension (e.g. reshape into two)");
                return false;
            }
        }
    }
    // Per-thread arrays (lowered fragments and locals) past the register file spill to local
    // memory: Target::maxRegistersPerThread() 32-bit registers. Warp roles count apart
    // (analysis/LocalRegisters.h); ptxas's own figures follow the NVRTC compile.
    const analysis::LocalArrayPeak peak = analysis::peakLocalArrayBytes(*kn);
    if (peak.bytes > int64_t(target.maxRegistersPerThread()) * 4)
        diags.warning(
            kn->span,
            "per-thread arrays need " + std::to_string((peak.bytes + 3) / 4) +
                " 32-bit registers per thread (largest: '" + peak.largest + "', " +
                std::to_string((peak.largestBytes + 3) / 4) + "), more than the " +
                std::to_string(target.maxRegistersPerThread()) +
                " a thread can hold if they are live at once: " +
                (target.isHip() ? std::string("the compiler may spill to scratch memory")
                                : std::string("ptxas may spill to local memory (its own figures follow the NVRTC compile)")),
            replicatedHint(*f, peak.largest));
    k.args.clear();
    for (size_t i = 0; i < f->params.size(); ++i) {
        auto& b = *f->params[i];
        TensorArg a;
        a.name = b.name;
        a.dtype = b.dtype;
        a.span = b.span;
        a.isOutput = std::find(f->outputs.begin(), f->outputs.end(), static_cast<int>(i)) !=
                     f->outputs.end();
        for (auto& e : b.shape) {
            auto c = ir::constInt(e);
            a.shape.push_back(c ? *c : -1);
        }
        k.args.push_back(std::move(a));
    }
    k.tensorMaps.clear();
    for (int64_t i = 0; i < ir::attrInt(f->attrs, "tma_maps", 0); ++i) {
        // param, box inner, box outer, swizzle[, row dim]
        auto m = ir::attrInts(f->attrs, "tma_map." + std::to_string(i));
        if (m.size() == 4 || m.size() == 5) k.tensorMaps.push_back({int(m[0]), m[1], m[2], int(m[3]), m.size() == 5 ? int(m[4]) : -1});
    }
    k.scalars.clear();
    k.scalarVars = f->scalars;
    auto sources = ir::scalarSources(*f);
    for (size_t i = 0; i < f->scalars.size(); ++i) {
        ScalarArg s;
        s.name = f->scalars[i]->name;
        s.dtype = f->scalars[i]->dtype;
        s.span = f->scalars[i]->span;
        std::tie(s.tensor, s.dim) = sources[i];
        k.scalars.push_back(std::move(s));
    }
    return true;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> pipelinePasses(const Target& target) {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& p : pipelineFor(target)) out.push_back({p.name, p.summary});
    return out;
}

namespace {
/// The error for non-text input: a NUL byte means a binary file (an executable, an image, a
/// .pyc), other bytes a text file in another encoding. Never quotes the bytes themselves
/// (formatDiagnostic leaves out an excerpt that is not printable text).
void reportNonText(DiagnosticEngine& diags, const NonTextByte& n) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", n.byte);
    const std::string where = "line " + std::to_string(n.at.line) + ", column " +
                              std::to_string(n.at.col) + ", byte offset " +
                              std::to_string(n.offset);
    if (n.byte == 0)
        diags.error(n.at, "this is a binary file, not a tile program (a NUL byte at " + where + ")",
                    "tilec reads TileLang programs: Python source text (.py), e.g. samples/gemm.py",
                    "read");
    else
        diags.error(n.at,
                    "this file is not UTF-8 text (byte " + std::string(hex) +
                        " at " + where + " starts no valid UTF-8 character)",
                    "save the file as UTF-8 (tile programs are Python source text); a binary "
                    "file is not a tile program",
                    "read");
}

/// The front end reports a bad parameter override (unknown name, a tensor) at the factory's
/// `def`, as it does not know where the override was written. When the value came from the
/// file's `# tilescope:` pragma (ParamPragma.h), the pragma is where the user must fix it: move
/// such diagnostics (origin "params", naming the parameter in quotes) to the name in the pragma.
void pointAtPragma(std::vector<Diagnostic>& diags, const std::string& text,
                   const std::map<std::string, std::string>& params) {
    std::vector<PragmaParam> pragma;
    bool scanned = false;
    for (auto& d : diags) {
        if (d.origin != "params") continue;
        auto q = d.message.find('\'');
        auto q2 = q == std::string::npos ? q : d.message.find('\'', q + 1);
        if (q2 == std::string::npos) continue;
        const std::string name = d.message.substr(q + 1, q2 - q - 1);
        if (!scanned) pragma = paramPragmaEntries(text), scanned = true;
        auto it = params.find(name);
        for (auto p = pragma.rbegin(); p != pragma.rend(); ++p)
            // Only when the pragma's value is the one used (a --param override is not in the file).
            if (p->name == name && it != params.end() && it->second == p->value) {
                d.span = p->span;
                break;
            }
    }
}

/// Passes, codegen and launch facts of one launch (`f` has one T.Kernel block) into `r`: passes,
/// lowered, kernel, cuda, ok/cancelled. True when codegen ran without errors.
bool compileLaunch(const ir::PrimFunc& f, const Target& target, const CompileOptions& opts,
                   const std::vector<std::string>& skip,
                   const std::map<std::string, std::string>& scalarValues, DiagnosticEngine& diags,
                   CompileResult& r) {
    auto pipe = runPipeline(f, target, opts, diags, skip);
    r.passes = std::move(pipe.passes);
    r.lowered = pipe.lowered;
    r.passesMicros = pipe.micros;
    if (opts.cancel && opts.cancel->load()) {
        r.cancelled = true;
        return false;
    }
    if (!pipe.ok || pipe.stopped) {
        r.ok = pipe.ok && !diags.hasErrors();  // stopped on request: no codegen
        return false;
    }
    auto t2 = Clock::now();
    if (!kernelInfo(r.lowered, target, r.kernel, diags, f.get())) return false;
    for (auto& sc : r.kernel.scalars)  // launch values given with --param
        if (auto it = scalarValues.find(sc.name); it != scalarValues.end()) sc.value = it->second;
    // Target line: the printer of the target's language (both print the same lowered IR).
    auto cuda = target.isHip() ? codegen::emitHip(r.lowered, target, diags)
                               : codegen::emitCuda(r.lowered, target, diags);
    r.language = target.language();
    r.cuda = std::move(cuda.source);
    r.cudaLineSpans = std::move(cuda.lineSpans);
    r.kernel.name = cuda.kernelName;
    r.codegenMicros = since(t2);
    r.ok = !diags.hasErrors();
    return r.ok;
}

/// The whole function's view of a result with several launches (CompileResult::launches):
/// pass snapshots side by side, the first launch's lowered IR and launch facts with the
/// function's signature, and one translation unit holding every launch's kernel.
void mergeLaunches(CompileResult& r, const std::vector<ir::PrimFunc>& lowered,
                   const Target& target, DiagnosticEngine& diags) {
    const CompileResult& first = r.launches.front();
    r.passes = first.passes;
    for (size_t i = 1; i < r.launches.size(); ++i) {
        const auto& more = r.launches[i].passes;
        for (size_t p = 0; p < r.passes.size() && p < more.size(); ++p) {
            PassSnapshot& s = r.passes[p];
            if (!s.ir.empty() && s.ir.back() != '\n') s.ir += '\n', s.lines.push_back({});
            s.ir += more[p].ir;
            s.lines.insert(s.lines.end(), more[p].lines.begin(), more[p].lines.end());
            s.micros += more[p].micros;
            s.changed |= more[p].changed;
            s.failed |= more[p].failed;
            s.diagnostics.insert(s.diagnostics.end(), more[p].diagnostics.begin(),
                                 more[p].diagnostics.end());
        }
    }
    r.lowered = first.lowered;
    r.language = first.language;
    const bool allOk = std::all_of(r.launches.begin(), r.launches.end(),
                                   [](const CompileResult& l) { return l.ok && !l.cuda.empty(); });
    if (!allOk || r.cancelled) {
        r.ok = false;
        if (!r.cancelled && !diags.hasErrors())  // --stop-after: every launch stopped there
            r.ok = std::all_of(r.launches.begin(), r.launches.end(),
                               [](const CompileResult& l) { return l.ok; });
        return;
    }
    r.kernel = first.kernel;
    for (size_t i = 0; i < r.kernel.args.size(); ++i)
        r.kernel.args[i].isOutput = std::find(r.elaborated->outputs.begin(),
                                              r.elaborated->outputs.end(),
                                              static_cast<int>(i)) != r.elaborated->outputs.end();
    // Each launch was printed alone above (its diagnostics reported once); the shared unit
    // prints them again together.
    DiagnosticEngine again;
    auto unit = codegen::emitDeviceCppLaunches(
        lowered, target.isHip() ? codegen::DeviceDialect::Hip : codegen::DeviceDialect::Cuda,
        again);
    r.cuda = unit.source;
    r.cudaLineSpans = unit.lineSpans;
    for (size_t i = 0; i < r.launches.size() && i < unit.kernelNames.size(); ++i) {
        r.launches[i].kernel.name = unit.kernelNames[i];
        r.launches[i].cuda = unit.source;
        r.launches[i].cudaLineSpans = unit.lineSpans;
    }
    r.kernel.name = unit.kernelName;
    r.ok = !diags.hasErrors();
}

// A CUDA target past sm_80 without wgmma is legal but not what an H100/H200 user means: say
// what the kernel's gemms and copies become instead of leaving them silently on the sm_80 path.
// Every TMA, wgmma and mbarrier-pipeline path is gated on hasWgmma() (sm_90a only), so these
// targets get no TMA either, although sm_90 hardware has it. The consequence leads the message:
// the IDE's Problems column shows only its start. Each part only for what the kernel would gain
// on cuda:sm_90a (a fresh user got "every T.gemm takes mma.sync" for a kernel without one, and
// "wgmma and setmaxnreg need sm_90a" for a kernel of copies, some of which would not take TMA on
// sm_90a either): the gemm part for a T.gemm, the TMA part for a T.copy between global memory and
// a shared tile that TMA could do on sm_90a (tmaLoadWhyNot / tmaStoreWhyNot there, the tile
// row-major: the rules of the copy's shape, dtype and tensor) or, in a kernel with a T.gemm, from
// a fragment to global memory (sm_90a's staged epilogue ends in a TMA store); no note for a
// kernel with neither. The explanation names only the instructions of those parts.
void noteTargetWithoutHopperPath(const Target& target, const ir::PrimFuncNode& f, DiagnosticEngine& diags) {
    if (target.isHip() || target.smVersion < 90 || target.hasWgmma()) return;
    const auto sm90a = parseTarget("cuda:sm_90a");
    bool gemm = false, fragmentStore = false;
    int tmaCopies = 0;
    uint32_t firstTmaLine = 0;
    ir::walk(f.body, [&](const ir::Stmt& s) {
        auto* t = ir::as<ir::TileOpNode>(s);
        if (!t) return;
        if (t->op == ir::TileOpKind::Gemm) gemm = true;
        if (t->op != ir::TileOpKind::Copy || t->args.size() < 2 || !t->isRegion(0) || !t->isRegion(1)) return;
        const ir::Scope from = t->region(0).buffer->scope, to = t->region(1).buffer->scope;
        if (from == ir::Scope::Fragment && to == ir::Scope::Global) fragmentStore = true;
        const bool load = from == ir::Scope::Global && to == ir::Scope::Shared, store = from == ir::Scope::Shared && to == ir::Scope::Global;
        if (!(load || store) || !sm90a) return;
        const std::string& tile = t->region(load ? 1 : 0).buffer->name;
        auto it = f.layouts.find(tile);
        const ir::Layout layout = it == f.layouts.end() ? nullptr : it->second;
        const std::string why = load ? xform::tmaLoadWhyNot(f, *t, layout, *sm90a, nullptr)
                                     : xform::tmaStoreWhyNot(f, *t, layout, *sm90a, nullptr, nullptr);
        if (!why.empty()) return;
        if (tmaCopies++ == 0) firstTmaLine = t->span.line;
    });
    const bool tma = tmaCopies > 0 || (gemm && fragmentStore);
    if (!gemm && !tma) return;
    const std::string t = target.name;
    const std::string path = std::string(": ") + (gemm ? "every T.gemm takes mma.sync" : "") + (gemm && tma ? " and " : "") +
                             (tma ? "no copy takes TMA (cp.async and plain loads and stores" : "") +
                             (tma ? ", as on cuda:sm_80)" : " (as on cuda:sm_80)");
    // What cuda:sm_90a would do with the kernel's copies, when they are all it would change.
    const std::string copiesThere =
        gemm ? std::string()
             : "; on cuda:sm_90a " + (tmaCopies == 1 ? std::string("its copy") : std::to_string(tmaCopies) + " of its copies") +
                   " (line " + std::to_string(firstTmaLine) + (tmaCopies == 1 ? "" : " first") + ") would take TMA";
    if (target.smVersion == 90)
        diags.add({Severity::Note, {},
                   t + path +
                       (gemm && tma ? ": TileScope generates its Hopper path (wgmma, TMA, setmaxnreg) for the architecture-specific "
                                      "cuda:sm_90a only, which wgmma and setmaxnreg need (PTX ISA, Target ISA notes: \"requires sm_90a\")"
                        : gemm      ? ": TileScope generates wgmma for the architecture-specific cuda:sm_90a only, which wgmma needs "
                                      "(PTX ISA, Target ISA notes: \"requires sm_90a\")"
                                    : ": TileScope generates TMA for cuda:sm_90a only (the chip has TMA on sm_90 too, but TileScope's "
                                      "TMA code is its sm_90a path's)" + copiesThere),
                   "on an H100/H200, compile for cuda:sm_90a", "target"});
    else
        diags.add({Severity::Note, {},
                   t + path + ": TileScope has no path of its own for this GPU; " +
                       (gemm ? "its Hopper path (wgmma, TMA) is generated for cuda:sm_90a only, and this generation's tensor-core "
                               "instructions (tcgen05 on sm_100) not at all"
                             : "its TMA copies are generated for cuda:sm_90a only" + copiesThere),
                   gemm ? "the H100/H200 path is cuda:sm_90a; gemms for newer chips are not generated yet"
                        : "the H100/H200 path is cuda:sm_90a",
                   "target"});
}

std::atomic<CompileObserver> g_observer{nullptr};

CompileResult compileUnobserved(const std::string& path, const std::string& text,
                                const CompileOptions& opts) {
    CompileResult r;
    DiagnosticEngine diags;
    r.source = std::make_shared<SourceFile>(path, text);
    std::vector<fe::MacroCall> macroCalls;  // the front end's, for later passes' errors in macro bodies
    auto finish = [&]() -> CompileResult& {
        auto all = diags.take();
        pointAtPragma(all, text, opts.params);
        fe::nameMacroCalls(all, macroCalls);
        r.diagnostics = capErrors(std::move(all), 50);
        return r;
    };
    if (auto bad = firstNonTextByte(text)) {
        reportNonText(diags, *bad);
        return finish();
    }
    auto target = parseTarget(opts.target);
    if (!target) {
        diags.error({}, "unknown target '" + opts.target + "'",
                    "use cuda:sm_80, cuda:sm_90a or hip:gfx90a");
        return finish();
    }
    if (std::string sw = describeCodegenSwitches(); !sw.empty())
        diags.add({Severity::Note, {}, "compiled with codegen switches from the environment: " + sw,
                   "these measurement switches change the generated code; unset them for TileScope's default code",
                   "environment"});
    std::map<std::string, std::string> scalarValues;
    try {
        // --- front end ---------------------------------------------------------------------
        auto t0 = Clock::now();
        // The program's kernels first (DESIGN.md §2b): listed even when the selected one fails.
        auto mod = fe::Module::analyze(r.source, diags);
        fe::setDeviceTarget(mod->interp(), *target);  // driver.get_num_sms() etc. (MetaDevice.h)
        r.module = mod;
        r.kernels = programKernels(*mod);
        if (diags.hasErrors()) return finish();
        const fe::KernelEntry* entry =
            mod->selectEntry(opts.kernel, diags, kernelNameSpan(text, opts.kernel));
        if (!entry) return finish();
        r.selectedKernel = programKernelIndex(r.kernels, *entry);
        auto fr =
            fe::runFrontend(mod, *entry, overridesFor(*mod, *entry, opts.params, text), diags);
        if (fr.entry) {
            for (auto& p : fr.entry->params) {
                if (!p.settable()) continue;
                FactoryParam fp;
                fp.name = p.name;
                fp.span = p.span;
                if (p.defaultValue) fp.defaultValue = reprOf(*p.defaultValue);
                fp.overridden = opts.params.count(p.name) > 0;
                if (auto* v = fe::findParam(fr.params, p.name)) fp.value = reprOf(*v);
                r.params.push_back(std::move(fp));
            }
        }
        scalarValues = fr.scalarValues;
        r.flops = fr.flops;
        r.bytes = fr.bytes;
        r.elaborated = fr.func;
        macroCalls = fr.macroCalls;
        r.frontendMicros = since(t0);
        if (!r.elaborated || diags.hasErrors()) return finish();
        noteTargetWithoutHopperPath(*target, *r.elaborated, diags);

        // --- passes and codegen, per launch ------------------------------------------------
        std::vector<std::string> skip;
        if (disablesStorageSync(entry->passConfigs)) {
            skip.push_back("insert-sync");
            // The tile-level interpreter then orders shared accesses by the kernel's own barriers
            // only (ThreadMachine::m_autoSync).
            auto f = std::make_shared<ir::PrimFuncNode>(*r.elaborated);
            f->attrs["user_barriers_only"] = int64_t(1);
            r.elaborated = f;
        }
        if (disablesTmaLower(entry->passConfigs)) {
            // Every TMA choice reads it through tmaDisabledWhy (Hopper.h); the staged epilogue,
            // which exists only to end in a TMA store, is not even tried.
            skip.push_back("stage-epilogue");
            auto f = std::make_shared<ir::PrimFuncNode>(*r.elaborated);
            f->attrs["tma_lower_disabled"] = int64_t(1);
            r.elaborated = f;
        }
        if (kernelBlockCount(r.elaborated) < 2) {
            compileLaunch(r.elaborated, *target, opts, skip, scalarValues, diags, r);
            return finish();
        }
        // Several T.Kernel blocks: one launch each, in order (KernelLaunches.h).
        std::vector<ir::PrimFunc> lowered;
        for (const ir::PrimFunc& block : splitKernelBlocks(r.elaborated)) {
            CompileResult part;
            part.source = r.source;
            part.module = r.module;
            part.kernels = r.kernels;
            part.selectedKernel = r.selectedKernel;
            part.params = r.params;
            part.flops = r.flops, part.bytes = r.bytes;
            part.elaborated = block;
            const bool done = compileLaunch(block, *target, opts, skip, scalarValues, diags, part);
            r.passesMicros += part.passesMicros;
            r.codegenMicros += part.codegenMicros;
            r.cancelled = part.cancelled;
            const bool stop = !done && (!part.ok || part.cancelled);  // --stop-after goes on
            lowered.push_back(part.lowered);
            r.launches.push_back(std::move(part));
            if (stop) break;
        }
        mergeLaunches(r, lowered, *target, diags);
    } catch (const CompileError& e) {
        diags.add(e.diag);
    } catch (const std::exception& e) {
        diags.error({}, std::string("internal compiler error: ") + e.what(),
                    "please report this with the input file");
    }
    return finish();
}

}  // namespace

std::vector<const CompileResult*> launchesOf(const CompileResult& r) {
    if (r.launches.empty()) return {&r};
    std::vector<const CompileResult*> out;
    for (const CompileResult& l : r.launches) out.push_back(&l);
    return out;
}

CompileObserver setCompileObserver(CompileObserver observer) { return g_observer.exchange(observer); }

CompileResult compile(const std::string& path, const std::string& text, const CompileOptions& opts) {
    CompileResult r = compileUnobserved(path, text, opts);
    if (auto* observe = g_observer.load(); observe && r.ok && !r.cuda.empty()) observe(path, text, opts, r);
    return r;
}

std::vector<ProgramKernel> listKernels(const std::string& path, const std::string& text,
                                       std::vector<Diagnostic>* diagnostics) {
    DiagnosticEngine diags;
    std::vector<ProgramKernel> out;
    if (auto bad = firstNonTextByte(text)) {
        reportNonText(diags, *bad);
        if (diagnostics) *diagnostics = diags.take();
        return out;
    }
    try {
        auto mod = fe::Module::analyze(std::make_shared<SourceFile>(path, text), diags);
        out = programKernels(*mod);
    } catch (const CompileError& e) {
        diags.add(e.diag);
    } catch (const std::exception& e) {
        diags.error({}, std::string("internal compiler error: ") + e.what(),
                    "please report this with the input file");
    }
    if (diagnostics) *diagnostics = diags.take();
    return out;
}

}  // namespace ts
