// Part of ts_device.cuh (inlined there when the header is embedded: cmake/EmbedResources.cmake
// replaces the #include line with this file), kept apart so each file has one job: the
// mma.sync atoms of the T.gemm dtypes beyond fp16/bf16 -> fp32.

// ============================================================================================
// mma.sync atoms of the other T.gemm dtypes (compiler/analysis/HwLayouts.h selectMmaAtom)
// ============================================================================================
// Every m16n8kX atom below takes 4 A and 2 B registers of 32 bits with the same word layout as
// m16n8k16 (a row of the atom is 32 bytes of K; lane 4g+t holds word t of bytes 0..15 and of
// bytes 16..31: PTX ISA §9.7.14.5.7 m16n8k8, §9.7.14.5.8 m16n8k16, §9.7.14.5.10 m16n8k32) and
// the m16n8 accumulator c0..c3 of mma_m16n8k16_f32. MmaAtom<T, TC>: kK (K per instruction),
// prepare(word) (applied once to every loaded operand register), mma(acc, a, b).

namespace detail {
/// Two fp8 bytes (low byte first) as an f16x2 word, exactly. e5m2 is the top byte of an f16.
/// e4m3 has a 4-bit exponent (bias 7) and 3-bit mantissa: its 7 magnitude bits placed in
/// f16's exponent/mantissa field (bias 15) give the value times 2^-8, subnormals included, and
/// one f16x2 multiply by 256 (exact, |x| <= 448) undoes that. e4m3's NaN (0x7f) becomes 480:
/// this sm_80 path does not propagate it.
template <class F8> TS_D unsigned fp8x2_to_f16x2(unsigned two) {
    const unsigned b0 = two & 0xffu, b1 = (two >> 8) & 0xffu;
    if constexpr (IsSame<F8, fp8_e5m2>::value) {
        return (b0 << 8) | (b1 << 24);
    } else {
        const unsigned h0 = ((b0 & 0x80u) << 8) | ((b0 & 0x7fu) << 7);
        const unsigned h1 = ((b1 & 0x80u) << 8) | ((b1 & 0x7fu) << 7);
        unsigned r;
        asm("mul.rn.f16x2 %0, %1, %2;" : "=r"(r) : "r"(h0 | (h1 << 16)), "r"(0x5c005c00u));
        return r;
    }
}
}  // namespace detail

/// One mma.sync with a 4-register accumulator d (constraint DC: "+f" for f32, "+r" for s32), 4 A
/// registers a and 2 B registers b; SHAPE_TYPES e.g. "m16n8k32.row.col.s32.s8.s8.s32".
#define TS_MMA_ACC4(SHAPE_TYPES, DC)                                                         \
    asm volatile("mma.sync.aligned." SHAPE_TYPES " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "  \
                 "{%0,%1,%2,%3};\n"                                                           \
                 : DC(d[0]), DC(d[1]), DC(d[2]), DC(d[3])                                     \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))

template <class T, class TC> struct MmaAtom;  // undefined: no mma.sync for this pair

/// fp16/bf16 x fp16/bf16 -> f32, m16n8k16 (mma_m16n8k16_f32).
template <class T> struct MmaAtomF32 {
    static constexpr int kK = 16;
    static TS_D unsigned prepare(unsigned w) { return w; }
    static TS_D void mma(float* d, const unsigned* a, const unsigned* b) { mma_m16n8k16_f32<T>(d, a, b); }
};
template <> struct MmaAtom<half, float> : MmaAtomF32<half> {};
template <> struct MmaAtom<bfloat16, float> : MmaAtomF32<bfloat16> {};

/// fp16 x fp16 -> fp16 (mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16, §9.7.14.5.8): the
/// accumulator is two f16x2 registers {c0,c1}, {c2,c3}, the same elements as the f32 c0..c3.
template <> struct MmaAtom<half, half> {
    static constexpr int kK = 16;
    static TS_D unsigned prepare(unsigned w) { return w; }
    static TS_D void mma(half* d, const unsigned* a, const unsigned* b) {
        unsigned c0 = unsigned(d[0].bits) | (unsigned(d[1].bits) << 16);
        unsigned c1 = unsigned(d[2].bits) | (unsigned(d[3].bits) << 16);
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, "
            "{%0,%1};\n"
            : "+r"(c0), "+r"(c1)
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        d[0] = half::fromBits((unsigned short)(c0 & 0xffffu));
        d[1] = half::fromBits((unsigned short)(c0 >> 16));
        d[2] = half::fromBits((unsigned short)(c1 & 0xffffu));
        d[3] = half::fromBits((unsigned short)(c1 >> 16));
    }
};

