// ============================================================================================
// Hopper (sm_90a): mbarriers, TMA tile loads, wgmma (resources/ts_device/hopper.cuh)
// ============================================================================================
// What the sm_90a T.gemm / T.copy / T.Pipelined lowering prints (compiler/transforms/
// LowerHopper.cpp, InjectPipelineTma.cpp). The shared-memory operand layout is
// analysis::wgmmaSharedOffset (compiler/analysis/WgmmaLayouts.h): a stored R x C tile is cut into
// panels of P = min(C*e, 128) bytes per row, rows of one panel contiguous, 16-byte chunks XORed
// with address bits 7.. (the TMA SWIZZLE_P mode, CUDA Driver API CUtensorMapSwizzle, equal to
// the wgmma descriptor's swizzle mode, PTX ISA 8.x §9.7.15.5.1.2 "Shared Memory Matrix Layout").
// Every tile is 1024-byte aligned (plan-smem), so the address-bit swizzle starts at the tile.
// Only compiled when TS_HOPPER is defined; instructions are sm_90 (mbarrier tx, TMA) or sm_90a
// (wgmma) and compile to a trap elsewhere, so a Hopper kernel built for sm_80 fails loudly.
#ifdef TS_HOPPER

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TS_SM90 1
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TS_SM90A 1
#endif

/// CUtensorMap (cuda.h: 128 bytes, 64-byte aligned), encoded on the host by
/// cuTensorMapEncodeTiled (profiler/cuda/TensorMap.cpp) and passed as a __grid_constant__
/// kernel parameter; the device only takes its address (PTX ISA §9.7.9.25.5.1 tensor copies).
struct alignas(64) TensorMap {
    unsigned long long opaque[16];
};

/// mbarrier.init with `count` expected arrivals (PTX ISA §9.7.13.15.9). One thread.
TS_D void mbarrier_init(unsigned long long* bar, unsigned count) {
#ifdef TS_SM90
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32addr(bar)), "r"(count) : "memory");
#else
    __trap();
#endif
}
/// Makes initialised mbarriers visible to the async proxy (TMA) before first use
/// (fence.mbarrier_init, PTX ISA §9.7.13.4 membar/fence).
TS_D void fence_barrier_init() {
#ifdef TS_SM90
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}
/// tl.mbarrier_init: n barriers from bar, `arrivals` arrivals each, made visible to TMA. One thread.
TS_D void mbarrier_init_n(unsigned long long* bar, int n, unsigned arrivals = 1) {
    for (int i = 0; i < n; ++i) mbarrier_init(bar + i, arrivals);
    fence_barrier_init();
}
/// One arrival of this thread (mbarrier.arrive, release semantics: PTX ISA §9.7.13.15.13): the
/// consumer's "done with this stage" that the refilling thread waits for.
TS_D void mbarrier_arrive(unsigned long long* bar) {
#ifdef TS_SM90
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32addr(bar)) : "memory");
#else
    __trap();
#endif
}
/// One arrival for the whole warp (tl.mbarrier_arrive with per_warp): __syncwarp orders every
/// lane's earlier accesses before lane 0's release arrive; the barrier counts warps.
TS_D void mbarrier_arrive_warp(unsigned long long* bar) {
    __syncwarp();
    if ((threadIdx.x & 31) == 0) mbarrier_arrive(bar);
}
/// `bytes` more transaction bytes for the current phase, without an arrival (mbarrier.expect_tx,
/// PTX ISA §9.7.13.15.11; T.mbarrier_expect_tx): every executing thread adds them.
TS_D void mbarrier_expect_tx(unsigned long long* bar, unsigned bytes) {
#ifdef TS_SM90
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_u32addr(bar)), "r"(bytes) : "memory");
#else
    __trap();
#endif
}
/// Orders this thread's generic-proxy shared-memory writes before later async-proxy (TMA,
/// wgmma) accesses (fence.proxy.async.shared::cta, PTX ISA §9.7.13.4).
TS_D void fence_proxy_async() {
#ifdef TS_SM90
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}
/// One arrival that also expects `bytes` more transaction bytes in the current phase
/// (mbarrier.arrive.expect_tx, PTX ISA §9.7.13.15.12).
TS_D void mbarrier_arrive_expect_tx(unsigned long long* bar, unsigned bytes) {
#ifdef TS_SM90
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32addr(bar)), "r"(bytes)
                 : "memory");
