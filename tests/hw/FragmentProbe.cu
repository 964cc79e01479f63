// Hardware probe of the register fragments in compiler/analysis/HwLayouts.h (not part of the
// build; run by hand on an sm_90a GPU). Each experiment makes the product reveal where elements
// live, using only the mma.sync C fragment that resources/ts_device.cuh's gemm_ss already relies
// on (PTX ISA 9.7.14.5.8) to read results:
//  - mma_a: lane t puts code t*8+i+1 in a_i; B selects columns (B[k][n] = k == n + 8h), so
//    D = A[:, 8h..8h+7] and code v at D(m, n) says a_i of lane t holds A(m, n + 8h).
//  - mma_b: A = identity (through the A layout), b_i = t*4+i+1, so D = B.
//  - wgmma m64nNk16 D (A from registers, B from shared memory, no swizzle, K-major core
//    matrices of 8 n-rows x 16 bytes): A[m][0] = m, A[m][1] = 1, B[0][n] = 1, B[1][n] = 64n, so
//    register i of thread t holds D(m, n) = m + 64n, which names its own coordinates.
// Output (stdout), one line per thread: "OP N t: r,c r,c ..." (r,c of register/element 0, 1,
// ...). tests/unit/LayoutHwTest.cpp (LayoutHw.MatchesH200Probe) compares tests/hw/
// fragments_h200.txt, the output measured on an H200, with the compiler's tables.
//   nvcc -gencode arch=compute_90a,code=sm_90a -o /tmp/probe tests/hw/FragmentProbe.cu
//   /tmp/probe > tests/hw/fragments_h200.txt
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuda_fp16.h>

__device__ uint32_t pack(float lo, float hi) {
    __half2 h = __floats2half2_rn(lo, hi);  // .x = low 16 bits = the lower-numbered element
    return *reinterpret_cast<uint32_t*>(&h);
}

__device__ void mma16816(float* d, const uint32_t* a, const uint32_t* b) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%11,%12,%13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(0.f), "f"(0.f),
          "f"(0.f), "f"(0.f));
}

// out[(h*32 + lane)*4 + j]: C register j of lane for half h.
__global__ void probeMmaA(float* out) {
    const int lane = threadIdx.x, g = lane / 4, tig = lane % 4;
    uint32_t a[4], b[2];
    for (int r = 0; r < 4; ++r) a[r] = pack(lane * 8 + 2 * r + 1, lane * 8 + 2 * r + 2);
    for (int h = 0; h < 2; ++h) {
        float bv[4];
        for (int i = 0; i < 4; ++i) {  // assumed B layout: k = 2tig + i%2 + 8(i/2), n = g
            int k = 2 * tig + i % 2 + 8 * (i / 2);
            bv[i] = k == g + 8 * h ? 1.f : 0.f;
        }
        b[0] = pack(bv[0], bv[1]);
        b[1] = pack(bv[2], bv[3]);
        float d[4];
        mma16816(d, a, b);
        for (int j = 0; j < 4; ++j) out[(h * 32 + lane) * 4 + j] = d[j];
    }
}

__global__ void probeMmaB(float* out) {
    const int lane = threadIdx.x, g = lane / 4, tig = lane % 4;
    float av[8];
    for (int i = 0; i < 8; ++i) {  // assumed A layout: row g + 8((i/2)%2), col 2tig + i%2 + 8(i/4)
        int row = g + 8 * ((i / 2) % 2), col = 2 * tig + i % 2 + 8 * (i / 4);
        av[i] = row == col ? 1.f : 0.f;
    }
    uint32_t a[4], b[2];
    for (int r = 0; r < 4; ++r) a[r] = pack(av[2 * r], av[2 * r + 1]);
    b[0] = pack(lane * 4 + 1, lane * 4 + 2);
    b[1] = pack(lane * 4 + 3, lane * 4 + 4);
    float d[4];
    mma16816(d, a, b);
    for (int j = 0; j < 4; ++j) out[lane * 4 + j] = d[j];
}

__device__ void wgmma_m64n8(float* d, const uint32_t* a, uint64_t desc) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, "
        "{%4, %5, %6, %7}, %8, p, 1, 1, 0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(0));
}

__device__ void wgmma_m64n24(float* d, const uint32_t* a, uint64_t desc) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %17, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n24k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, "
        "%9, %10, %11}, "
        "{%12, %13, %14, %15}, %16, p, 1, 1, 0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(0));
}

__device__ void wgmma_m64n256(float* d, const uint32_t* a, uint64_t desc) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, "
        "%9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, "
        "%27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, "
        "%45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, "
        "%63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, "
        "%81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, "
        "%99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, "
        "%114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
        "{%128, %129, %130, %131}, %132, p, 1, 1, 0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
          "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
          "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
          "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
          "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
          "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
          "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
          "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),
          "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),
          "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
          "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
          "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),
          "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),
          "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
          "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]),
          "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(0));
}

