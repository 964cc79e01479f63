// The float64 reference for tilec run/bench: the file's ref_program (or the function --ref /
// the pragma's @ref names) through profiler/check.
#include "app/cli/CliCommon.h"
#include "compiler/frontend/MetaValue.h"
#include "compiler/frontend/Module.h"
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

std::optional<std::vector<HostTensor>> referenceOutputs(const CompileResult& r,
                                                        const std::vector<HostTensor>& tensors,
                                                        std::string& why,
                                                        const std::string& refName) {
    why.clear();
    if (!hasReference(r, refName)) return std::nullopt;
    rt::ReferenceOptions opt;
    if (!refName.empty()) {
        opt.functionName = refName;
        if (!rt::findReferenceProgram(*r.module->ast(), refName)) {
            auto names = rt::referenceCandidates(*r.module->ast());
            std::string list, near = fe::closestMatch(refName, names);
            for (auto& n : names) list += (list.empty() ? "" : ", ") + n;
            why = "--ref: no function '" + refName + "' in " + r.source->path() +
                  (near.empty() ? std::string() : " (did you mean '" + near + "'?)") +
                  (list.empty() ? std::string("; the file defines no functions")
                                : "; functions: " + list) +
                  "\n  hint: a nested function is named by its path, e.g. run_gemm.ref_program";
            return std::nullopt;
        }
    }
    std::vector<HostTensor> inputs;
    for (size_t i = 0; i < tensors.size() && i < r.kernel.args.size(); ++i)
        if (!r.kernel.args[i].isOutput) inputs.push_back(tensors[i]);
    std::map<std::string, std::string> params;
    for (auto& p : r.params) params[p.name] = p.value;
    auto res = rt::evalReference(*r.module->ast(), params, inputs, opt);
    if (!res.ok) {
        for (auto& d : res.diagnostics)
            if (d.severity == Severity::Error) why += formatDiagnostic(d, r.source.get());
        if (why.empty()) why = opt.functionName + " failed";
        return std::nullopt;
    }
    return res.outputs;
}

}  // namespace ts::cli
