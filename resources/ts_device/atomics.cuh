// Atomics both device headers implement the same way (CUDA: ts_device.cuh, HIP: ts_hip.h):
// the CAS-loop helpers and T.atomic_max/T.atomic_min. Device code only; included inside
// `namespace ts` after the header defines TS_D (atomicCAS, atomicMax/Min and the
// __float_as_uint family exist under both CUDA and HIP). Inlined by EmbedResources.cmake.

namespace detail {
/// *addr = f(*addr) for a 16-bit float type through a CAS loop on the containing 32-bit word
/// (addr 2-byte aligned, global or shared). `f` maps the current value (as float) to the new one.
template <class T, class F>
TS_D void atomic_update16(T* addr, F f) {
    const unsigned long long a = reinterpret_cast<unsigned long long>(addr);
    unsigned* word = reinterpret_cast<unsigned*>(a & ~3ull);
    const unsigned shift = (a & 2ull) ? 16u : 0u;
    unsigned old = *word, assumed;
    do {
        assumed = old;
        const T cur = T::fromBits((unsigned short)(assumed >> shift));
        const unsigned upd = T(f(float(cur))).bits;
        const unsigned next = (assumed & ~(0xffffu << shift)) | (upd << shift);
        old = atomicCAS(word, assumed, next);
    } while (old != assumed);
}
/// *addr = f(*addr) for float through a CAS loop on its bit pattern.
template <class F>
TS_D void atomic_update32(float* addr, F f) {
    unsigned* word = reinterpret_cast<unsigned*>(addr);
    unsigned old = *word, assumed;
    do {
        assumed = old;
        old = atomicCAS(word, assumed, __float_as_uint(f(__uint_as_float(assumed))));
    } while (old != assumed);
}
}  // namespace detail

/// *addr = max(*addr, v) / min(*addr, v) atomically (T.atomic_max / T.atomic_min; NaN operands
/// lose, as fmaxf/fminf). Integers: atomicMax/atomicMin; float, half, bfloat16: CAS loops.
TS_D void atomic_max(int* addr, int v) { atomicMax(addr, v); }
TS_D void atomic_min(int* addr, int v) { atomicMin(addr, v); }
TS_D void atomic_max(unsigned* addr, unsigned v) { atomicMax(addr, v); }
TS_D void atomic_min(unsigned* addr, unsigned v) { atomicMin(addr, v); }
TS_D void atomic_max(float* addr, float v) {
    detail::atomic_update32(addr, [v](float cur) { return fmaxf(cur, v); });
}
TS_D void atomic_min(float* addr, float v) {
    detail::atomic_update32(addr, [v](float cur) { return fminf(cur, v); });
}
template <class T>
TS_D void atomic_max(T* addr, T v) {
    const float x = float(v);
    detail::atomic_update16(addr, [x](float cur) { return fmaxf(cur, x); });
}
template <class T>
TS_D void atomic_min(T* addr, T v) {
    const float x = float(v);
    detail::atomic_update16(addr, [x](float cur) { return fminf(cur, x); });
}

/// Element i of the packed 4-bit array at p (global or shared) = v. Neighbouring nibbles belong
/// to other threads' elements, so the containing 32-bit word is updated atomically: clear the
/// bits of this nibble that must become 0, then set those that must become 1 (both only touch
/// this nibble; other threads' nibbles are never rewritten).
template <class T> TS_D void store_packed4(T* p, long long i, T v) {
    const unsigned long long a = reinterpret_cast<unsigned long long>(reinterpret_cast<unsigned char*>(p) + (i >> 1));
    unsigned* word = reinterpret_cast<unsigned*>(a & ~3ull);
    const unsigned shift = unsigned(a & 3ull) * 8u + ((i & 1) ? 4u : 0u);
    const unsigned nib = detail::toNibble(v) << shift;
    atomicAnd(word, ~(0xfu << shift) | nib);
    atomicOr(word, nib);
}