#else
    __trap();
#endif
}
/// setmaxnreg.inc/dec.sync.aligned.u32 N (PTX ISA §9.7.17.6): the executing warp group's
/// per-thread register budget becomes N (Inc: grow to N, else release down to N). Every thread
/// of the warp group must execute it; sm_90a only.
template <int N, int Inc>
TS_D void set_max_nreg() {
#ifdef TS_SM90A
    if (Inc)
        asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N));
    else
        asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N));
#endif
}
/// Spins until the phase with parity `parity` has completed (mbarrier.try_wait.parity,
/// PTX ISA §9.7.13.15.16): phase k of a barrier has parity k % 2.
TS_D void mbarrier_wait(unsigned long long* bar, unsigned parity) {
#ifdef TS_SM90
    const unsigned addr = smem_u32addr(bar);
    unsigned done = 0;
    do {
        asm volatile(
            "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}"
            : "=r"(done)
            : "r"(addr), "r"(parity)
            : "memory");
    } while (!done);
#else
    __trap();
#endif
}

/// TMA load of one 2-D box (cp.async.bulk.tensor.2d ... mbarrier::complete_tx::bytes, PTX ISA
/// §9.7.9.25.5.2): box at element coordinates (c0 = innermost, c1) of `map`'s tensor into `dst`
/// (shared, 128-byte aligned; 1024 with 128-byte swizzle); out-of-bounds elements are zero and
/// still count as transaction bytes. Completes on `bar`.
TS_D void tma_load_2d(const TensorMap* map, void* dst, unsigned long long* bar, int c0, int c1) {
#ifdef TS_SM90
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(
            smem_u32addr(dst)),
        "l"(reinterpret_cast<unsigned long long>(map)), "r"(smem_u32addr(bar)), "r"(c0), "r"(c1)
        : "memory");
#else
    __trap();
#endif
}

/// TMA loads of one box of a rank-3/4/5 tensor (cp.async.bulk.tensor.Nd, as tma_load_2d):
/// coordinates innermost first.
TS_D void tma_load_nd(const TensorMap* map, void* dst, unsigned long long* bar, int c0, int c1) { tma_load_2d(map, dst, bar, c0, c1); }
TS_D void tma_load_nd(const TensorMap* map, void* dst, unsigned long long* bar, int c0, int c1, int c2) {
#ifdef TS_SM90
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(
            smem_u32addr(dst)),
        "l"(reinterpret_cast<unsigned long long>(map)), "r"(smem_u32addr(bar)), "r"(c0), "r"(c1), "r"(c2)
        : "memory");
#else
    __trap();
