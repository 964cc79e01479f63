#include "compiler/codegen/DeviceMath.h"

#include <map>

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
    // T.exp2 is ex2.approx.ftz (1 MUFU.EX2): exp2f is the same instruction plus a range test and
    // two multiplies per call to keep results below 2^-126 subnormal (4 instructions instead of 1
    // in FlashAttention's softmax, 128x128 tile: ~190 of its ~540 per thread and tile). Results
    // under 2^-126 become 0 (as under nvcc --use_fast_math); the interpreters' tolerances hold.
    static const std::map<std::string, std::string> kCore = {
        {"exp", "expf"}, {"exp2", "ts::exp2f_fast"}, {"log", "logf"}, {"log2", "log2f"}, {"sqrt", "sqrtf"}, {"rsqrt", "rsqrtf"},
        {"tanh", "tanhf"}, {"abs", "fabsf"}, {"sin", "sinf"}, {"cos", "cosf"}, {"floor", "floorf"}, {"ceil", "ceilf"},
    };
    if (op == "sigmoid")
        return f64 ? "(1.0 / (1.0 + exp(-" + args.at(0) + ")))" : "(1.0f / (1.0f + expf(-" + args.at(0) + ")))";
    // float64 calls compute in double (T.abs of 1 + 2^-40 was 1; helper-112): the double
    // function of the same name (exp2 the precise one).
    if (auto it = kCore.find(op); it != kCore.end()) return callText(f64 ? (op == "abs" ? std::string("fabs") : op) : it->second, args);
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