/// int8/uint8 -> int32 (mma.sync.aligned.m16n8k32.row.col.s32.{s8,u8}.{s8,u8}.s32,
/// §9.7.14.5.10; sm_80). Exact products and sums; no .satfinite, so overflow wraps.
template <class T8> struct MmaAtomInt8 {
    static constexpr int kK = 32;
    static TS_D unsigned prepare(unsigned w) { return w; }
    static TS_D void mma(int* d, const unsigned* a, const unsigned* b) {
        if constexpr (detail::IsSame<T8, unsigned char>::value)
            TS_MMA_ACC4("m16n8k32.row.col.s32.u8.u8.s32", "+r");
        else
            TS_MMA_ACC4("m16n8k32.row.col.s32.s8.s8.s32", "+r");
    }
};
template <> struct MmaAtom<signed char, int> : MmaAtomInt8<signed char> {};
template <> struct MmaAtom<unsigned char, int> : MmaAtomInt8<unsigned char> {};

/// fp8 (e4m3/e5m2) -> f32, K = 32. sm_89+: mma.sync.aligned.m16n8k32.row.col.f32.{e4m3,e5m2}
/// (§9.7.14.5.10). Below sm_89 (no fp8 mma): each fp8 word (k 4t..4t+3 of a row/column) is
/// widened to two f16x2 words and the atom runs as two m16n8k16 .f32.f16 mma. The k order
/// inside an instruction does not change a dot product as long as A and B agree, so the first
/// f16 mma takes bytes 0..15 of K with its k 2t+{0,1} = real 4t+{0,1} and k 8+2t+{0,1} = real
/// 4t+2+{0,1}: A {lo(a0), lo(a1), hi(a0), hi(a1)}, B {lo(b0), hi(b0)}; the second the same over
/// a2, a3, b1. Products are exact either way (fp8 -> f16 is exact).
template <class F8> struct MmaAtomFp8 {
    static constexpr int kK = 32;
    static TS_D unsigned prepare(unsigned w) { return w; }
    static TS_D void mma(float* d, const unsigned* a, const unsigned* b) {
#if __CUDA_ARCH__ >= 890
        if constexpr (detail::IsSame<F8, fp8_e4m3>::value)
            TS_MMA_ACC4("m16n8k32.row.col.f32.e4m3.e4m3.f32", "+f");
        else
            TS_MMA_ACC4("m16n8k32.row.col.f32.e5m2.e5m2.f32", "+f");
#else
        auto lo = [](unsigned w) { return detail::fp8x2_to_f16x2<F8>(w & 0xffffu); };
        auto hi = [](unsigned w) { return detail::fp8x2_to_f16x2<F8>(w >> 16); };
        const unsigned a1[4] = {lo(a[0]), lo(a[1]), hi(a[0]), hi(a[1])}, b1[2] = {lo(b[0]), hi(b[0])};
        const unsigned a2[4] = {lo(a[2]), lo(a[3]), hi(a[2]), hi(a[3])}, b2[2] = {lo(b[1]), hi(b[1])};
        mma_m16n8k16_f32<half>(d, a1, b1);
        mma_m16n8k16_f32<half>(d, a2, b2);
#endif
    }
};
template <> struct MmaAtom<fp8_e4m3, float> : MmaAtomFp8<fp8_e4m3> {};
template <> struct MmaAtom<fp8_e5m2, float> : MmaAtomFp8<fp8_e5m2> {};

/// float32 -> f32 through tf32 (mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32,
/// §9.7.14.5.7), as TileLang computes float32 T.gemm. Operands are rounded once when loaded
/// (cvt.rna.tf32.f32: 10 mantissa bits, ties away from zero).
template <> struct MmaAtom<float, float> {
    static constexpr int kK = 8;
    static TS_D unsigned prepare(unsigned w) {
        unsigned r;
        asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(__uint_as_float(w)));
        return r;
    }
    static TS_D void mma(float* d, const unsigned* a, const unsigned* b) {
        TS_MMA_ACC4("m16n8k8.row.col.f32.tf32.tf32.f32", "+f");
    }
};

/// Block GEMM from shared memory for any MmaAtom<T, TC> (T.gemm of the dtypes GemmSS does not
/// take): same shapes, warp grid, swizzle and accumulator contract as GemmSS (acc: kMI*kNI*4
/// values of TC per thread, the m16n8 C fragment), k-steps of kAK = MmaAtom::kK (32 bytes of K).
/// Operands whose K is contiguous in shared memory (A not transposed, B transposed) load with
/// ldmatrix, which moves 16-byte rows whatever the element size: the words it hands lane 4g+t
/// are exactly the atom's (see above). The other orientation needs a transpose: ldmatrix.trans
/// for 16-bit types, otherwise (8-bit, tf32) one shared load per element (ldmatrix.trans moves
/// 16-bit elements only, PTX ISA §9.7.14.5.15), packed into words.
template <int M, int N, int K, int WM, int WN, bool TA, bool TB, int SWZ_A, int SWZ_B, typename T,
          typename TC, int LDA = 0, int OFFA = 0, int LDB = 0, int OFFB = 0>