#endif
}
TS_D void tma_load_nd(const TensorMap* map, void* dst, unsigned long long* bar, int c0, int c1, int c2, int c3) {
#ifdef TS_SM90
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], [%2];" ::"r"(
            smem_u32addr(dst)),
        "l"(reinterpret_cast<unsigned long long>(map)), "r"(smem_u32addr(bar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
        : "memory");
#else
    __trap();
#endif
}
TS_D void tma_load_nd(const TensorMap* map, void* dst, unsigned long long* bar, int c0, int c1, int c2, int c3, int c4) {
#ifdef TS_SM90
    asm volatile(
        "cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6, %7}], [%2];" ::"r"(
            smem_u32addr(dst)),
        "l"(reinterpret_cast<unsigned long long>(map)), "r"(smem_u32addr(bar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4)
        : "memory");
#else
    __trap();
#endif
}

/// A whole R x C stored tile as PANELS boxes of (PW elements, R rows), panel p from innermost
/// coordinate c0 + p*PW into dst + p*R*PW (the panel order of analysis::wgmmaSharedOffset); the
/// other coordinates (innermost first) are the tensor map's remaining dimensions, whose box is
/// R rows along one of them and 1 along the rest. One thread.
template <int PANELS, int PW, int R, class T, class... Cs>
TS_D void tma_load_tile(const TensorMap* map, T* dst, unsigned long long* bar, int c0, Cs... cs) {
#pragma unroll
    for (int p = 0; p < PANELS; ++p) tma_load_nd(map, dst + p * R * PW, bar, c0 + p * PW, int(cs)...);
}

// Shared -> global box instructions of one rank-2..5 tensor, for each of rank 2..5:
// NAME(map, src, c0, ..., c{r-1}) issues PRE ".tensor.<r>d.global.shared::cta" SUF ".bulk_group"
// [map, {c0, ...}], [src]; one thread, completion tracked by its bulk async-groups.
#ifdef TS_SM90
#define TS_TMA_OUT_ASM(PRE, SUF, R, COORDS) PRE ".tensor." #R "d.global.shared::cta" SUF ".bulk_group [%0, {" COORDS "}], [%1];"
#define TS_TMA_OUT_FAMILY(NAME, PRE, SUF)                                                                                         \
    TS_D void NAME(const TensorMap* map, const void* src, int c0, int c1) {                                                       \
        asm volatile(TS_TMA_OUT_ASM(PRE, SUF, 2, "%2, %3")::"l"(reinterpret_cast<unsigned long long>(map)), "r"(smem_u32addr(src)), \
                     "r"(c0), "r"(c1)                                                                                              \
                     : "memory");                                                                                                  \
    }                                                                                                                              \
    TS_D void NAME(const TensorMap* map, const void* src, int c0, int c1, int c2) {                                               \
        asm volatile(TS_TMA_OUT_ASM(PRE, SUF, 3, "%2, %3, %4")::"l"(reinterpret_cast<unsigned long long>(map)),                   \
                     "r"(smem_u32addr(src)), "r"(c0), "r"(c1), "r"(c2)                                                             \
                     : "memory");                                                                                                  \
    }                                                                                                                              \
    TS_D void NAME(const TensorMap* map, const void* src, int c0, int c1, int c2, int c3) {                                       \
        asm volatile(TS_TMA_OUT_ASM(PRE, SUF, 4, "%2, %3, %4, %5")::"l"(reinterpret_cast<unsigned long long>(map)),               \
                     "r"(smem_u32addr(src)), "r"(c0), "r"(c1), "r"(c2), "r"(c3)                                                    \
                     : "memory");                                                                                                  \
    }                                                                                                                              \
    TS_D void NAME(const TensorMap* map, const void* src, int c0, int c1, int c2, int c3, int c4) {                               \
        asm volatile(TS_TMA_OUT_ASM(PRE, SUF, 5, "%2, %3, %4, %5, %6")::"l"(reinterpret_cast<unsigned long long>(map)),           \
                     "r"(smem_u32addr(src)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4)                                           \
                     : "memory");                                                                                                  \
    }
#else
#define TS_TMA_OUT_FAMILY(NAME, PRE, SUF)                                                                          \
    TS_D void NAME(const TensorMap*, const void*, int, int) { __trap(); }                                          \
    TS_D void NAME(const TensorMap*, const void*, int, int, int) { __trap(); }                                     \
    TS_D void NAME(const TensorMap*, const void*, int, int, int, int) { __trap(); }                                \
    TS_D void NAME(const TensorMap*, const void*, int, int, int, int, int) { __trap(); }
#endif
/// TMA store of one box (cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group, PTX ISA
/// §9.7.9.25.5.2): the box at `src` (shared, 128-byte aligned; 1024 when swizzled) to element
/// coordinates (c0 = innermost, ...) of `map`'s tensor. Box elements outside the tensor are not
/// written. Completion is tracked by the issuing thread's bulk async-groups (tma_store_commit /
/// tma_store_wait), not by an mbarrier.
TS_TMA_OUT_FAMILY(tma_store_nd, "cp.async.bulk", "")
/// TMA reduce-add of one box (cp.reduce.async.bulk.tensor.Nd.global.shared::cta.add.tile.bulk_group,
/// PTX ISA §9.7.9.25.5.3): each element of the shared box is added atomically to the tensor's
/// element (the element type is the map's); out-of-bounds box elements are skipped.
TS_TMA_OUT_FAMILY(tma_reduce_add_nd, "cp.reduce.async.bulk", ".add.tile")
#undef TS_TMA_OUT_FAMILY

/// A whole R x C stored tile to global memory as PANELS boxes (the panel order of
/// tma_load_tile), committed as one bulk async-group (PTX ISA, cp.async.bulk.commit_group): stored
/// (ADD false: tma_store_nd) or added atomically (ADD true: tma_reduce_add_nd, T.atomic_add(dst,
/// tile, use_tma=True)). One thread; its earlier generic writes and those of the threads it
/// synchronised with must have been fenced with fence_proxy_async before the barrier it passed.
template <bool ADD, int PANELS, int PW, int R, class T, class... Cs>
TS_D void tma_out_tile(const TensorMap* map, const T* src, int c0, Cs... cs) {
#pragma unroll
    for (int p = 0; p < PANELS; ++p) {
        if (ADD)
            tma_reduce_add_nd(map, src + p * R * PW, c0 + p * PW, int(cs)...);
        else
            tma_store_nd(map, src + p * R * PW, c0 + p * PW, int(cs)...);
    }
#ifdef TS_SM90
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#endif
}
template <int PANELS, int PW, int R, class T, class... Cs>
TS_D void tma_store_tile(const TensorMap* map, const T* src, int c0, Cs... cs) { tma_out_tile<false, PANELS, PW, R>(map, src, c0, cs...); }
template <int PANELS, int PW, int R, class T, class... Cs>
TS_D void tma_reduce_add_tile(const TensorMap* map, const T* src, int c0, Cs... cs) { tma_out_tile<true, PANELS, PW, R>(map, src, c0, cs...); }

/// cp.async.bulk.wait_group[.read] N (PTX ISA §9.7.9.27): at most N of this thread's bulk
/// async-groups pending. READ: only their reads of shared memory are done (the source tile may be
/// reused once a barrier orders the other threads after this); else they are complete and their
/// global writes performed.
template <int N, bool READ>
TS_D void tma_store_wait() {
#ifdef TS_SM90
    if (READ)
        asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
    else
        asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
#else
    __trap();
#endif
}

/// wgmma shared-memory matrix descriptor (PTX ISA §9.7.15.5.1.2.2 "Matrix Descriptor Format"):
/// bits 0-13 start address >> 4, 16-29 leading-dimension byte offset >> 4, 32-45 stride-dimension
/// byte offset >> 4, 49-51 base offset (0: tiles are swizzle-aligned), 62-63 swizzle mode
/// (1 = 128 B, 2 = 64 B, 3 = 32 B).
TS_D unsigned long long wgmma_desc(const void* smem, unsigned lboBytes, unsigned sboBytes, int swizzleBytes) {
    const unsigned long long a = smem_u32addr(smem);
    const unsigned long long mode = swizzleBytes == 128 ? 1 : swizzleBytes == 64 ? 2 : swizzleBytes == 32 ? 3 : 0;
    return ((a & 0x3FFFF) >> 4) | ((unsigned long long)((lboBytes >> 4) & 0x3FFF) << 16) |
           ((unsigned long long)((sboBytes >> 4) & 0x3FFF) << 32) | (mode << 62);
}

/// Pins accumulator registers around the async wgmma so the compiler neither reads nor moves
/// them while the tensor cores own them (the operand fence CUTLASS calls warpgroup_fence_operand).
/// Eight registers per empty asm: the same volatile, memory-clobbering point with the same
/// registers tied as one asm per register (nothing is emitted), but an eighth of the inline-asm
/// statements for NVVM and ptxas (a 128x128 gemm's PTX: 2385 -> 1489 lines, identical SASS).
template <int R>
TS_D void wgmma_fence_regs(float* d) {
    constexpr int R8 = R / 8 * 8;
#pragma unroll
    for (int i = 0; i < R8; i += 8)
        asm volatile(""
                     : "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]),
                       "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])::"memory");
#pragma unroll
    for (int i = R8; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

/// Gives accumulator registers new, undefined values without an instruction (an empty asm with
/// outputs only): a cleared gemm's first wgmma ignores them (scale-d = 0), and without this the
/// "+f" operands would keep the previous values alive up to it -- across a loop's back edge, the
/// scores of the last iteration (FlashAttention at 128x64: 127 -> 130 registers, one block per
/// multiprocessor instead of two).
template <int R>
TS_D void wgmma_undef_regs(float* d) {
    constexpr int R8 = R / 8 * 8;
#pragma unroll
    for (int i = 0; i < R8; i += 8)
        asm volatile(""
                     : "=f"(d[i]), "=f"(d[i + 1]), "=f"(d[i + 2]), "=f"(d[i + 3]), "=f"(d[i + 4]),
                       "=f"(d[i + 5]), "=f"(d[i + 6]), "=f"(d[i + 7]));
#pragma unroll
    for (int i = R8; i < R; ++i) asm volatile("" : "=f"(d[i]));
}

/// Address of k-step kk (16 elements of K) and MN offset mn0 of a stored R x C operand tile in
/// the wgmma_smem layout, and its descriptor. K-major (C is K): panel of k, row mn0. MN-major
/// (C is MN): rows 16*kk, panel of mn0 (mn0*e a multiple of the panel width). P0: the tile's
/// panel bytes when narrower than its row allows (analysis::wgmmaTileGeometry's maxPanelBytes);
/// 0 = the row's bytes up to 128.
template <int R, int C, bool KMAJOR, class T, int P0 = 0>
TS_D unsigned long long wgmma_operand_desc(const T* tile, int kk, int mn0) {
    constexpr int E = sizeof(T), P = P0 ? P0 : C * E < 128 ? C * E : 128, PW = P / E;
    const char* base = reinterpret_cast<const char*>(tile);
    if (KMAJOR) {
        const int kByte = kk * 16 * E;
        return wgmma_desc(base + (kByte / P) * R * P + mn0 * P + kByte % P, 16, 8 * P, P);
    }
    return wgmma_desc(base + (mn0 / PW) * R * P + kk * 16 * P, R * P, 8 * P, P);
}

/// Block-level C += op(A) * op(B) on the tensor cores (T.gemm on sm_90a): WG x WGN warpgroups,
/// warpgroup g at (g/WGN, g%WGN) owns the rows (g/WGN)*M/WG.. as M/WG/64 wgmma m64nN'k16 tiles
/// over the N' = N/WGN columns (g%WGN)*N'..; acc is the thread's part of
/// analysis::makeWgmmaAccumulator(M, N, {WG, WGN, N'}) (tile mi at acc + mi*N'/2) -- with WGN > 1
/// or M/WG > 64 the wgmma fragment path's mma_c layout in warpgroup order (analysis::WarpPartition).
/// A is stored M x K (K x M when TA), B K x N (N x K when TB), both in the wgmma_smem layout; an
/// MN-major B (!TB) with WGN > 1 needs N' a multiple of its swizzle panel (the compiler checks).
/// Commits its wgmma as one group and waits until at most WAIT groups are pending (0: this gemm is
/// done and its tiles free; 1: the previous gemm's group is done, this one may still read its
/// tiles and write acc, see wgmma_wait). tx0: the first thread of the warp role issuing it (T.ws),
/// from which its warpgroups count. PA, PB: the tiles' panel bytes when narrower (wgmma_operand_desc).
/// CLEAR: acc = op(A) * op(B) (T.gemm clear_accum): the first k-step's scale-d is 0, so the
/// accumulator's old values are ignored by the tensor cores instead of zeroed by N/2 moves.
template <int M, int N, int K, int WG, bool TA, bool TB, int WAIT, class T, int WGN = 1, int PA = 0, int PB = 0, bool CLEAR = false>
TS_D void wgmma_gemm_ss(const T* A, const T* B, float* acc, int tx0 = 0) {
#ifdef TS_SM90A
    constexpr int NW = N / WGN, MI = M / WG / 64, R = NW / 2;
    constexpr int AR = TA ? K : M, AC = TA ? M : K, BR = TB ? N : K, BC = TB ? K : N;
    const int wg = (int(threadIdx.x) - tx0) / 128, wgRow = WGN == 1 ? wg : wg / WGN, wgCol = WGN == 1 ? 0 : wg % WGN;
    if (CLEAR) wgmma_undef_regs<MI * R>(acc);
    wgmma_fence_regs<MI * R>(acc);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int kk = 0; kk < K / 16; ++kk) {
        const unsigned long long db = wgmma_operand_desc<BR, BC, TB, T, PB>(B, kk, wgCol * NW);
#pragma unroll
        for (int mi = 0; mi < MI; ++mi) {
            const unsigned long long da = wgmma_operand_desc<AR, AC, !TA, T, PA>(A, kk, wgRow * (M / WG) + mi * 64);
            WgmmaSS<NW, T, TA ? 1 : 0, TB ? 0 : 1>::mma(acc + mi * R, da, db, CLEAR && kk == 0 ? 0 : 1);
        }
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(WAIT) : "memory");
    wgmma_fence_regs<MI * R>(acc);
#else
    __trap();
#endif
}

/// Block-level C += A * op(B) with A from registers (tl.wgmma_rs, the FlashAttention P @ V on
/// sm_90a): WG warpgroups split M, each owns M/WG rows as MI = M/WG/64 m64 tiles in which warp
/// w%4 holds rows 16*(w%4).. (the mma_c layout on M/16 x 1 warps, in warpgroup order when MI > 1:
/// analysis::WarpPartition). a holds the thread's part of that m16n8k16 accumulator layout of the
/// M x K A tile: the registers of tile mi start at a + mi*K/2, and their 8kk..8kk+7 are the wgmma
/// A fragment of k-step kk (a0..a7, PTX ISA §9.7.15.5.1.1); acc the same layout of M x N (tile mi
/// at acc + mi*N/2: the wgmma m64nN accumulator). B is stored K x N (N x K when TB) in the
/// wgmma_smem layout. Issued, committed and waited until at most WAIT groups are pending (0: to
/// completion; 1: left in flight, a later wait retires it and pins acc). PB: B's panel bytes when
/// narrower (wgmma_operand_desc).
template <int M, int N, int K, int WG, bool TB, class T, int WAIT = 0, int PB = 0>
TS_D void wgmma_gemm_rs(const T* a, const T* B, float* acc) {
#ifdef TS_SM90A
    constexpr int MI = M / WG / 64, R = N / 2, BR = TB ? N : K, BC = TB ? K : N;
    static_assert(M % (64 * WG) == 0, "wgmma_gemm_rs: whole m64 tiles per warpgroup");
    // Packed in pairs as gemm_rs does (a register array of 16-bit values, never reinterpreted).
    unsigned ar[MI][K / 16][4];
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
        for (int kk = 0; kk < K / 16; ++kk)
#pragma unroll
            for (int q = 0; q < 4; ++q)
                ar[mi][kk][q] = unsigned(a[mi * (K / 2) + 8 * kk + 2 * q].bits) | (unsigned(a[mi * (K / 2) + 8 * kk + 2 * q + 1].bits) << 16);
    wgmma_fence_regs<MI * R>(acc);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int kk = 0; kk < K / 16; ++kk)
#pragma unroll
        for (int mi = 0; mi < MI; ++mi)
            WgmmaRS<N, T, TB ? 0 : 1>::mma(acc + mi * R, ar[mi][kk], wgmma_operand_desc<BR, BC, TB, T, PB>(B, kk, 0));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(WAIT) : "memory");
    wgmma_fence_regs<MI * R>(acc);
#else
    __trap();
#endif
}

/// Waits until at most WAIT wgmma groups are pending (wgmma.wait_group, PTX ISA §9.7.15.7), then
/// pins the R accumulator registers so no read of them is scheduled before the wait.
template <int WAIT, int R>
TS_D void wgmma_wait(float* acc) {
#ifdef TS_SM90A
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(WAIT) : "memory");
    wgmma_fence_regs<R>(acc);
#endif
}

