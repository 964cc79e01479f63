// Counter-based random numbers of T.rng_init / T.rng_rand / T.rng_rand_float: Philox4x32-10
// (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11) with cuRAND's state
// machine for curandStatePhilox4_32_10_t (TileLang's default generator: its codegen prints
// curand_init(seed, subsequence, offset, &state) and curand(&state)). Counter layout as cuRAND's
// device API documents it: the key is the 64-bit seed, a subsequence advances the upper 64 bits
// of the 128-bit counter, an offset skips that many 32-bit outputs (4 per counter value).
//
// Plain C++ apart from TS_HD: included inside `namespace ts` by ts_device.cuh / ts_hip.h, and by
// the interpreters (compiler/interp/Random.h defines TS_HD as `inline`), so the CPU and the GPU
// run the same code and produce the same bits. Only the normal distribution calls libm (logf,
// sinf, cosf), whose last bit may differ between host and device.

// The counter step runs once per four draws: out of line on the device, so that a fully
// unrolled loop of draws does not inline ten Philox rounds per draw (NVRTC time).
#ifdef TS_D
#define TS_RNG_STEP __host__ __device__ __noinline__
#else
#define TS_RNG_STEP inline
#endif

struct PhiloxState {
    unsigned ctr[4];
    unsigned out[4];
    unsigned key[2];
    unsigned idx;            ///< next output of `out` (0..3)
    int hasExtra;            ///< Box-Muller's second float is cached
    float extra;
    int hasExtraDouble;
    double extraDouble;
};

/// high 32 bits of a 32x32 product (PTX mul.hi.u32; written portably).
TS_HD unsigned philoxMulHi(unsigned a, unsigned b) {
    return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}

/// Philox4x32 with 10 rounds on counter c and key k (Random123's philox4x32_R(10, c, k)).
TS_HD void philox4x32_10(const unsigned c[4], const unsigned k[2], unsigned r[4]) {
    unsigned x0 = c[0], x1 = c[1], x2 = c[2], x3 = c[3], k0 = k[0], k1 = k[1];
    for (int round = 0; round < 10; ++round) {
        if (round) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        const unsigned hi0 = philoxMulHi(0xD2511F53u, x0), lo0 = 0xD2511F53u * x0;
        const unsigned hi1 = philoxMulHi(0xCD9E8D57u, x2), lo1 = 0xCD9E8D57u * x2;
        const unsigned y0 = hi1 ^ x1 ^ k0, y2 = hi0 ^ x3 ^ k1;
        x0 = y0;
        x1 = lo1;
        x2 = y2;
        x3 = lo0;
    }
    r[0] = x0;
    r[1] = x1;
    r[2] = x2;
    r[3] = x3;
}

/// counter += n (128-bit add of a 64-bit n to the low words).
TS_HD void philoxAdvance(PhiloxState& s, unsigned long long n) {
    const unsigned lo = static_cast<unsigned>(n);
    unsigned hi = static_cast<unsigned>(n >> 32);
    s.ctr[0] += lo;
    if (s.ctr[0] < lo) ++hi;
    s.ctr[1] += hi;
    if (hi <= s.ctr[1]) return;
    if (++s.ctr[2]) return;
    ++s.ctr[3];
}

/// curand_init(seed, subsequence, offset, &state) for Philox4_32_10.
TS_HD void rng_init(PhiloxState& s, unsigned long long seed, unsigned long long subsequence,
                    unsigned long long offset) {
    s.ctr[0] = s.ctr[1] = s.ctr[2] = s.ctr[3] = 0;
    s.key[0] = static_cast<unsigned>(seed);
    s.key[1] = static_cast<unsigned>(seed >> 32);
    s.idx = 0;
    s.hasExtra = s.hasExtraDouble = 0;
    s.extra = 0.0f;
    s.extraDouble = 0.0;
    // skipahead_sequence: the upper 64 counter bits
    const unsigned slo = static_cast<unsigned>(subsequence);
    unsigned shi = static_cast<unsigned>(subsequence >> 32);
    s.ctr[2] += slo;
    if (s.ctr[2] < slo) ++shi;
    s.ctr[3] += shi;
    // skipahead(offset): whole counter values, then the position inside one
    s.idx = static_cast<unsigned>(offset & 3u);
    philoxAdvance(s, offset >> 2);
    philox4x32_10(s.ctr, s.key, s.out);
}

