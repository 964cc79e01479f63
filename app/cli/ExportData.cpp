// Check data of an exported project (ExportData.h).
#include "app/cli/ExportData.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "compiler/LaunchArgs.h"
#include "compiler/frontend/Module.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/ir/DType.h"
#include "profiler/check/Compare.h"
#include "profiler/check/Inputs.h"
#include "profiler/check/Reference.h"

namespace ts::cli {
namespace {

namespace fs = std::filesystem;

bool writeBytes(const fs::path& p, const void* data, size_t n, std::string* error) {
    std::ofstream f(p, std::ios::binary);
    f.write(static_cast<const char*>(data), std::streamsize(n));
    f.close();
    if (!f) {
        if (error) *error = "cannot write " + p.string();
        return false;
    }
    return true;
}

/// The file's ref_program outputs for `tensors` (inputs with data, outputs without), or nullopt
/// when the kernel has none (a non-default kernel of a multi-kernel file does not use it).
std::optional<std::vector<HostTensor>> refProgramOutputs(const CompileResult& r,
                                                         const std::vector<HostTensor>& tensors,
                                                         std::string* error) {
    if (!r.module) return std::nullopt;
    const ProgramKernel* k = r.selected();
    if (k && !k->isDefault) return std::nullopt;
    if (!rt::findReferenceProgram(*r.module->ast())) return std::nullopt;
    std::vector<HostTensor> inputs;
    for (size_t i = 0; i < tensors.size(); ++i)
        if (!r.kernel.args[i].isOutput) inputs.push_back(tensors[i]);
    std::map<std::string, std::string> params;
    for (const auto& p : r.params) params[p.name] = p.value;
    auto res = rt::evalReference(*r.module->ast(), params, inputs);
    if (!res.ok) {
        if (error) {
            *error = "ref_program failed";
            for (const auto& d : res.diagnostics)
                if (d.severity == Severity::Error) *error += ": " + d.message;
        }
        return std::vector<HostTensor>{};  // empty = failed (distinct from "none")
    }
    return res.outputs;
}

std::optional<std::vector<HostTensor>> interpreterOutputs(const CompileResult& r,
                                                          std::vector<HostTensor> args,
                                                          std::string* error) {
    for (size_t i = 0; i < args.size(); ++i)
        if (r.kernel.args[i].isOutput && !args[i].hasData())
            args[i].data.assign(size_t(args[i].numel()), std::nan(""));
    auto res = interp::run(r.elaborated, args);
    if (!res.ok) {
        if (error)
            *error = "the interpreter failed: " +
                     (res.error ? res.error->message : std::string("no diagnostic"));
        return std::nullopt;
    }
    std::vector<HostTensor> outs;
    for (size_t i = 0; i < args.size(); ++i)
        if (r.kernel.args[i].isOutput) outs.push_back(std::move(args[i]));
    return outs;
}

}  // namespace

bool writeExportData(const CompileResult& r, const std::string& dir, ExportData& out,
                     std::string* error) {
    const KernelInfo& k = r.kernel;
    if (!k.scalars.empty()) {
        if (error)
            *error = "kernel " + k.name +
                     " takes scalar arguments (symbolic sizes or scalars): the export launcher "
                     "needs fixed sizes; give the sizes as factory parameters instead";
        return false;
    }
    std::vector<rt::TensorParam> sig;
    std::vector<ir::DType> argTypes;
    for (const auto& a : k.args) {
        if (a.isOutput && ir::dtypeBits(a.dtype) < 8) {
            if (error)
                *error = "output " + a.name + " is " + std::string(ir::dtypeName(a.dtype)) +
                         " (packed below a byte): the export's check cannot read it";
            return false;
        }
        sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
        argTypes.push_back(a.dtype);
    }
    rt::InputSet set;
    try {
        set = rt::makeInputs(sig, {});
    } catch (const std::exception& e) {
        if (error) *error = std::string("cannot make inputs: ") + e.what();
        return false;
    }
    out = {};
    out.seed = set.seed;
    out.args.resize(k.args.size());
    if (r.elaborated)
        for (int i : atomicOnlyOutputs(*r.elaborated)) {
            set.tensors[size_t(i)].data.assign(size_t(set.tensors[size_t(i)].numel()), 0.0);
            out.args[size_t(i)].zeroStart = true;
        }

    std::string why;
    auto refs = refProgramOutputs(r, set.tensors, &why);
    const bool exact = refs.has_value();
    if (refs && refs->empty()) {
        if (error) *error = why;
        return false;
    }
    out.referenceLabel = exact ? "ref_program (float64)" : "the tile-level interpreter";
    if (!refs) refs = interpreterOutputs(r, set.tensors, &why);
    if (!refs) {
        if (error) *error = why;
        return false;
    }

    fs::path data = fs::path(dir) / "data";
    std::error_code ec;
    fs::create_directories(data, ec);
    if (ec) {
        if (error) *error = "cannot create " + data.string() + ": " + ec.message();
        return false;
    }
    size_t outIndex = 0;
    for (size_t i = 0; i < k.args.size(); ++i) {
        const TensorArg& a = k.args[i];
        ExportArgData& d = out.args[i];
        if (!a.isOutput || d.zeroStart) {
            d.file = "data/" + a.name + ".bin";
            std::vector<uint8_t> bytes = encode(set.tensors[i]);
            if (!writeBytes(fs::path(dir) / d.file, bytes.data(), bytes.size(), error))
                return false;
        }
        if (!a.isOutput) continue;
        if (outIndex >= refs->size() || (*refs)[outIndex].numel() != set.tensors[i].numel()) {
            if (error) *error = "the reference does not match output " + a.name;
            return false;
        }
        const HostTensor& ref = (*refs)[outIndex++];
        std::vector<float> values(ref.data.begin(), ref.data.end());
        d.refFile = "data/" + a.name + ".ref.f32";
        if (!writeBytes(fs::path(dir) / d.refFile, values.data(), values.size() * sizeof(float),
                        error))
            return false;
        d.tolerance = ir::isFloat(a.dtype) ? (exact ? rt::referenceTolerance(a.dtype, argTypes)
                                                    : rt::defaultTolerance(a.dtype))
                                           : 0.0;
    }
    return true;
}

}  // namespace ts::cli