/// Ping-pong of the two warpgroups of a 256-thread block (tl.warpgroup_turn; FlashAttention-3's
/// warp-scheduler barriers): warpgroup w waits for its turn on named barrier 2 + w and passes the
/// turn on 3 - w (bar.sync / bar.arrive id, 256: PTX ISA §9.7.13.1), so one warpgroup's wgmma
/// runs while the other computes its softmax instead of both doing the same thing at once.
/// Named barriers 0 (__syncthreads) and 1 (warp-specialize's consumer barrier) stay free.
/// Immediate barrier ids (a warp-uniform branch): with an id in a register ptxas reserves all 16
/// named barriers of the SM for the block ("used 16 barriers"), which caps blocks per SM.
TS_D void warpgroup_turn_wait() {
    if (threadIdx.x < 128) asm volatile("bar.sync 2, 256;" ::: "memory");
    else asm volatile("bar.sync 3, 256;" ::: "memory");
}
TS_D void warpgroup_turn_pass() {
    if (threadIdx.x < 128) asm volatile("bar.arrive 3, 256;" ::: "memory");
    else asm volatile("bar.arrive 2, 256;" ::: "memory");
}
/// Before the loop: warpgroup 1 hands warpgroup 0 the first turn, then both wait for theirs.
TS_D void warpgroup_turn_begin() {
    if (threadIdx.x >= 128) asm volatile("bar.arrive 2, 256;" ::: "memory");
    warpgroup_turn_wait();
}
/// After the loop: warpgroup 0's pass that warpgroup 1's last wait needs (arrivals balance).
TS_D void warpgroup_turn_end() {
    if (threadIdx.x < 128) asm volatile("bar.arrive 3, 256;" ::: "memory");
}

#endif  // TS_HOPPER
