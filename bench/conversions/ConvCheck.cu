// The device header's conversions on the GPU against the host encodings the interpreters use
// (issue 14). Built and run by bench/h200_conversions.sh with nvcc; links the host side of the
// project's float formats (compiler/support/HostTensor.cpp: roundTo, floatBits, floatFromBits).
//
// Checked, every result bit pattern (NaN = any NaN, zero signs compared):
//  - decode: every 16-bit pattern of float16 / bfloat16 and every 8-bit pattern of float8 e4m3 /
//    e5m2 -> float (ts::cast<float>);
//  - encode: float32 -> float16, bfloat16, e4m3, e5m2 for every value of each format, its float32
//    neighbours, every midpoint between neighbouring values and the midpoints' neighbours (the
//    rounding ties), specials (+-0, +-inf, NaN, FLT_MAX, subnormals) and 2^20 random float32
//    bit patterns;
//  - ints: every int8/uint8/int16/uint16 value -> each float format and float32, and the float
//    input set above -> int8/uint8/int16/uint16/int32 (ts::cast; the host wraps out-of-range
//    values modulo 2^n and maps NaN/inf to 0, C leaves them undefined: such rows are reported
//    separately as "out of range").
// Output: one line per conversion (inputs, mismatches, first mismatches) on stdout and as JSON in
// argv[1]. Exit 1 when an in-range conversion disagrees.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "compiler/support/HostTensor.h"
#include "ts_device.cuh"

using ts::ir::DType;

namespace {

template <class To, class From>
__global__ void convertKernel(const From* in, To* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = ts::cast<To>(in[i]);
}

#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            std::exit(2);                                                                  \
        }                                                                                  \
    } while (0)

template <class To, class From>
std::vector<To> runOnGpu(const std::vector<From>& in) {
    From* din = nullptr;
    To* dout = nullptr;
    const int n = static_cast<int>(in.size());
    CK(cudaMalloc(&din, sizeof(From) * in.size()));
    CK(cudaMalloc(&dout, sizeof(To) * in.size()));
    CK(cudaMemcpy(din, in.data(), sizeof(From) * in.size(), cudaMemcpyHostToDevice));
    convertKernel<To, From><<<(n + 255) / 256, 256>>>(din, dout, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<To> out(in.size());
    CK(cudaMemcpy(out.data(), dout, sizeof(To) * in.size(), cudaMemcpyDeviceToHost));
    CK(cudaFree(din));
    CK(cudaFree(dout));
    return out;
}

// --- the device types' values on the host, through their bits --------------------------------

template <class T> struct Format;
template <> struct Format<float> { static constexpr DType dt = DType::Float32; static constexpr const char* name = "float32"; };
template <> struct Format<ts::half> { static constexpr DType dt = DType::Float16; static constexpr const char* name = "float16"; };
template <> struct Format<ts::bfloat16> { static constexpr DType dt = DType::BFloat16; static constexpr const char* name = "bfloat16"; };
template <> struct Format<ts::fp8_e4m3> { static constexpr DType dt = DType::Float8E4M3; static constexpr const char* name = "float8_e4m3"; };
template <> struct Format<ts::fp8_e5m2> { static constexpr DType dt = DType::Float8E5M2; static constexpr const char* name = "float8_e5m2"; };
template <> struct Format<int8_t> { static constexpr DType dt = DType::Int8; static constexpr const char* name = "int8"; };
template <> struct Format<uint8_t> { static constexpr DType dt = DType::UInt8; static constexpr const char* name = "uint8"; };
template <> struct Format<int16_t> { static constexpr DType dt = DType::Int16; static constexpr const char* name = "int16"; };
template <> struct Format<uint16_t> { static constexpr DType dt = DType::UInt16; static constexpr const char* name = "uint16"; };
template <> struct Format<int32_t> { static constexpr DType dt = DType::Int32; static constexpr const char* name = "int32"; };

template <class T> double valueOf(const T& x) {
    if constexpr (std::is_same_v<T, float> || std::is_integral_v<T>) {
        return static_cast<double>(x);
    } else {
        return ts::floatFromBits(Format<T>::dt, static_cast<uint32_t>(x.bits));
    }
}
template <class T> T fromBits(uint32_t b) {
    T t;
    std::memset(&t, 0, sizeof t);
    std::memcpy(&t, &b, sizeof t);  // little-endian: the low bytes
    return t;
}

bool sameValue(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
}

struct Row {
    std::string name;
    size_t inputs = 0, mismatches = 0, outOfRange = 0;
    std::vector<std::string> examples;
};
std::vector<Row> g_rows;

/// Converts `in` on the GPU and compares each result with roundTo(To's dtype, value of input).
/// `rangeLo/Hi`: for integer targets, inputs outside [lo, hi] (or NaN/inf) count as out of range.
template <class To, class From>
void check(const std::vector<From>& in, const char* what) {
    auto out = runOnGpu<To, From>(in);
    Row r;
    r.name = std::string(Format<From>::name) + " -> " + Format<To>::name + " (" + what + ")";
    r.inputs = in.size();
    const bool intTarget = std::is_integral_v<To>;
    const double lo = intTarget ? static_cast<double>(std::numeric_limits<To>::min()) : 0;
    const double hi = intTarget ? static_cast<double>(std::numeric_limits<To>::max()) : 0;
    for (size_t i = 0; i < in.size(); ++i) {
        const double v = valueOf(in[i]);
        const double want = ts::roundTo(Format<To>::dt, v);
        const double got = valueOf(out[i]);
        if (sameValue(got, want)) continue;
        const bool oor = intTarget && (!std::isfinite(v) || std::trunc(v) < lo || std::trunc(v) > hi);
        (oor ? r.outOfRange : r.mismatches)++;
        if (r.examples.size() < 8) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "%s%.9g -> gpu %.9g, host %.9g", oor ? "[oor] " : "", v, got, want);
            r.examples.push_back(buf);
        }
    }
    g_rows.push_back(r);
}

