#include "profiler/baseline/CublasGemm.h"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>

#include "compiler/support/HostTensor.h"
#include "profiler/Runtime.h"
#include "profiler/cuda/Driver.h"

namespace ts::rt {

namespace {

// cuBLAS / library_types.h ABI values (cublas_api.h, library_types.h); they never change between
// releases. tests/unit/CublasBaselineTest.cpp checks them against the headers where present.
constexpr int kCudaR16F = 2, kCudaR16BF = 14, kCudaR32F = 0;
constexpr int kComputeF32 = 68;    // CUBLAS_COMPUTE_32F
constexpr int kGemmDefault = -1;   // CUBLAS_GEMM_DEFAULT
constexpr int kOpN = 0, kOpT = 1;  // CUBLAS_OP_N, CUBLAS_OP_T
constexpr int kMajor = 0, kMinor = 1, kPatch = 2;  // MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL

using Handle = struct CublasContext*;
struct Cublas {
    std::string path, version;
    int (*create)(Handle*) = nullptr;
    int (*destroy)(Handle) = nullptr;
    int (*setStream)(Handle, cu::Stream) = nullptr;
    int (*getProperty)(int, int*) = nullptr;
    const char* (*statusName)(int) = nullptr;  // cublasGetStatusName (12.0+), may be missing
    int (*gemmEx)(Handle, int, int, int, int, int, const void*, const void*, int, int, const void*,
                  int, int, const void*, void*, int, int, int, int) = nullptr;
};

const Cublas* cublas(std::string& why) {
    static std::once_flag once;
    static Cublas lib;
    static std::string failure;
    std::call_once(once, [] {
        void* h = nullptr;
        std::string tried;
        for (const auto& c : cublasLibraryCandidates()) {
            if ((h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))) {
                lib.path = c;
                break;
            }
            tried += (tried.empty() ? "" : ", ") + c;
        }
        if (!h) {
            failure = "cannot load cuBLAS (tried " + tried +
                      "); install the CUDA toolkit's cuBLAS or set TILESCOPE_LIBCUBLAS to "
                      "libcublas.so";
            return;
        }
        auto sym = [&](const char* name) { return dlsym(h, name); };
        lib.create = reinterpret_cast<decltype(lib.create)>(sym("cublasCreate_v2"));
        lib.destroy = reinterpret_cast<decltype(lib.destroy)>(sym("cublasDestroy_v2"));
        lib.setStream = reinterpret_cast<decltype(lib.setStream)>(sym("cublasSetStream_v2"));
        lib.getProperty = reinterpret_cast<decltype(lib.getProperty)>(sym("cublasGetProperty"));
        lib.statusName = reinterpret_cast<decltype(lib.statusName)>(sym("cublasGetStatusName"));
        lib.gemmEx = reinterpret_cast<decltype(lib.gemmEx)>(sym("cublasGemmEx"));
        if (!lib.create || !lib.destroy || !lib.setStream || !lib.getProperty || !lib.gemmEx) {
            failure = lib.path + " lacks cublasCreate_v2 / cublasGemmEx / cublasGetProperty";
            return;
        }
        int v[3] = {};
        for (int p : {kMajor, kMinor, kPatch}) lib.getProperty(p, &v[p]);
        lib.version = std::to_string(v[0]) + "." + std::to_string(v[1]) + "." + std::to_string(v[2]);
    });
    why = failure;
    return failure.empty() ? &lib : nullptr;
}

std::string statusText(const Cublas& lib, int s) {
    const char* n = lib.statusName ? lib.statusName(s) : nullptr;
    return n ? std::string(n) : "cublasStatus " + std::to_string(s);
}

int cudaTypeOf(ir::DType t) {
    switch (t) {
        case ir::DType::Float16:
            return kCudaR16F;
        case ir::DType::BFloat16:
            return kCudaR16BF;
        default:
            return kCudaR32F;
    }
}

/// Unit roundoff of an output dtype (the check's tolerance per unit of sum |a b|).
double roundoff(ir::DType t) {
    return t == ir::DType::Float16 ? 0x1p-11 : t == ir::DType::BFloat16 ? 0x1p-8 : 0x1p-24;
}

/// Device buffers freed on every path out.
struct DeviceBuffers {
    const Driver& d;
    std::vector<cu::DevicePtr> ptrs;
    explicit DeviceBuffers(const Driver& drv) : d(drv) {}
    cu::DevicePtr alloc(size_t bytes) {
        cu::DevicePtr p = 0;
        TS_CU(d, memAlloc, &p, std::max<size_t>(bytes, 1));
        ptrs.push_back(p);
        return p;
    }
    ~DeviceBuffers() {
        for (auto p : ptrs) d.memFree(p);
    }
};

}  // namespace

std::string describeGemm(const GemmShape& g) {
    return "M=" + std::to_string(g.m) + " N=" + std::to_string(g.n) + " K=" + std::to_string(g.k) +
           " " + std::string(ir::dtypeName(g.inDtype)) + "->" +
           std::string(ir::dtypeName(g.outDtype)) + (g.transA ? " A^T" : "") +
           (g.transB ? " B^T" : "");
}