template <int N>
__global__ void probeWgmma(float* out) {
    __shared__ __align__(128) __half bs[256 * 8 + 128];
    const int t = threadIdx.x, w = t / 32, lane = t % 32, g = lane / 4, tig = lane % 4;
    for (int i = t; i < N * 8 + 128; i += 128) bs[i] = __float2half(0.f);
    __syncthreads();
    // Core matrix (k 0-7, n-block) at 128 bytes per 8 n: element (k, n) at half n*8 + k.
    for (int n = t; n < N; n += 128) {
        bs[n * 8 + 0] = __float2half(1.f);
        bs[n * 8 + 1] = __float2half(64.f * n);
    }
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    uint32_t a[4] = {0, 0, 0, 0};
    if (tig == 0) {  // A[m][0] = m, A[m][1] = 1 for this thread's rows 16w+g and 16w+g+8
        a[0] = pack(16 * w + g, 1.f);
        a[1] = pack(16 * w + g + 8, 1.f);
    }
    const uint32_t addr = uint32_t(__cvta_generic_to_shared(bs));
    // Start address, leading and stride byte offsets (>> 4); both offsets 128: see the header.
    const uint64_t desc =
        uint64_t((addr & 0x3FFFF) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(128 >> 4) << 32);
    float d[N / 2];
    for (int i = 0; i < N / 2; ++i) d[i] = 0.f;
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    if constexpr (N == 8)
        wgmma_m64n8(d, a, desc);
    else if constexpr (N == 24)
        wgmma_m64n24(d, a, desc);
    else
        wgmma_m64n256(d, a, desc);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    for (int i = 0; i < N / 2; ++i) out[t * (N / 2) + i] = d[i];
}

namespace {
bool integral(float v, int lo, int hi) { return v == float(int(v)) && int(v) >= lo && int(v) < hi; }

template <int N>
int runWgmma(float* dev) {
    probeWgmma<N><<<1, 128>>>(dev);
    std::vector<float> h(128 * N / 2);
    if (cudaMemcpy(h.data(), dev, h.size() * 4, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    for (int t = 0; t < 128; ++t) {
        std::printf("wgmma %d %d:", N, t);
        for (int i = 0; i < N / 2; ++i) {
            float v = h[t * (N / 2) + i];
            if (!integral(v, 0, 64 * N))
                std::printf(" bad(%g)", v);
            else
                std::printf(" %d,%d", int(v) % 64, int(v) / 64);
        }
        std::printf("\n");
    }
    return 0;
}
}  // namespace

int main() {
    float* dev = nullptr;
    if (cudaMalloc(&dev, 128 * 128 * 4) != cudaSuccess) return std::fprintf(stderr, "no GPU\n"), 1;
    // mma A: decode code v = t*8 + i + 1 at C(m, n) of half h -> a_i of lane t is A(m, n + 8h).
    probeMmaA<<<1, 32>>>(dev);
    std::vector<float> h(256);
    cudaMemcpy(h.data(), dev, 256 * 4, cudaMemcpyDeviceToHost);
    std::vector<int> rowOf(256, -1), colOf(256, -1);
    for (int hh = 0; hh < 2; ++hh)
        for (int lane = 0; lane < 32; ++lane)
            for (int j = 0; j < 4; ++j) {
                float v = h[(hh * 32 + lane) * 4 + j];
                if (!integral(v, 1, 257)) continue;
                int code = int(v) - 1;
                rowOf[code] = lane / 4 + 8 * (j / 2);
                colOf[code] = 2 * (lane % 4) + j % 2 + 8 * hh;
            }
    for (int t = 0; t < 32; ++t) {
        std::printf("mma_a 16 %d:", t);
        for (int i = 0; i < 8; ++i) std::printf(" %d,%d", rowOf[t * 8 + i], colOf[t * 8 + i]);
        std::printf("\n");
    }
    probeMmaB<<<1, 32>>>(dev);
    cudaMemcpy(h.data(), dev, 128 * 4, cudaMemcpyDeviceToHost);
    std::fill(rowOf.begin(), rowOf.end(), -1);
    std::fill(colOf.begin(), colOf.end(), -1);
    for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < 4; ++j) {
            float v = h[lane * 4 + j];
            if (!integral(v, 1, 129)) continue;
            int code = int(v) - 1;
            rowOf[code] = lane / 4 + 8 * (j / 2);  // k
            colOf[code] = 2 * (lane % 4) + j % 2;  // n
        }
    for (int t = 0; t < 32; ++t) {
        std::printf("mma_b 8 %d:", t);
        for (int i = 0; i < 4; ++i) std::printf(" %d,%d", rowOf[t * 4 + i], colOf[t * 4 + i]);
        std::printf("\n");
    }
    if (runWgmma<8>(dev) || runWgmma<24>(dev) || runWgmma<256>(dev)) return 1;
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return std::fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e)), 1;
    return 0;
}