/// The next counter value's four outputs (cuRAND: Philox_State_Incr, then the block function).
TS_RNG_STEP void rng_step(PhiloxState& s) {
    philoxAdvance(s, 1);
    philox4x32_10(s.ctr, s.key, s.out);
    s.idx = 0;
}

/// curand(&state): the next 32-bit output.
TS_HD unsigned rng_next(PhiloxState& s) {
    const unsigned v = s.out[s.idx++];
    if (s.idx == 4) rng_step(s);
    return v;
}

/// curand_uniform: (0, 1], x * 2^-32 + 2^-33 in float (the product is exact, so FMA contraction
/// cannot change the result).
TS_HD float rng_uniform(PhiloxState& s) {
    return static_cast<float>(rng_next(s)) * 2.3283064365386963e-10f + 1.1641532182693481e-10f;
}

/// curand_uniform_double for Philox: one output, x * 2^-32 + 2^-32, (0, 1].
TS_HD double rng_uniform_double(PhiloxState& s) {
    return static_cast<double>(rng_next(s)) * 2.3283064365386963e-10 + 2.3283064365386963e-10;
}

/// curand_normal: Box-Muller on two outputs (cuRAND's _curand_box_muller), the second result
/// cached for the next call. The device uses __sincosf as cuRAND does; the host sinf/cosf.
TS_HD float rng_normal(PhiloxState& s) {
    if (s.hasExtra) {
        s.hasExtra = 0;
        return s.extra;
    }
    const unsigned x = rng_next(s), y = rng_next(s);
    const float twoPiInv32 = 2.3283064365386963e-10f * 6.2831855f;  // exact: a power-of-2 scaling
    const float u = static_cast<float>(x) * 2.3283064365386963e-10f + 1.1641532182693481e-10f;
    const float v = static_cast<float>(y) * twoPiInv32 + twoPiInv32 / 2.0f;
    const float r = sqrtf(-2.0f * logf(u));
    float sn, cs;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    __sincosf(v, &sn, &cs);
#else
    sn = sinf(v);
    cs = cosf(v);
#endif
    s.extra = cs * r;
    s.hasExtra = 1;
    return sn * r;
}

/// curand_normal_double: Box-Muller on four outputs (cuRAND's _curand_box_muller_double: two
/// 53-bit uniforms), the second result cached. Device sincospi, host sin/cos of v*pi.
TS_HD double rng_normal_double(PhiloxState& s) {
    if (s.hasExtraDouble) {
        s.hasExtraDouble = 0;
        return s.extraDouble;
    }
    const unsigned x0 = rng_next(s), x1 = rng_next(s), y0 = rng_next(s), y1 = rng_next(s);
    const double inv53 = 1.1102230246251565e-16;
    const unsigned long long zx = static_cast<unsigned long long>(x0) ^ (static_cast<unsigned long long>(x1) << 21);
    const unsigned long long zy = static_cast<unsigned long long>(y0) ^ (static_cast<unsigned long long>(y1) << 21);
    const double u = static_cast<double>(zx) * inv53 + inv53 / 2.0;
    const double v = static_cast<double>(zy) * (inv53 * 2.0) + inv53;
    const double r = sqrt(-2.0 * log(u));
    double sn, cs;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    sincospi(v, &sn, &cs);
#else
    sn = sin(v * 3.1415926535897931);
    cs = cos(v * 3.1415926535897931);
#endif
    s.extraDouble = cs * r;
    s.hasExtraDouble = 1;
    return sn * r;
}

#undef TS_RNG_STEP
