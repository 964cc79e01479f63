// The float64 reference for tilec run/bench: the file's ref_program (or the function --ref /
// the pragma's @ref names) through profiler/check.
#include "app/cli/CliCommon.h"

#include <algorithm>
#include <iostream>

#include "compiler/frontend/MetaValue.h"
#include "compiler/frontend/Module.h"
#include "compiler/frontend/Parser.h"
#include "compiler/support/SourceReader.h"
#include "compiler/support/ParamPragma.h"
#include "profiler/check/Reference.h"

namespace ts::cli {

std::string referenceName(const CompileResult& r, const std::string& flag) {
    if (!flag.empty() || !r.source) return flag;
    return pragmaSetting(parseParamPragma(r.source->text()), kPragmaRef);
}

bool hasReference(const CompileResult& r, const std::string& refName) {
    if (!r.module) return false;
    if (!refName.empty()) return true;
    // The implicit ref_program belongs to the file's default kernel: in a multi-kernel file the
    // other kernels (a backward pass, a preprocess step) take other inputs.
    const ProgramKernel* k = r.selected();
    if (k && !k->isDefault) return false;
    return rt::findReferenceProgram(*r.module->ast()) != nullptr;
}

std::vector<rt::ReferenceScalar> referenceScalars(const KernelInfo& k,
                                                  const std::vector<double>& values) {
    // By name only: a reference parameter named like the scalar takes it. Symbolic sizes come
    // from tensor shapes and are not arguments of their own.
    std::vector<rt::ReferenceScalar> out;
    for (size_t i = 0; i < k.scalars.size() && i < values.size(); ++i) {
        const ScalarArg& s = k.scalars[i];
        if (s.tensor >= 0) continue;
        out.push_back({s.name, values[i], !ir::isFloat(s.dtype), std::nullopt});
    }
    return out;
}

namespace {
/// Keeps the inputs named in `names` (--ref-inputs), in that order: tensors (`inputs`, named by
/// `inputNames`) and by-value scalars (`scalars`, renumbered). False with `why` on an unknown name.
bool selectInputs(const KernelInfo& k, const std::vector<std::string>& names,
                  std::vector<HostTensor>& inputs, std::vector<std::string>& inputNames,
                  std::vector<rt::ReferenceScalar>& scalars, std::string& why) {
    std::vector<std::string> scalarNames;
    for (const ScalarArg& s : k.scalars)
        if (s.tensor < 0) scalarNames.push_back(s.name);
    std::vector<HostTensor> pickedTensors;
    std::vector<rt::ReferenceScalar> pickedScalars = scalars;  // by name, as without the list
    for (size_t pos = 0; pos < names.size(); ++pos) {
        const std::string& n = names[pos];
        auto t = std::find(inputNames.begin(), inputNames.end(), n);
        if (t != inputNames.end()) {
            pickedTensors.push_back(inputs[size_t(t - inputNames.begin())]);
            continue;
        }
        auto sn = std::find(scalarNames.begin(), scalarNames.end(), n);
        if (sn != scalarNames.end() && size_t(sn - scalarNames.begin()) < scalars.size()) {
            pickedScalars[size_t(sn - scalarNames.begin())].position = pos;
            continue;
        }
        std::string all;
        for (auto& x : inputNames) all += (all.empty() ? "" : ", ") + x;
        for (auto& x : scalarNames) all += (all.empty() ? "" : ", ") + x;
        why = "--ref-inputs: the kernel has no input '" + n + "' (inputs: " + all + ")";
        return false;
    }
    inputs = std::move(pickedTensors);
    scalars = std::move(pickedScalars);
    return true;
}
}  // namespace

std::optional<ReferenceTarget> referenceTarget(const CompileResult& r, const std::string& refName,
                                               std::string& why) {
    why.clear();
    ReferenceTarget t;
    t.source = r.source;
    t.name = refName.empty() ? std::string("ref_program") : refName;
    if (r.module) t.ast = r.module->ast();
    // `--ref FILE::NAME`: a function of another file, as `--chain` takes it (a user's own float64
    // reference beside a TileLang file that checks inline in main()).
    if (auto sep = refName.find("::"); sep != std::string::npos) {
        const std::string path = refName.substr(0, sep);
        t.name = refName.substr(sep + 2);
        if (path.empty() || t.name.empty()) {  // helper-132 #5: "--ref ::f" said ": no such file"
            why = "--ref " + refName + ": FILE::NAME needs both a file and a function name (e.g. --ref refs.py::ref_program)";
            return std::nullopt;
        }
        auto text = readSourceFile(path);
        if (!text.ok()) {
            why = "--ref " + refName + ": " + path + ": " + text.error;
            return std::nullopt;
        }
        t.source = std::make_shared<SourceFile>(path, std::move(text.text));
        DiagnosticEngine diags;
        t.ast = fe::parseModule(t.source, diags);
        if (diags.hasErrors() || !t.ast) {
            for (auto& d : diags.all()) why += formatDiagnostic(d, t.source.get());
            if (why.empty()) why = "--ref " + refName + ": " + path + " does not parse";
            return std::nullopt;
        }
    }
    if (!t.ast) return std::nullopt;
    if (!rt::findReferenceProgram(*t.ast, t.name)) {
        auto names = rt::referenceCandidates(*t.ast);
        std::string list, near = fe::closestMatch(t.name, names);
        for (auto& n : names) list += (list.empty() ? "" : ", ") + n;
        why = "--ref: no function '" + t.name + "' in " + t.source->path() +
              (near.empty() ? std::string() : " (did you mean '" + near + "'?)") +
              (list.empty() ? std::string("; the file defines no functions")
                            : "; functions: " + list) +
              "\n  hint: a nested function is named by its path, e.g. run_gemm.ref_program; "
              "one of another file by FILE::NAME";
        return std::nullopt;
    }
    return t;
}

std::optional<std::vector<HostTensor>> referenceOutputs(const CompileResult& r,
                                                        const std::vector<HostTensor>& tensors,
                                                        std::string& why,
                                                        const std::string& refName,
                                                        const ReferenceExtras& extras) {
    why.clear();
    if (!hasReference(r, refName)) return std::nullopt;
    auto target = referenceTarget(r, refName, why);
    if (!target) return std::nullopt;
    rt::ReferenceOptions opt;
    if (!refName.empty()) opt.functionName = target->name;
    std::vector<HostTensor> inputs;
    std::vector<std::string> inputNames;
    auto isInput = [&](size_t i) {  // an input, or an in-place output (its initial value)
        const auto& a = r.kernel.args[i];
        return !a.isOutput ||
               std::find(extras.inout.begin(), extras.inout.end(), a.name) != extras.inout.end();
    };
    for (size_t i = 0; i < tensors.size() && i < r.kernel.args.size(); ++i)
        if (isInput(i)) {
            inputs.push_back(tensors[i]);
            inputNames.push_back(r.kernel.args[i].name);
        }
    rt::ReferenceCall call;
    call.scalars = referenceScalars(r.kernel, extras.scalars);
    call.namedValues = extras.namedValues;
    for (size_t i = 0; i < tensors.size() && i < r.kernel.args.size(); ++i)
        if (isInput(i)) call.namedInputs.emplace_back(r.kernel.args[i].name, &tensors[i]);
    if (!extras.inputs.empty() && !selectInputs(r.kernel, extras.inputs, inputs, inputNames,
                                                call.scalars, why))
        return std::nullopt;
    std::map<std::string, std::string> params;
    for (auto& p : r.params) params[p.name] = p.value;
    auto res = rt::evalReference(*target->ast, params, inputs, opt, call);
    for (auto& d : res.diagnostics)
        if (d.severity == Severity::Warning) std::cerr << formatDiagnostic(d, target->source.get());
    if (!res.ok) {
        for (auto& d : res.diagnostics)
            if (d.severity == Severity::Error) why += formatDiagnostic(d, target->source.get());
        if (why.empty()) why = opt.functionName + " failed";
        return std::nullopt;
    }
    return res.outputs;
}

}  // namespace ts::cli
