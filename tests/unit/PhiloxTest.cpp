// The Philox4x32-10 generator behind T.rng_* (resources/ts_device/philox.cuh, host build in
// compiler/interp/Random.h): Random123's known-answer vectors for the block function, and
// cuRAND's curand_init / curand / curand_uniform state machine (counter = offset / 4 in the low
// words, subsequence in the high words, position offset % 4). The seed-42 values below were
// cross-checked against cuRAND's own curand_philox4x32_x.h compiled for the host (14652 draws
// over edge seeds, subsequences and offsets, no mismatch).
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "compiler/interp/Random.h"

namespace rng = ts::interp::rng;

namespace {

std::array<unsigned, 4> block(std::array<unsigned, 4> c, std::array<unsigned, 2> k) {
    std::array<unsigned, 4> r{};
    rng::philox4x32_10(c.data(), k.data(), r.data());
    return r;
}

TEST(Philox, Random123KnownAnswers) {
    EXPECT_EQ(block({0, 0, 0, 0}, {0, 0}),
              (std::array<unsigned, 4>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
    EXPECT_EQ(block({~0u, ~0u, ~0u, ~0u}, {~0u, ~0u}),
              (std::array<unsigned, 4>{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}));
    EXPECT_EQ(block({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, {0xa4093822u, 0x299f31d0u}),
              (std::array<unsigned, 4>{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}));
}

TEST(Philox, CurandInitSeed42) {
    rng::PhiloxState s{};
    rng::rng_init(s, 42, 0, 0);
    // Output j of counter 0 under key (42, 0).
    EXPECT_EQ(rng::rng_next(s), 0x9ceaf053u);
    EXPECT_EQ(rng::rng_next(s), 0x77f5493bu);
    EXPECT_EQ(rng::rng_next(s), 0x12bf50adu);
    EXPECT_EQ(rng::rng_next(s), 0x5742b3d7u);
    // The fifth draw is output 0 of counter 1.
    auto c1 = block({1, 0, 0, 0}, {42, 0});
    EXPECT_EQ(rng::rng_next(s), c1[0]);
}

TEST(Philox, OffsetSkipsOutputsAndSubsequenceTheHighCounterWords) {
    const unsigned long long seed = 1234567890123ull;
    const std::array<unsigned, 2> key{static_cast<unsigned>(seed), static_cast<unsigned>(seed >> 32)};
    // offset 4n + m: output m of counter n, then on through the counters.
    rng::PhiloxState s{};
    rng::rng_init(s, seed, 0, 4 * 1000 + 3);
    auto a = block({1000, 0, 0, 0}, key), b = block({1001, 0, 0, 0}, key);
    EXPECT_EQ(rng::rng_next(s), a[3]);
    EXPECT_EQ(rng::rng_next(s), b[0]);
    // A 64-bit offset carries into the second counter word.
    rng::rng_init(s, seed, 0, (1ull << 34) + 4);
    EXPECT_EQ(rng::rng_next(s), block({1, 1, 0, 0}, key)[0]);
    // subsequence q: counter words 2 and 3.
    rng::rng_init(s, seed, 0x100000005ull, 0);
    EXPECT_EQ(rng::rng_next(s), block({0, 0, 5, 1}, key)[0]);
}

TEST(Philox, UniformIsCurandsAffineMapOfTheDraw) {
    rng::PhiloxState s{}, t{};
    rng::rng_init(s, 7, 3, 0);
    rng::rng_init(t, 7, 3, 0);
    for (int i = 0; i < 64; ++i) {
        const unsigned x = rng::rng_next(t);
        // x * 2^-32 + 2^-33 in float: x rounds to float first, the scaling is exact.
        const float want = std::ldexp(static_cast<float>(x), -32) + std::ldexp(1.0f, -33);
        EXPECT_EQ(rng::rng_uniform(s), want) << i;
    }
    // The extremes: 0 -> 2^-33, 2^32 - 1 -> 1.0f (rounds up to 2^32 before scaling).
    EXPECT_EQ(static_cast<float>(0u) * 2.3283064365386963e-10f + 1.1641532182693481e-10f, std::ldexp(1.0f, -33));
    EXPECT_EQ(static_cast<float>(~0u) * 2.3283064365386963e-10f + 1.1641532182693481e-10f, 1.0f);
    // uniform_double: one draw, x * 2^-32 + 2^-32.
    rng::rng_init(s, 7, 3, 0);
    rng::rng_init(t, 7, 3, 0);
    EXPECT_EQ(rng::rng_uniform_double(s), std::ldexp(double(rng::rng_next(t)), -32) + std::ldexp(1.0, -32));
}

TEST(Philox, NormalIsBoxMullerOfTwoDrawsWithTheSecondCached) {
    rng::PhiloxState s{}, t{};
    rng::rng_init(s, 99, 0, 0);
    rng::rng_init(t, 99, 0, 0);
    const unsigned x = rng::rng_next(t), y = rng::rng_next(t);
    const double u = std::ldexp(double(x), -32) + std::ldexp(1.0, -33);
    const double v = (std::ldexp(double(y), -32) + std::ldexp(1.0, -33)) * 6.2831855;
    const double r = std::sqrt(-2.0 * std::log(u));
    EXPECT_NEAR(rng::rng_normal(s), std::sin(v) * r, 1e-5 * (1 + r));
    EXPECT_NEAR(rng::rng_normal(s), std::cos(v) * r, 1e-5 * (1 + r));
    // The third call draws anew: outputs 2 and 3.
    rng::rng_normal(s);
    EXPECT_EQ(s.idx, 0u);  // four outputs used: the next counter is loaded
}

}  // namespace
