// The float64 reference for tilec run/bench: the file's ref_program through profiler/check.
#include "app/cli/CliCommon.h"
#include "compiler/frontend/Module.h"
#include "profiler/check/Reference.h"

namespace ts::cli {

std::optional<std::vector<HostTensor>> referenceOutputs(const CompileResult& r,
                                                        const std::vector<HostTensor>& tensors,
                                                        std::string& why) {
    why.clear();
    if (!r.module || !rt::findReferenceProgram(*r.module->ast())) return std::nullopt;
    std::vector<HostTensor> inputs;
    for (size_t i = 0; i < tensors.size() && i < r.kernel.args.size(); ++i)
        if (!r.kernel.args[i].isOutput) inputs.push_back(tensors[i]);
    std::map<std::string, std::string> params;
    for (auto& p : r.params) params[p.name] = p.value;
    auto res = rt::evalReference(*r.module->ast(), params, inputs);
    if (!res.ok) {
        for (auto& d : res.diagnostics)
            if (d.severity == Severity::Error) why += formatDiagnostic(d, r.source.get());
        if (why.empty()) why = "ref_program failed";
        return std::nullopt;
    }
    return res.outputs;
}

}  // namespace ts::cli