std::optional<GemmShape> gemmShapeOf(const std::vector<TensorParam>& sig, std::string& why) {
    std::vector<const TensorParam*> ins, outs;
    for (const auto& p : sig) (p.isOutput ? outs : ins).push_back(&p);
    auto half = [](ir::DType t) { return t == ir::DType::Float16 || t == ir::DType::BFloat16; };
    if (ins.size() != 2 || outs.size() != 1 || ins[0]->shape.size() != 2 ||
        ins[1]->shape.size() != 2 || outs[0]->shape.size() != 2) {
        why = "the cuBLAS baseline is a GEMM: it needs a kernel with two 2-D inputs A, B and one "
              "2-D output C (this one has " + std::to_string(ins.size()) + " inputs and " +
              std::to_string(outs.size()) + " outputs)";
        return std::nullopt;
    }
    const TensorParam &a = *ins[0], &b = *ins[1], &c = *outs[0];
    if (!half(a.dtype) || a.dtype != b.dtype ||
        !(half(c.dtype) || c.dtype == ir::DType::Float32)) {
        why = "the cuBLAS baseline times float16/bfloat16 GEMMs with fp32 accumulation; " + a.name +
              ", " + b.name + " are " + std::string(ir::dtypeName(a.dtype)) + ", " +
              std::string(ir::dtypeName(b.dtype)) + " and " + c.name + " is " +
              std::string(ir::dtypeName(c.dtype));
        return std::nullopt;
    }
    GemmShape g;
    g.m = c.shape[0], g.n = c.shape[1];
    g.inDtype = a.dtype, g.outDtype = c.dtype;
    if (a.shape[0] == g.m) g.k = a.shape[1];
    else if (a.shape[1] == g.m) g.k = a.shape[0], g.transA = true;
    bool bOk = g.k > 0 && ((b.shape[0] == g.k && b.shape[1] == g.n) ||
                           (b.shape[0] == g.n && b.shape[1] == g.k));
    if (bOk) g.transB = !(b.shape[0] == g.k && b.shape[1] == g.n);
    if (!bOk || g.m <= 0 || g.n <= 0) {
        why = "the shapes " + a.name + formatShape(a.shape) + ", " + b.name + formatShape(b.shape) +
              " -> " + c.name + formatShape(c.shape) + " are not a GEMM C = A @ B (or with A/B "
              "transposed)";
        return std::nullopt;
    }
    return g;
}

CublasGemmArgs cublasArgsFor(const GemmShape& g) {
    CublasGemmArgs a;
    a.m = g.n, a.n = g.m, a.k = g.k;
    // Row-major B (K, N) is column-major B^T with ld N: op N gives the B^T that C^T needs; stored
    // (N, K) it is column-major B (ld K), so op T.
    a.transFirst = g.transB;
    a.ldFirst = g.transB ? g.k : g.n;
    a.transSecond = g.transA;
    a.ldSecond = g.transA ? g.m : g.k;
    a.ldc = g.n;
    return a;
}

std::string cublasVersionText(int v) {
    if (v >= 100000)  // 12.0 on: major*10000 + minor*100 + patch
        return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
               std::to_string(v % 100);
    return std::to_string(v / 1000) + "." + std::to_string(v / 100 % 10) + "." +
           std::to_string(v % 100);
}

