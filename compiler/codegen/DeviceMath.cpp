#include "compiler/codegen/DeviceMath.h"

#include "compiler/ir/MathLib.h"

namespace ts::codegen {

namespace {
std::string callText(const std::string& fn, const std::vector<std::string>& args) {
    std::string s = fn + "(";
    for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
    return s + ")";
}
}  // namespace

std::string deviceMathCall(const std::string& op, bool f64, const std::vector<std::string>& args, DeviceDialect dialect,
                           std::string* error) {
    const char* lang = dialect == DeviceDialect::Hip ? "HIP" : "CUDA";
    if (op == "sigmoid")
        return f64 ? "(1.0 / (1.0 + exp(-" + args.at(0) + ")))" : "(1.0f / (1.0f + expf(-" + args.at(0) + ")))";
    // float64 calls compute in double (T.abs of 1 + 2^-40 was 1; helper-112).
    if (op == "abs") return callText(f64 ? "fabs" : "fabsf", args);
    if (const ir::MathFn* f = ir::findMathFn(op)) return callText(std::string(f64 ? f->cudaDouble : f->cudaFloat), args);
    std::string mode;
    if (const ir::IeeeOp* o = ir::parseIeeeCall(op, &mode)) {
        if (dialect == DeviceDialect::Hip && mode != "rn") {
            *error = "codegen: T." + std::string(o->name) + " with rounding mode '" + mode +
                     "' has no HIP intrinsic (HIP has the _rn forms only): use \"rn\", or compile for a CUDA target";
            return {};
        }
        return callText(std::string(f64 ? o->cudaDouble : o->cudaFloat) + mode, args);
    }
    *error = "codegen: unsupported call '" + op + "' for " + lang;
    return {};
}

}  // namespace ts::codegen
