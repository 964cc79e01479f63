#include "profiler/check/Inputs.h"

#include "profiler/check/Compare.h"
#include "profiler/check/InputRules.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <chrono>
#include <cctype>
#include <cmath>
#include <cstdio>
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

namespace {
/// inf, -inf, +infinity, nan (any case): the non-finite values fill:V and values: take by name
/// (1e400 is an overflow, not a request for inf).
bool namedNonFinite(std::string w) {
    if (!w.empty() && (w[0] == '-' || w[0] == '+')) w.erase(0, 1);
    for (char& ch : w) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return w == "inf" || w == "infinity" || w == "nan";
}
}  // namespace

std::optional<InputRule> parseInputRule(const std::string& text, std::string& error) {
    if (text.rfind("values:", 0) == 0) {
        InputRule rule;
        rule.kind = InputRule::Kind::Values;
        std::string list = text.substr(7);
        size_t start = 0;
        for (;;) {
            size_t comma = list.find(',', start);
            std::string item = list.substr(start, comma == std::string::npos ? comma : comma - start);
            char* end = nullptr;
            double v = std::strtod(item.c_str(), &end);
            if (item.empty() || !end || *end || (!std::isfinite(v) && !namedNonFinite(item))) {
                error = "input rule '" + text + "': '" + item + "' is not a number";
                return std::nullopt;
            }
            rule.values.push_back(v);
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        return rule;
    }
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        size_t colon = text.find(':', start);
        parts.push_back(text.substr(start, colon == std::string::npos ? colon : colon - start));
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    std::vector<double> nums;
    for (size_t i = 1; i < parts.size(); ++i) {
        char* end = nullptr;
        double v = std::strtod(parts[i].c_str(), &end);
        if (parts[i].empty() || !end || *end || (!std::isfinite(v) && !(parts[0] == "fill" && namedNonFinite(parts[i])))) {
            error = "input rule '" + text + "': '" + parts[i] + "' is not a number";
            return std::nullopt;
        }
        nums.push_back(v);
    }
    static const struct {
        const char* name;
        InputRule::Kind kind;
        size_t args;
    } kRules[] = {{"offsets", InputRule::Kind::Offsets, 1}, {"offsets", InputRule::Kind::Offsets, 2},
                  {"int", InputRule::Kind::Ints, 2}, {"uniform", InputRule::Kind::Uniform, 2},
                  {"distinct", InputRule::Kind::Distinct, 1}, {"fill", InputRule::Kind::Fill, 1},
                  {"arange", InputRule::Kind::Arange, 0}, {"sparse", InputRule::Kind::Sparse, 2}};
    for (const auto& r : kRules)
        if (parts[0] == r.name) {
            if (r.kind == InputRule::Kind::Offsets && nums.size() == 2 && r.args == 1) continue;
            if (nums.size() != r.args) {
                error = "input rule '" + text + "': " + r.name + " takes " +
                        std::to_string(r.args) + " number" + (r.args == 1 ? "" : "s");
                return std::nullopt;
            }
            InputRule rule;
            rule.kind = r.kind;
            if (!nums.empty()) rule.a = nums[0];
            if (nums.size() > 1) rule.b = nums[1];
            if (rule.kind == InputRule::Kind::Sparse &&
                (rule.a < 0 || rule.b < 1 || rule.a > rule.b || rule.a != std::floor(rule.a) ||
                 rule.b != std::floor(rule.b))) {
                error = "input rule '" + text + "': sparse:N:M needs integers 0 <= N <= M, M >= 1";
                return std::nullopt;
            }
            if (rule.kind == InputRule::Kind::Ints && rule.b <= rule.a) {
                error = "input rule '" + text + "': int:LO:HI needs LO < HI";
                return std::nullopt;
            }
            if (rule.kind == InputRule::Kind::Uniform && !(rule.b > rule.a)) {
                error = "input rule '" + text + "': uniform:LO:HI needs LO < HI";
                return std::nullopt;
            }
            return rule;
        }
    // The accepted forms are in tilec's hint under every malformed rule (app/cli inputRuleHint).
    error = "unknown input rule '" + text + "'";
    return std::nullopt;
}

namespace {
/// Fills `t` per `rule` (InputRule), deterministic in (seed, paramIndex) like randomTensor.
void applyRule(HostTensor& t, const TensorParam& p, const InputRule& rule, uint64_t seed,
               size_t paramIndex) {
    SplitMix64 rng(SplitMix64(seed ^ (0x632be59bd9b4e019ull * (paramIndex + 1))).next());
    const auto n = static_cast<int64_t>(t.data.size());
    auto fail = [&](const std::string& why) {
        throw std::invalid_argument("--input " + p.name + ": " + why);
    };
    // A value the dtype cannot hold changes silently on the way in (1e30 or 70000 in float16 is
    // inf, 300 in int8 is 44, 1e10 in float8_e4m3 saturates to 448, NaN in int32 is 0): the
    // reference is computed from the same changed inputs, so the check would pass on data nobody
    // asked for. Refused, naming the value (`what` says where it came from, e.g. arange's last).
    auto rounded = [&](double v, const std::string& what = {}) {
        const double r = roundTo(p.dtype, v);
        const std::string dt(ir::dtypeName(p.dtype)), val = what.empty() ? numberText(v) : what;
        // 2^63 is int64's largest values' float64 (roundTo keeps it), but no int64: not exact.
        const bool past64 = p.dtype == ir::DType::Int64 && v >= 9223372036854775808.0;
        // bool holds 0 and 1 only: fill:2 read as True was silently a different input (helper-118).
        if (p.dtype == ir::DType::Bool && v != 0 && v != 1)
            fail(val + " is not a bool value: bool tensors hold 0 (False) and 1 (True)");
        if (p.dtype == ir::DType::Bool || (r == v && !past64) || (std::isnan(v) && std::isnan(r))) return r;
        if (!ir::isFloat(p.dtype)) {
            if (!std::isfinite(v)) fail(val + " has no " + dt + " value (it would be " + numberText(r) + ")");
            if (v != std::trunc(v)) fail(val + " is not an integer (" + dt + " would hold " + numberText(r) + ")");
            // 9223372036854775807 parses to 2^63 (inputs are float64 values), which is past int64:
            // say that, not "outside int64's range" of a value that is inside it (helper-112).
            if (ir::dtypeBits(p.dtype) == 64 && std::fabs(v) >= 9007199254740992.0)
                fail(val + " is not held exactly: tensor values are float64, exact for " + dt +
                     " up to 2^53 (9007199254740992); pick a value of at most that size, or one that float64 holds (a power of two)");
            fail(val + " is outside " + dt + "'s range (it would be " + numberText(r) + "): pick values the dtype holds");
        }
        if (!std::isfinite(v))
            fail(val + " has no " + dt + " value (it would be " + numberText(r) + "): the dtype has no " + (std::isnan(v) ? "NaN" : "infinity"));
        if (!std::isfinite(r) || (r != 0 && roundTo(p.dtype, 2 * v) == r))  // overflowed, or saturated at the largest value
            fail(val + " is outside " + dt + "'s range (it would be " + numberText(r) + "): pick values the dtype holds" +
                 (std::isfinite(r) ? "" : ", or ask for infinities by name (fill:inf)"));
        return r;  // rounded to the nearest value the dtype holds
    };
    switch (rule.kind) {
        case InputRule::Kind::Fill:
            for (double& v : t.data) v = rounded(rule.a);
            break;
        case InputRule::Kind::Values:
            if (rule.values.size() != t.data.size())
                fail("values: gives " + std::to_string(rule.values.size()) + " values for " +
                     std::to_string(t.data.size()) + " elements");
            for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = rounded(rule.values[i]);
            break;
        case InputRule::Kind::Arange:
            if (n > 0) rounded(double(n - 1), "arange's last value " + std::to_string(n - 1) + " (the tensor has " + std::to_string(n) + " elements)");
            for (int64_t i = 0; i < n; ++i) t.data[size_t(i)] = roundTo(p.dtype, double(i));
            break;
        case InputRule::Kind::Ints: {
            const auto lo = static_cast<int64_t>(rule.a), hi = static_cast<int64_t>(rule.b);
            rounded(rule.a), rounded(double(hi - 1));  // the bounds the dtype holds
            for (double& v : t.data)
                v = double(lo + static_cast<int64_t>(rng.next() % uint64_t(hi - lo)));
            break;
        }
        case InputRule::Kind::Uniform:  // as randomTensor's floats, over [LO, HI)
            if (!ir::isFloat(p.dtype)) fail("uniform:LO:HI fills a float tensor (int:LO:HI for integers)");
            rounded(rule.a), rounded(rule.b);  // bounds the dtype holds
            for (double& v : t.data) v = roundTo(p.dtype, rule.a + (rule.b - rule.a) * rng.unit());
            break;
        case InputRule::Kind::Offsets: {
            if (p.shape.size() != 1 || n < 2) fail("offsets:TOTAL fills a 1-D tensor of 2 or more");
            const auto total = static_cast<int64_t>(rule.a);
            if (total < 0) fail("offsets:TOTAL needs TOTAL >= 0");
            rounded(double(total), "offsets' last value " + std::to_string(total));  // the dtype holds it (helper-120: bool, uint8)
            if (rule.b > 0) {  // lengths at most MAX: each drawn within what the rest can take
                const auto maxLen = static_cast<int64_t>(rule.b);
                const int64_t count = n - 1;
                if (total > count * maxLen)
                    fail("offsets:" + std::to_string(total) + ":" + std::to_string(maxLen) +
                         ": " + std::to_string(count) + " sequences of at most " +
                         std::to_string(maxLen) + " cannot hold " + std::to_string(total));
                int64_t left = total, at = 0;
                t.data.front() = 0;
                for (int64_t s = 0; s < count; ++s) {
                    int64_t lo = std::max<int64_t>(0, left - (count - 1 - s) * maxLen);
                    int64_t hi = std::min(maxLen, left);
                    int64_t len = lo + static_cast<int64_t>(rng.next() % uint64_t(hi - lo + 1));
                    at += len;
                    left -= len;
                    t.data[size_t(s + 1)] = double(at);
                }
                break;
            }
            std::vector<int64_t> cuts(size_t(n - 2));
            for (auto& c : cuts) c = static_cast<int64_t>(rng.next() % uint64_t(total + 1));
            std::sort(cuts.begin(), cuts.end());
            t.data.front() = 0;
            for (size_t i = 0; i < cuts.size(); ++i) t.data[i + 1] = double(cuts[i]);
            t.data.back() = double(total);
            break;
        }
        case InputRule::Kind::Sparse: {  // keep N random positions of every group of M
            const auto keep = static_cast<int64_t>(rule.a), group = static_cast<int64_t>(rule.b);
            const int64_t row = p.shape.empty() ? 1 : p.shape.back();
            if (row % group)
                fail("sparse:" + std::to_string(keep) + ":" + std::to_string(group) +
                     " needs rows (last dimension " + std::to_string(row) + ") in groups of " +
                     std::to_string(group));
            std::vector<int64_t> pos(static_cast<size_t>(group));
            for (int64_t start = 0; start + group <= n; start += group) {
                for (int64_t i = 0; i < group; ++i) pos[size_t(i)] = i;
                for (int64_t i = 0; i < keep; ++i) {  // partial Fisher-Yates: the kept ones
                    auto j = i + static_cast<int64_t>(rng.next() % uint64_t(group - i));
                    std::swap(pos[size_t(i)], pos[size_t(j)]);
                }
                for (int64_t i = keep; i < group; ++i) t.data[size_t(start + pos[size_t(i)])] = 0.0;
            }
            break;
        }
        case InputRule::Kind::Distinct: {
            const auto range = static_cast<int64_t>(rule.a);
            const int64_t row = p.shape.empty() ? 1 : p.shape.back();
            if (range > 0) rounded(double(range - 1), "distinct:" + std::to_string(range) + "'s largest value " + std::to_string(range - 1));
            if (row > range)
                fail("distinct:" + std::to_string(range) + " cannot fill rows of " +
                     std::to_string(row) + " distinct values");
            std::vector<int64_t> pool(size_t(std::max<int64_t>(range, 0)));
            for (int64_t start = 0; start + row <= n && row > 0; start += row) {
                for (int64_t i = 0; i < range; ++i) pool[size_t(i)] = i;
                for (int64_t i = 0; i < row; ++i) {  // partial Fisher-Yates
                    auto j = i + static_cast<int64_t>(rng.next() % uint64_t(range - i));
                    std::swap(pool[size_t(i)], pool[size_t(j)]);
                }
                std::sort(pool.begin(), pool.begin() + row);
                for (int64_t i = 0; i < row; ++i) t.data[size_t(start + i)] = double(pool[size_t(i)]);
            }
            break;
        }
    }
}
}  // namespace

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

InputSet makeInputs(const std::vector<TensorParam>& signature, const InputOptions& opt,
                    const std::map<std::string, InputRule>& rules) {
    for (const auto& [name, _] : rules) {
        bool input = false;
        std::string names;
        for (const TensorParam& p : signature)
            if (!p.isOutput) {
                input |= p.name == name;
                names += (names.empty() ? "" : ", ") + p.name;
            }
        if (!input)
            throw std::invalid_argument("--input " + name + ": the kernel has no input tensor '" +
                                        name + "' (inputs: " + names + ")");
    }
    InputSet set = makeInputs(signature, opt);
    for (size_t i = 0; i < signature.size(); ++i)
        if (auto rule = rules.find(signature[i].name);
            rule != rules.end() && !signature[i].isOutput)
            applyRule(set.tensors[i], signature[i], rule->second, set.seed, i);
    return set;
}

uint8_t poisonByte(ir::DType t) { return ir::isFloat(t) ? 0xFF : 0x7F; }

std::vector<uint8_t> poisonBytes(ir::DType t, int64_t numel) {
    return std::vector<uint8_t>(encodedSize(t, numel), poisonByte(t));
}

}  // namespace ts::rt