struct GemmSSAtom : GemmTiling<M, N, K, WM, WN, TA, TB, SWZ_A, SWZ_B, int(sizeof(T)), MmaAtom<T, TC>::kK, LDA, OFFA, LDB, OFFB> {
    using Atom = MmaAtom<T, TC>;
    static constexpr int kEpw = 4 / int(sizeof(T)), kAK = Atom::kK;
    static_assert(kAK * int(sizeof(T)) == 32, "ts::gemm_ss: an mma atom covers 32 bytes of K");
    using Tiling = GemmTiling<M, N, K, WM, WN, TA, TB, SWZ_A, SWZ_B, int(sizeof(T)), kAK, LDA, OFFA, LDB, OFFB>;
    // Addresses use the stored rows kPA/kPB and the origin offsets kOA/kOB (GemmTiling).
    using Tiling::kE, Tiling::kWTM, Tiling::kWTN, Tiling::kMI, Tiling::kNI, Tiling::kKI, Tiling::kOA, Tiling::kOB;
    static constexpr int kRA = Tiling::kPA, kRB = Tiling::kPB;

    struct Frags {
        unsigned a[kMI][4];
        unsigned b[kNI][2];
    };

    /// The word of kEpw elements k0..k0+kEpw-1 at column c of a tile stored [k][c] with R-byte
    /// rows (element x in bits 8*kE*x..).
    template <int R, int SWZ, int O> static __device__ __forceinline__ unsigned wordDown(const T* s, int k0, int c) {
        const unsigned char* p = reinterpret_cast<const unsigned char*>(s);
        unsigned w = 0;
#pragma unroll
        for (int x = 0; x < kEpw; ++x) {
            const int off = swizzle<R, SWZ>(O + (k0 + x) * R + c * kE);
            unsigned v;
            if constexpr (kE == 1) v = p[off];
            else if constexpr (kE == 2) v = *reinterpret_cast<const unsigned short*>(p + off);
            else v = *reinterpret_cast<const unsigned*>(p + off);
            w |= v << (8 * kE * x);
        }
        return w;
    }

    static __device__ __forceinline__ void load(const T* As, const T* Bs, int kk, Frags& f) {
        const int lane = int(threadIdx.x) & 31, warp = (int(threadIdx.x) >> 5) % (WM * WN);
        const int m0 = (warp / WN) * kWTM, n0 = (warp % WN) * kWTN;
        const int g = lane >> 2, t = lane & 3, l7 = lane & 7, q0 = (lane >> 3) & 1, q1 = lane >> 4;
        const int k = kk * kAK;  // first K element of this step
#pragma unroll
        for (int mi = 0; mi < kMI; ++mi) {
            const int m = m0 + mi * 16;
            if constexpr (!TA) {  // rows m.., 16-byte halves of the step's 32 bytes
                ldmatrix_x4(f.a[mi], smem_u32addr(As) + unsigned(swizzle<kRA, SWZ_A>(kOA +
                                                            (m + (lane & 15)) * kRA + k * kE + 16 * q1)));
            } else if constexpr (kE == 2) {  // stored [k][m]: as GemmSS's TA x4.trans
                ldmatrix_x4_trans(f.a[mi], smem_u32addr(As) + unsigned(swizzle<kRA, SWZ_A>(kOA +
                                                                  (k + l7 + 8 * q1) * kRA + (m + 8 * q0) * kE)));
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    f.a[mi][j] = wordDown<kRA, SWZ_A, kOA>(As, k + (t + 4 * (j / 2)) * kEpw, m + g + 8 * (j % 2));
            }
#pragma unroll
            for (int j = 0; j < 4; ++j) f.a[mi][j] = Atom::prepare(f.a[mi][j]);
        }
#pragma unroll
        for (int ni = 0; ni < kNI; ++ni) {
            const int n = n0 + ni * 8;
            if constexpr (TB) {  // stored [n][k]: lanes 0-15 address rows n+l7, halves q0
                ldmatrix_x2(f.b[ni], smem_u32addr(Bs) + unsigned(swizzle<kRB, SWZ_B>(kOB +
                                                            (n + l7) * kRB + k * kE + 16 * q0)));
            } else if constexpr (kE == 2) {  // stored [k][n]: rows k + lane%16
                ldmatrix_x2_trans(f.b[ni], smem_u32addr(Bs) + unsigned(swizzle<kRB, SWZ_B>(kOB +
                                                                  (k + (lane & 15)) * kRB + n * kE)));
            } else {
#pragma unroll
                for (int j = 0; j < 2; ++j) f.b[ni][j] = wordDown<kRB, SWZ_B, kOB>(Bs, k + (t + 4 * j) * kEpw, n + g);
            }
#pragma unroll
            for (int j = 0; j < 2; ++j) f.b[ni][j] = Atom::prepare(f.b[ni][j]);
        }
    }

