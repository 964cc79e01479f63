// Host build of the device header's Philox4x32-10 (resources/ts_device/philox.cuh): the
// interpreters draw T.rng_rand / T.rng_rand_float from the very code the generated CUDA/HIP
// runs, so CPU and GPU agree bit for bit (the normal distribution up to libm's last bit).
#pragma once
#include <cmath>

namespace ts::interp::rng {
#define TS_HD inline
#include "resources/ts_device/philox.cuh"
#undef TS_HD
}  // namespace ts::interp::rng