/// float32 inputs around every value of `dt`: the values, their float neighbours, the midpoints
/// between consecutive values and the midpoints' neighbours.
void addAround(DType dt, int bits, std::vector<float>& out) {
    std::vector<double> vals;
    for (uint32_t b = 0; b < (1u << bits); ++b) {
        double v = ts::floatFromBits(dt, b);
        if (std::isfinite(v) && v >= 0) vals.push_back(v);
    }
    std::sort(vals.begin(), vals.end());
    vals.erase(std::unique(vals.begin(), vals.end()), vals.end());
    const float inf = std::numeric_limits<float>::infinity();
    for (size_t i = 0; i < vals.size(); ++i) {
        std::vector<float> pts{static_cast<float>(vals[i])};
        double next = i + 1 < vals.size() ? vals[i + 1] : vals[i] * 2;  // above the max: 2x
        pts.push_back(static_cast<float>((vals[i] + next) / 2));
        for (float p : std::vector<float>(pts)) pts.push_back(std::nextafter(p, inf)), pts.push_back(std::nextafter(p, -inf));
        for (float p : pts) out.push_back(p), out.push_back(-p);
    }
}

}  // namespace

int main(int argc, char** argv) {
    // decode: every pattern
    {
        std::vector<ts::half> h;
        std::vector<ts::bfloat16> bf;
        for (uint32_t b = 0; b < 65536; ++b) h.push_back(fromBits<ts::half>(b)), bf.push_back(fromBits<ts::bfloat16>(b));
        std::vector<ts::fp8_e4m3> e4;
        std::vector<ts::fp8_e5m2> e5;
        for (uint32_t b = 0; b < 256; ++b) e4.push_back(fromBits<ts::fp8_e4m3>(b)), e5.push_back(fromBits<ts::fp8_e5m2>(b));
        check<float>(h, "every pattern");
        check<float>(bf, "every pattern");
        check<float>(e4, "every pattern");
        check<float>(e5, "every pattern");
        // 8/16-bit floats -> ints (through float, as ts::cast does)
        check<int8_t>(e4, "every pattern");
        check<int16_t>(h, "every pattern");
    }
    // encode: float32 -> small floats
    std::vector<float> in;
    addAround(DType::Float16, 16, in);
    addAround(DType::BFloat16, 16, in);
    addAround(DType::Float8E4M3, 8, in);
    addAround(DType::Float8E5M2, 8, in);
    const float inf = std::numeric_limits<float>::infinity();
    for (float s : {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::max(),
                    -std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(),
                    std::numeric_limits<float>::min(), 61440.0f, 61439.996f, 464.0f, 448.0f, 65520.0f, 65519.996f})
        in.push_back(s);
    std::mt19937 rng(14);
    for (int i = 0; i < (1 << 20); ++i) {
        uint32_t b = rng();
        float f;
        std::memcpy(&f, &b, 4);
        in.push_back(f);
    }
    for (int v = -70000; v <= 70000; ++v) in.push_back(static_cast<float>(v) + 0.5f * (v % 3 - 1));
    std::printf("float32 encode inputs: %zu\n", in.size());
    check<ts::half>(in, "values, neighbours, ties, specials, random");
    check<ts::bfloat16>(in, "values, neighbours, ties, specials, random");
    check<ts::fp8_e4m3>(in, "values, neighbours, ties, specials, random");
    check<ts::fp8_e5m2>(in, "values, neighbours, ties, specials, random");
    check<int8_t>(in, "float inputs");
    check<uint8_t>(in, "float inputs");
    check<int16_t>(in, "float inputs");
    check<uint16_t>(in, "float inputs");
    check<int32_t>(in, "float inputs");
    // ints -> floats: every 8- and 16-bit integer
    {
        std::vector<int8_t> i8;
        std::vector<uint8_t> u8;
        std::vector<int16_t> i16;
        std::vector<uint16_t> u16;
        for (int v = 0; v < 256; ++v) i8.push_back(static_cast<int8_t>(v)), u8.push_back(static_cast<uint8_t>(v));
        for (int v = 0; v < 65536; ++v) i16.push_back(static_cast<int16_t>(v)), u16.push_back(static_cast<uint16_t>(v));
        check<ts::half>(i16, "every value");
        check<ts::half>(u16, "every value");
        check<ts::bfloat16>(i16, "every value");
        check<ts::bfloat16>(u16, "every value");
        check<ts::fp8_e4m3>(i16, "every value");
        check<ts::fp8_e5m2>(i16, "every value");
        check<ts::fp8_e4m3>(u8, "every value");
        check<ts::fp8_e5m2>(i8, "every value");
        check<float>(i16, "every value");
        check<int8_t>(i16, "every value");
        check<uint8_t>(i16, "every value");
    }

    int bad = 0;
    FILE* js = argc > 1 ? std::fopen(argv[1], "w") : nullptr;
    if (js) std::fprintf(js, "[\n");
    std::printf("%-70s %9s %10s %12s\n", "conversion", "inputs", "mismatch", "out-of-range");
    for (size_t k = 0; k < g_rows.size(); ++k) {
        auto& r = g_rows[k];
        bad += r.mismatches > 0;
        std::printf("%-70s %9zu %10zu %12zu %s\n", r.name.c_str(), r.inputs, r.mismatches, r.outOfRange,
                    r.mismatches ? "FAIL" : "ok");
        for (auto& e : r.examples) std::printf("    %s\n", e.c_str());
        if (js) {
            std::fprintf(js, "  {\"conversion\": \"%s\", \"inputs\": %zu, \"mismatches\": %zu, \"out_of_range\": %zu, \"examples\": [",
                         r.name.c_str(), r.inputs, r.mismatches, r.outOfRange);
            for (size_t e = 0; e < r.examples.size(); ++e) std::fprintf(js, "%s\"%s\"", e ? ", " : "", r.examples[e].c_str());
            std::fprintf(js, "]}%s\n", k + 1 < g_rows.size() ? "," : "");
        }
    }
    if (js) std::fprintf(js, "]\n"), std::fclose(js);
    std::printf("%s: %d conversion(s) disagree in range\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