std::vector<std::string> cublasLibraryCandidates() {
    std::vector<std::string> out;
    if (const char* e = std::getenv("TILESCOPE_LIBCUBLAS"); e && *e) return {e};
    for (const char* n : {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so"})
        out.push_back(n);
    if (const char* h = std::getenv("CUDA_HOME"); h && *h)
        out.push_back(std::string(h) + "/lib64/libcublas.so");
    out.push_back("/usr/local/cuda/lib64/libcublas.so");
    return out;
}

std::optional<CublasLibrary> loadCublas(std::string& why) {
    const Cublas* lib = cublas(why);
    if (!lib) return std::nullopt;
    return CublasLibrary{lib->path, lib->version};
}

BaselineResult timeCublasGemm(GpuRuntime& gpu, const GemmShape& g, int reps, int warmup,
                              int rotateSets) {
    BaselineResult r;
    r.reps = std::max(reps, 1);
    r.rotateSets = std::max(rotateSets, 1);
    const Cublas* lib = cublas(r.error);
    if (!lib) return r;
    r.version = lib->version, r.path = lib->path;
    Handle h = nullptr;
    try {
        const Driver& d = Driver::require();
        gpu.makeCurrent();
        // Inputs: a fixed-seed uniform [-1, 1) draw rounded to the operand dtype.
        uint64_t state = 0x5eed0fc0b1a5ull;
        auto draw = [&state](int64_t n, ir::DType t) {
            std::vector<double> v(static_cast<size_t>(n));
            for (auto& x : v) {
                state = state * 6364136223846793005ull + 1442695040888963407ull;
                x = static_cast<double>(state >> 11) * 0x1p-52 - 1.0;
            }
            return makeHostTensor(t, {n}, std::move(v));
        };
        const HostTensor A = draw(g.m * g.k, g.inDtype), B = draw(g.k * g.n, g.inDtype);
        const auto aBytes = encode(A), bBytes = encode(B);
        const size_t cBytes = encodedSize(g.outDtype, g.m * g.n);
        DeviceBuffers buf(d);
        std::vector<cu::DevicePtr> pa, pb, pc;
        for (int s = 0; s < r.rotateSets; ++s) {
            pa.push_back(buf.alloc(aBytes.size()));
            pb.push_back(buf.alloc(bBytes.size()));
            pc.push_back(buf.alloc(cBytes));
            TS_CU(d, memcpyHtoD, pa.back(), aBytes.data(), aBytes.size());
            TS_CU(d, memcpyHtoD, pb.back(), bBytes.data(), bBytes.size());
        }
        if (int s = lib->create(&h); s != 0) {
            h = nullptr;
            r.error = "cublasCreate: " + statusText(*lib, s);
            return r;
        }
        lib->setStream(h, nullptr);  // the legacy default stream the events record on
        const CublasGemmArgs ca = cublasArgsFor(g);
        const float alpha = 1.0f, beta = 0.0f;
        const int ta = cudaTypeOf(g.inDtype), tc = cudaTypeOf(g.outDtype);
        auto gemm = [&](int set) {
            return lib->gemmEx(h, ca.transFirst ? kOpT : kOpN, ca.transSecond ? kOpT : kOpN,
                               static_cast<int>(ca.m), static_cast<int>(ca.n),
                               static_cast<int>(ca.k), &alpha,
                               reinterpret_cast<const void*>(pb[size_t(set)]), ta,
                               static_cast<int>(ca.ldFirst),
                               reinterpret_cast<const void*>(pa[size_t(set)]), ta,
                               static_cast<int>(ca.ldSecond), &beta,
                               reinterpret_cast<void*>(pc[size_t(set)]), tc,
                               static_cast<int>(ca.ldc), kComputeF32, kGemmDefault);
        };
        auto fail = [&](const char* what, int s) {
            r.error = std::string(what) + ": " + statusText(*lib, s) + " (" + describeGemm(g) + ")";
            lib->destroy(h);
            return r;
        };
        // 1. One checked call: 64 sampled outputs against float64 dot products.
        if (int s = gemm(0); s != 0) return fail("cublasGemmEx", s);
        TS_CU(d, ctxSynchronize);
        std::vector<uint8_t> cOut(cBytes);
        TS_CU(d, memcpyDtoH, cOut.data(), pc[0], cBytes);
        const HostTensor C = decode(g.outDtype, {g.m * g.n}, cOut);
        auto aAt = [&](int64_t i, int64_t k) {
            return A.data[size_t(g.transA ? k * g.m + i : i * g.k + k)];
        };
        auto bAt = [&](int64_t k, int64_t j) {
            return B.data[size_t(g.transB ? j * g.k + k : k * g.n + j)];
        };
        r.tolerance = 2 * roundoff(g.outDtype) + g.k * 0x1p-24;
        for (int s = 0; s < 64; ++s) {
            const int64_t i = (s * 7919) % g.m, j = (s * 104729 + s / 3) % g.n;
            double ref = 0, mag = 0;
            for (int64_t k = 0; k < g.k; ++k) {
                ref += aAt(i, k) * bAt(k, j);
                mag += std::fabs(aAt(i, k) * bAt(k, j));
            }
            const double err = std::fabs(C.data[size_t(i * g.n + j)] - ref) / std::max(mag, 1e-30);
            r.maxError = std::isnan(err) ? INFINITY : std::max(r.maxError, err);
        }
        r.check = r.maxError <= r.tolerance ? "pass" : "fail";
        // 2. Warm-up, then each timed call between two events.
        for (int i = 0; i < warmup; ++i)
            if (int s = gemm(i % r.rotateSets); s != 0) return fail("cublasGemmEx", s);
        cu::Event e0 = nullptr, e1 = nullptr;
        TS_CU(d, eventCreate, &e0, 0u);
        TS_CU(d, eventCreate, &e1, 0u);
        std::vector<double> times;
        int status = 0;
        for (int i = 0; i < r.reps && status == 0; ++i) {
            TS_CU(d, eventRecord, e0, nullptr);
            status = gemm(i % r.rotateSets);
            TS_CU(d, eventRecord, e1, nullptr);
            TS_CU(d, eventSynchronize, e1);
            float ms = 0;
            TS_CU(d, eventElapsedTime, &ms, e0, e1);
            times.push_back(ms);
        }
        d.eventDestroy(e0), d.eventDestroy(e1);
        if (status != 0) return fail("cublasGemmEx", status);
        std::sort(times.begin(), times.end());
        r.medianMs = times[times.size() / 2];
        r.minMs = times.front(), r.maxMs = times.back();
        lib->destroy(h);
        r.ok = true;
    } catch (const std::exception& e) {
        if (h) lib->destroy(h);
        r.error = e.what();
    }
    return r;
}

}  // namespace ts::rt