    static __device__ __forceinline__ void mma(const Frags& f, TC* acc) {
#pragma unroll
        for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
            for (int ni = 0; ni < kNI; ++ni) Atom::mma(acc + (mi * kNI + ni) * 4, f.a[mi], f.b[ni]);
    }
};

/// C[M,N] += op(A)·op(B) over a K-deep block tile in shared memory: all kKI k-steps, the
/// fragments of step kk+1 loaded while step kk issues mma. Shapes, layouts and the accumulator
/// contract: see GemmSS (acc holds kMI*kNI*4 values of TC per thread). fp16/bf16 with an f32
/// accumulator take GemmSS, every other MmaAtom<T, TC> pair GemmSSAtom. Call with all WM*WN*32
/// threads; no barrier inside (the caller syncs before, and before overwriting As/Bs).
template <int M, int N, int K, int WM, int WN, bool TA, bool TB, int SWZ_A, int SWZ_B, typename T,
          typename TC, int LDA = 0, int OFFA = 0, int LDB = 0, int OFFB = 0>
__device__ __forceinline__ void gemm_ss(const T* As, const T* Bs, TC* acc) {
    constexpr bool kF16F32 = (detail::IsSame<T, half>::value || detail::IsSame<T, bfloat16>::value) &&
                             detail::IsSame<TC, float>::value;
    using G = typename detail::Conditional<kF16F32, GemmSS<M, N, K, WM, WN, TA, TB, SWZ_A, SWZ_B, T, LDA, OFFA, LDB, OFFB>,
                                           GemmSSAtom<M, N, K, WM, WN, TA, TB, SWZ_A, SWZ_B, T, TC, LDA, OFFA, LDB, OFFB>>::type;
    typename G::Frags f[2];
    G::load(As, Bs, 0, f[0]);
#pragma unroll
    for (int kk = 0; kk < G::kKI; ++kk) {
        if (kk + 1 < G::kKI) G::load(As, Bs, kk + 1, f[(kk + 1) & 1]);
        G::mma(f[kk & 1], acc);
    }
}

/// C[M,N] += A·op(B) with A (M x K) in registers (TileLang's gemm_rs; FlashAttention's P @ V):
/// a_regs is the calling thread's register array of an M x K tile laid out as the m16n8k16
/// accumulator of a WM x 1 warp grid (the GemmSS accumulator contract with N := K, WN := 1:
/// a_regs[(mi*(K/8) + n)*4 + e] is row wi*(M/WM) + mi*16 + lane/4 + 8*(e/2), col n*8 +
/// 2*(lane%4) + e%2). The C fragments of atoms (mi, 2kk) and (mi, 2kk+1) are then exactly the A
/// fragment of k-step kk (PTX ISA §9.7.14.5.8: a{0,1,2,3} = (g, 2t..), (g+8, 2t..), (g, 8+2t..),
/// (g+8, 8+2t..)), so A is only packed in pairs, never moved between threads. B as in GemmSS.
template <int M, int N, int K, int WM, bool TB, int SWZ_B, typename T, int LDB = 0, int OFFB = 0>
__device__ __forceinline__ void gemm_rs(const T* a_regs, const T* Bs, float* acc) {
    using G = GemmSS<M, N, K, WM, 1, false, TB, 0, SWZ_B, T, 0, 0, LDB, OFFB>;
    constexpr int kAN = K / 8;  // n8 atoms per atom row of A's accumulator layout
    unsigned b[2][G::kNI][2];
    G::loadB(Bs, 0, b[0]);
#pragma unroll
    for (int kk = 0; kk < G::kKI; ++kk) {
        if (kk + 1 < G::kKI) G::loadB(Bs, kk + 1, b[(kk + 1) & 1]);
#pragma unroll
        for (int mi = 0; mi < G::kMI; ++mi) {
            const T* lo = a_regs + (mi * kAN + 2 * kk) * 4;  // atom (mi, 2kk): k 16kk..16kk+7
            const T* hi = lo + 4;                            // atom (mi, 2kk+1): k 16kk+8..
            unsigned a[4];
            a[0] = unsigned(lo[0].bits) | (unsigned(lo[1].bits) << 16);
            a[1] = unsigned(lo[2].bits) | (unsigned(lo[3].bits) << 16);
            a[2] = unsigned(hi[0].bits) | (unsigned(hi[1].bits) << 16);
            a[3] = unsigned(hi[2].bits) | (unsigned(hi[3].bits) << 16);
#pragma unroll
            for (int ni = 0; ni < G::kNI; ++ni) mma_m16n8k16_f32<T>(acc + (mi * G::kNI + ni) * 4, a, b[kk & 1][ni]);
        }
    }
}
