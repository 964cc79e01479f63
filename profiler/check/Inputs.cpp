#include "profiler/check/Inputs.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace ts::rt {
namespace {

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, portable, full-period 64-bit output.
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t s) : m_state(s) {}
    uint64_t next() {
        uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1) with 53 random bits.
    double unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }

private:
    uint64_t m_state;
};

}  // namespace

uint64_t freshSeed() {
    static std::atomic<uint64_t> counter{0};
    const auto now = std::chrono::high_resolution_clock::now().time_since_epoch().count();
    SplitMix64 mix(static_cast<uint64_t>(now) ^ (counter.fetch_add(1) << 48));
    return mix.next();
}

std::pair<int64_t, int64_t> intInputRange(ir::DType t) {
    switch (t) {
        case ir::DType::Bool:
            return {0, 1};
        case ir::DType::Int4:
            return {-8, 7};
        case ir::DType::UInt4:
            return {0, 15};
        default:
            return ir::isSigned(t) ? std::pair<int64_t, int64_t>{-8, 8}
                                   : std::pair<int64_t, int64_t>{0, 8};
    }
}

HostTensor randomTensor(const TensorParam& p, uint64_t seed, size_t paramIndex,
                        const InputOptions& opt) {
    for (int64_t d : p.shape)
        if (d < 0)
            throw std::invalid_argument("parameter '" + p.name + "' has a dynamic shape " +
                                        formatShape(p.shape) + "; give concrete extents");
    // Each parameter gets its own stream, so adding a parameter does not change the others.
    SplitMix64 rng(SplitMix64(seed ^ (0x632be59bd9b4e019ull * (paramIndex + 1))).next());
    HostTensor t{p.dtype, p.shape, std::vector<double>(static_cast<size_t>(numelOf(p.shape)))};
    if (ir::isFloat(p.dtype)) {
        const double span = opt.floatHi - opt.floatLo;
        for (double& v : t.data) v = roundTo(p.dtype, opt.floatLo + span * rng.unit());
    } else {
        const auto [lo, hi] = intInputRange(p.dtype);
        const auto count = static_cast<uint64_t>(hi - lo + 1);
        for (double& v : t.data)
            v = static_cast<double>(lo + static_cast<int64_t>(rng.next() % count));
    }
    return t;
}

InputSet makeInputs(const std::vector<TensorParam>& signature, const InputOptions& opt) {
    InputSet set;
    set.seed = opt.fresh ? freshSeed() : opt.seed;
    set.tensors.reserve(signature.size());
    for (size_t i = 0; i < signature.size(); ++i) {
        const TensorParam& p = signature[i];
        if (p.isOutput) {
            for (int64_t d : p.shape)
                if (d < 0)
                    throw std::invalid_argument("output '" + p.name + "' has a dynamic shape " +
                                                formatShape(p.shape) + "; give concrete extents");
            set.tensors.push_back(HostTensor{p.dtype, p.shape, {}});
        } else {
            set.tensors.push_back(randomTensor(p, set.seed, i, opt));
        }
    }
    return set;
}

uint8_t poisonByte(ir::DType t) { return ir::isFloat(t) ? 0xFF : 0x7F; }

std::vector<uint8_t> poisonBytes(ir::DType t, int64_t numel) {
    return std::vector<uint8_t>(encodedSize(t, numel), poisonByte(t));
}

}  // namespace ts::rt
