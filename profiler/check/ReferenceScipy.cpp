// scipy.linalg.hadamard for references (ReferenceScipy.h).
#include "profiler/check/ReferenceScipy.h"

#include "compiler/frontend/MetaEval.h"
#include "profiler/check/ReferenceTorch.h"
#include "profiler/check/ReferenceValue.h"

namespace ts::rt {

using fe::CallArgs;
using fe::Interp;
using fe::Value;

namespace {

/// scipy.linalg.hadamard(n, dtype=int): the n x n matrix H with H[i][j] = (-1)^popcount(i & j)
/// (Sylvester's construction, which is how scipy builds it); n must be a power of 2.
Value hadamardFn(Interp&, CallArgs& a) {
    auto b = a.bind({"n", "dtype"}, 1);
    const int64_t n = argInt(b[0], b.spans[0], "scipy.linalg.hadamard n");
    if (n < 1 || (n & (n - 1)) != 0)
        throw CompileError(b.spans[0],
                           "ref_program: scipy.linalg.hadamard: n must be a positive "
                           "power of 2, got " +
                               std::to_string(n));
    if (n > 65536)
        throw CompileError(b.spans[0],
                           "ref_program: scipy.linalg.hadamard: n = " + std::to_string(n) +
                               " is too large for the host "
                               "reference (at most 65536)");
    ir::DType t = ir::DType::Int64;  // scipy's default dtype=int
    if (b.has(1)) {
        const Value& d = b[1];
        // dtype=float / dtype=int: Python's builtins (numpy reads them as float64 / int64).
        if (d.is(fe::ValueKind::Builtin) && d.builtinObj().name == "float")
            t = ir::DType::Float64;
        else if (d.is(fe::ValueKind::Builtin) && d.builtinObj().name == "int")
            t = ir::DType::Int64;
        else if (auto dt = argDType(d, b.spans[1]))
            t = *dt;
    }
    std::vector<double> v(static_cast<size_t>(n * n));
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            v[static_cast<size_t>(i * n + j)] =
                __builtin_popcountll(uint64_t(i & j)) % 2 ? -1.0 : 1.0;
    return wrap(makeArray(t, {n, n}, std::move(v)));
}

}  // namespace

void registerScipy(fe::Interp& in) {
    auto linalg = in.registerModule("scipy.linalg");
    linalg->set("hadamard", Value::builtin("scipy.linalg.hadamard", hadamardFn));
    linalg->opaque = true;
    linalg->opaqueReason =
        "ref_program: this scipy name is not supported by the reference evaluator";
    auto scipy = in.registerModule("scipy");
    scipy->opaque = true;
    scipy->opaqueReason = linalg->opaqueReason;
}

}  // namespace ts::rt
