// T.rng_init / T.rng_rand / T.rng_rand_float on the interpreters (ir/Intrinsics.h kRng*): each
// thread of a block owns one cuRAND-compatible Philox state (the generated code's function-scope
// `ts::PhiloxState`), created by rng_init and advanced by every draw in program order. The
// tile-level interpreter runs kernels that draw random numbers thread by thread (Exec.cpp), so
// "the current thread" is the executing one (rngThread()).
#include <algorithm>

#include "compiler/interp/Machine.h"
#include "compiler/interp/Random.h"
#include "compiler/ir/Intrinsics.h"

namespace ts::interp::detail {

using namespace ts::ir;

double Machine::rngCall(const CallNode* n) {
    const int32_t t = std::max<int32_t>(0, rngThread());
    if (m_rngBlock != m_blocksRun) {  // a block's threads start without state (CUDA locals)
        m_rng.clear();
        m_rngBlock = m_blocksRun;
    }
    if (static_cast<size_t>(t) >= m_rng.size()) m_rng.resize(static_cast<size_t>(t) + 1);
    RngSlot& slot = m_rng[static_cast<size_t>(t)];
    if (n->op == intrin::kRngInit) {
        if (n->args.size() != 3) fail(n->span, "malformed IR: rng_init takes (seed, subsequence, offset)");
        const auto u = [&](size_t i) { return static_cast<unsigned long long>(evalI(n->args[i].get())); };
        rng::rng_init(slot.state, u(0), u(1), u(2));
        slot.initialized = true;
        return 0;
    }
    if (!slot.initialized)
        fail(n->span, "T.rng_rand draws from a generator this thread has not initialised",
             "call T.rng_init(seed, ...) first in the same T.Kernel");
    if (n->op == intrin::kRngRand) return static_cast<double>(rng::rng_next(slot.state));
    auto* dist = n->args.size() == 1 ? dynamic_cast<const StrImmNode*>(n->args[0].get()) : nullptr;
    if (!dist || (dist->value != "uniform" && dist->value != "normal"))
        fail(n->span, "malformed IR: rng_rand_float takes (\"uniform\" | \"normal\")");
    const bool dbl = n->dtype == DType::Float64;
    if (dist->value == "uniform")
        return dbl ? rng::rng_uniform_double(slot.state) : double(rng::rng_uniform(slot.state));
    return dbl ? rng::rng_normal_double(slot.state) : double(rng::rng_normal(slot.state));
}

}  // namespace ts::interp::detail
