// The one registry of the tile language's `T.*` surface (LANGUAGE.md §3): every name a kernel may
// use through `import tilelang.language as T`, with its call signature and a one-line summary.
// The IDE draws its autocompletion, call tips and `T.*` highlighting from this list; the front end
// may use it to recognise names and to suggest the closest one in "unknown name" diagnostics, so
// both always agree on the language. (Created by the GUI engineer, issue 3; the front-end owner is
// welcome to extend it — keep one entry per name, sorted by kind then as in LANGUAGE.md.)
// Header-only and constexpr: no Qt, no allocation, usable from every layer.
#pragma once
#include <string_view>

namespace ts::fe {

/// What a registered name is, for the completion list's icon and the front end's checks.
enum class LangKind : unsigned char {
    Type,       ///< T.Tensor, T.float16, ...: parameter annotations and dtype constructors
    Scope,      ///< T.Kernel, T.Pipelined, T.Parallel, ...: `with`/`for` constructs
    Alloc,      ///< T.alloc_*: buffer allocation
    TileOp,     ///< T.copy, T.gemm, T.reduce_*, ...: tile-level operations
    Math,       ///< T.exp, T.max, ...: scalar math usable in element expressions
    Sync,       ///< barriers, fences, mbarriers, warp specialization
    Layout,     ///< layouts and swizzles
    Meta,       ///< compile-time helpers (T.ceildiv, T.const, T.dynamic, ...)
    Decorator,  ///< T.prim_func, T.macro
};

/// One `T.<name>`. `signature` is what a call tip shows ("copy(src, dst, ...)"); `summary` is one
/// sentence in the user's terms.
struct LangEntry {
    std::string_view name;
    LangKind kind;
    std::string_view signature;
    std::string_view summary;
};

// clang-format off
/// Every `T.*` name of the language, in LANGUAGE.md order.
inline constexpr LangEntry kLanguage[] = {
    // decorators
    {"prim_func", LangKind::Decorator, "prim_func", "Marks the kernel function elaborated into Tile IR."},
    {"macro", LangKind::Decorator, "macro", "A helper inlined at each call site inside a prim_func."},
    // types
    {"Tensor", LangKind::Type, "Tensor(shape, dtype)", "Global tensor parameter (row-major)."},
    {"Buffer", LangKind::Type, "Buffer(shape, dtype)", "Global tensor parameter (alias of T.Tensor)."},
    {"StridedTensor", LangKind::Type, "StridedTensor(shape, strides, dtype)", "Global tensor with explicit strides."},
    {"bool", LangKind::Type, "bool(x)", "Boolean dtype / constructor."},
    {"int8", LangKind::Type, "int8(x)", "8-bit signed integer dtype / constructor."},
    {"int16", LangKind::Type, "int16(x)", "16-bit signed integer dtype / constructor."},
    {"int32", LangKind::Type, "int32(x)", "32-bit signed integer dtype / constructor."},
    {"int64", LangKind::Type, "int64(x)", "64-bit signed integer dtype / constructor."},
    {"uint8", LangKind::Type, "uint8(x)", "8-bit unsigned integer dtype / constructor."},
    {"uint16", LangKind::Type, "uint16(x)", "16-bit unsigned integer dtype / constructor."},
    {"uint32", LangKind::Type, "uint32(x)", "32-bit unsigned integer dtype / constructor."},
    {"uint64", LangKind::Type, "uint64(x)", "64-bit unsigned integer dtype / constructor."},
    {"float16", LangKind::Type, "float16(x)", "IEEE half dtype / constructor."},
    {"bfloat16", LangKind::Type, "bfloat16(x)", "bfloat16 dtype / constructor."},
    {"float32", LangKind::Type, "float32(x)", "IEEE single dtype / constructor (alias \"float\")."},
    {"float64", LangKind::Type, "float64(x)", "IEEE double dtype / constructor."},
    {"float", LangKind::Type, "float(x)", "Alias of float32 (TileLang's T.float)."},
    {"tfloat32", LangKind::Type, "tfloat32", "TF32 gemm operand dtype (not supported yet)."},
    {"float4_e2m1fn", LangKind::Type, "float4_e2m1fn", "FP4 E2M1 dtype: 4-bit float, stored two per byte (low nibble = even index); no atomics."},
    {"ptr", LangKind::Type, "ptr", "Raw device pointer: element type of a pointer table parameter T.Tensor([G], T.ptr)."},
    {"make_tensor", LangKind::Math, "make_tensor(ptr, shape, dtype=\"float32\", strides=None)", "A kernel tensor over the memory a pointer-table element points to."},
    {"float8_e4m3", LangKind::Type, "float8_e4m3(x)", "FP8 E4M3 dtype (no infinities)."},
    {"float8_e5m2", LangKind::Type, "float8_e5m2(x)", "FP8 E5M2 dtype."},
    {"int4", LangKind::Type, "int4(x)", "Packed 4-bit signed integer dtype."},
    {"uint4", LangKind::Type, "uint4(x)", "Packed 4-bit unsigned integer dtype."},
    // scopes and loops
    {"Kernel", LangKind::Scope, "Kernel(gx, gy=1, gz=1, threads=128)", "Launch scope: grid extents and block size; yields block indices."},
    {"Pipelined", LangKind::Scope, "Pipelined(n, num_stages=2, order=None, stage=None)", "Software-pipelined loop: copies of later iterations overlap compute."},
    {"Parallel", LangKind::Scope, "Parallel(e0, e1, ...)", "Element-wise loop nest mapped onto threads by the inferred layout."},
    {"serial", LangKind::Scope, "serial(n)", "Ordinary sequential loop."},
    {"grid", LangKind::Scope, "grid(*extents)", "Nested serial loops, one variable per extent: for i, j in T.grid(M, N)."},
    {"unroll", LangKind::Scope, "unroll(n)", "Fully unrolled loop."},
    {"vectorized", LangKind::Scope, "vectorized(n)", "Loop mapped onto vector lanes."},
    {"ws", LangKind::Scope, "ws(i)", "Warp-specialization scope for warp group i (sm_90)."},
    {"parallel", LangKind::Scope, "parallel(n)", "TVM spelling of a one-dimensional T.Parallel loop."},
    // allocation
    {"alloc_shared", LangKind::Alloc, "alloc_shared(shape, dtype)", "Shared-memory tile (dynamic shared memory)."},
    {"alloc_fragment", LangKind::Alloc, "alloc_fragment(shape, dtype)", "Register tile distributed over the block's threads."},
    {"alloc_local", LangKind::Alloc, "alloc_local(shape, dtype)", "Per-thread local array."},
    {"alloc_var", LangKind::Alloc, "alloc_var(dtype, init=None)", "Per-thread scalar variable."},
    {"alloc_barrier", LangKind::Alloc, "alloc_barrier(arrive_counts)", "mbarriers (sm_90+)."},
    {"alloc_global", LangKind::Alloc, "alloc_global(shape, dtype)", "Global scratch tensor allocated per launch (not supported yet)."},
    {"empty", LangKind::Alloc, "empty(shape, dtype)", "Output tensor of an eager-style kernel."},
    // tile operations
    {"copy", LangKind::TileOp, "copy(src, dst, coalesced_width=None, disable_tma=False)", "Region copy between global, shared and fragment memory."},
    {"gemm", LangKind::TileOp, "gemm(A, B, C, transpose_A=False, transpose_B=False, policy=T.GemmWarpPolicy.Square, clear_accum=False, k_pack=1)", "C += op(A) * op(B) on tiles."},
    {"GemmWarpPolicy", LangKind::TileOp, "GemmWarpPolicy.Square | FullRow | FullCol", "How T.gemm splits warps over M and N."},
    {"fill", LangKind::TileOp, "fill(buf, value)", "Fills a tile with a value."},
    {"clear", LangKind::TileOp, "clear(buf)", "Fills a tile with zero."},
    {"reduce_sum", LangKind::TileOp, "reduce_sum(src, dst, dim=-1, clear=True)", "Sum of a fragment along one axis."},
    {"reduce_max", LangKind::TileOp, "reduce_max(src, dst, dim=-1, clear=True, nan_propagate=False)", "Maximum of a fragment along one axis; NaN elements are skipped unless nan_propagate=True (then a NaN is the result)."},
    {"reduce_min", LangKind::TileOp, "reduce_min(src, dst, dim=-1, clear=True, nan_propagate=False)", "Minimum of a fragment along one axis; NaN elements are skipped unless nan_propagate=True (then a NaN is the result)."},
    {"reduce_absmax", LangKind::TileOp, "reduce_absmax(src, dst, dim=-1, clear=True, nan_propagate=False)", "Maximum absolute value along one axis; NaN as reduce_max."},
    {"reduce_abssum", LangKind::TileOp, "reduce_abssum(src, dst, dim=-1, clear=True)", "Sum of absolute values along one axis."},
    {"cumsum", LangKind::TileOp, "cumsum(src, dst=None, dim=0, reverse=False)", "Inclusive scan along one axis."},
    {"atomic_add", LangKind::TileOp, "atomic_add(dst, value, memory_order=None, return_prev=False, use_tma=False)", "Atomic add of a scalar or tile; memory_order orders int32/uint32/float32 adds (PTX atom.<sem>.gpu)."},
    {"atomic_max", LangKind::TileOp, "atomic_max(dst, value, memory_order=None, return_prev=False)", "Atomic maximum of a scalar or tile."},
    {"atomic_min", LangKind::TileOp, "atomic_min(dst, value, memory_order=None, return_prev=False)", "Atomic minimum of a scalar or tile."},
    {"atomic_addx2", LangKind::TileOp, "atomic_addx2(dst, value)", "Atomic add of 2 consecutive elements (last dimension)."},
    {"atomic_load", LangKind::Math, "atomic_load(src, memory_order=\"seq_cst\")", "Atomic load of one element with a memory order (not in TileScope yet)."},
    {"atomic_store", LangKind::Math, "atomic_store(dst, value, memory_order=\"seq_cst\")", "Atomic store of one element with a memory order (not in TileScope yet)."},
    {"atomic_addx4", LangKind::TileOp, "atomic_addx4(dst, value)", "Atomic add of 4 consecutive elements (last dimension)."},
    {"view", LangKind::Math, "view(buf, shape, dtype)", "A view of a kernel tensor's memory with another shape (same dtype), or of a shared buffer's bytes with another shape and dtype."},
    {"im2col", LangKind::TileOp, "im2col(img, col, nhw_step, c_step, kernel, stride, dilation, pad)", "Loads a tile of the im2col matrix of an NHWC image (implicit-GEMM convolution)."},
    {"pdl_trigger", LangKind::Sync, "pdl_trigger()", "Lets the next kernel of the stream launch (griddepcontrol.launch_dependents, sm_90; a no-op elsewhere)."},
    {"pdl_sync", LangKind::Sync, "pdl_sync()", "Waits for the kernels before this one and their writes (griddepcontrol.wait, sm_90; a no-op elsewhere)."},
    {"print", LangKind::TileOp, "print(x, msg=\"\")", "Device printf (GPU) / debugger log (interpreter)."},
    // layouts
    {"annotate_layout", LangKind::Layout, "annotate_layout({buf: layout})", "Fixes buffer layouts before inference."},
    {"Layout", LangKind::Layout, "Layout(shape, lambda i, j: [...])", "User shared-memory layout: index map to the physical offset (a list is flattened row-major)."},
    {"Fragment", LangKind::Layout, "Fragment(shape, forward_thread_fn=..., forward_index_fn=..., replicate=1)", "User fragment layout: thread and local index maps (forward_thread_fn also takes the replica index when replicate > 1)."},
    {"use_swizzle", LangKind::Layout, "use_swizzle(panel_size, order=\"row\")", "Block rasterization for L2 reuse."},
    // math
    {"max", LangKind::Math, "max(a, b)", "Maximum of two values."},
    {"min", LangKind::Math, "min(a, b)", "Minimum of two values."},
    {"abs", LangKind::Math, "abs(x)", "Absolute value."},
    {"exp", LangKind::Math, "exp(x)", "e to the power x."},
    {"exp2", LangKind::Math, "exp2(x)", "2 to the power x."},
    {"log", LangKind::Math, "log(x)", "Natural logarithm."},
    {"log2", LangKind::Math, "log2(x)", "Base-2 logarithm."},
    {"sqrt", LangKind::Math, "sqrt(x)", "Square root."},
    {"rsqrt", LangKind::Math, "rsqrt(x)", "Reciprocal square root."},
    {"sigmoid", LangKind::Math, "sigmoid(x)", "1 / (1 + exp(-x))."},
    {"tanh", LangKind::Math, "tanh(x)", "Hyperbolic tangent."},
    // TVM's math library (ir/MathLib.h, frontend/ElaborateMathLib.cpp)
    {"tan", LangKind::Math, "tan(x)", "Tangent."},
    {"asin", LangKind::Math, "asin(x)", "Arc sine."},
    {"acos", LangKind::Math, "acos(x)", "Arc cosine."},
    {"atan", LangKind::Math, "atan(x)", "Arc tangent."},
    {"atan2", LangKind::Math, "atan2(y, x)", "Arc tangent of y/x in the quadrant of (x, y)."},
    {"sinh", LangKind::Math, "sinh(x)", "Hyperbolic sine."},
    {"cosh", LangKind::Math, "cosh(x)", "Hyperbolic cosine."},
    {"asinh", LangKind::Math, "asinh(x)", "Inverse hyperbolic sine."},
    {"acosh", LangKind::Math, "acosh(x)", "Inverse hyperbolic cosine."},
    {"atanh", LangKind::Math, "atanh(x)", "Inverse hyperbolic tangent."},
    {"erf", LangKind::Math, "erf(x)", "Error function."},
    {"exp10", LangKind::Math, "exp10(x)", "10 to the power x."},
    {"log10", LangKind::Math, "log10(x)", "Base-10 logarithm."},
    {"log1p", LangKind::Math, "log1p(x)", "log(1 + x), exact for small x."},
    {"expm1", LangKind::Math, "expm1(x)", "exp(x) - 1, exact for small x."},
    {"trunc", LangKind::Math, "trunc(x)", "Rounds toward zero to an integer value."},
    {"round", LangKind::Math, "round(x, rounding_mode=\"ties-to-even\")", "Rounds to the nearest integer value: ties to even (nearbyint), or \"ties-away-from-zero\"."},
    {"nearbyint", LangKind::Math, "nearbyint(x)", "Rounds to the nearest integer value, ties to even."},
    {"pow", LangKind::Math, "pow(x, y)", "x to the power y."},
    {"fmod", LangKind::Math, "fmod(x, y)", "Remainder of x / y with the sign of x (C's fmod)."},
    {"hypot", LangKind::Math, "hypot(x, y)", "sqrt(x*x + y*y) without overflow."},
    {"copysign", LangKind::Math, "copysign(x, y)", "The magnitude of x with the sign of y."},
    {"__exp", LangKind::Math, "__exp(x)", "Fast-math e^x (CUDA's __expf approximation for float32)."},
    {"__exp10", LangKind::Math, "__exp10(x)", "Fast-math 10^x (__exp10f)."},
    {"__log", LangKind::Math, "__log(x)", "Fast-math natural logarithm (__logf)."},
    {"__log2", LangKind::Math, "__log2(x)", "Fast-math base-2 logarithm (__log2f)."},
    {"__log10", LangKind::Math, "__log10(x)", "Fast-math base-10 logarithm (__log10f)."},
    {"__sin", LangKind::Math, "__sin(x)", "Fast-math sine (__sinf)."},
    {"__cos", LangKind::Math, "__cos(x)", "Fast-math cosine (__cosf)."},
    {"__tan", LangKind::Math, "__tan(x)", "Fast-math tangent (__tanf)."},
    {"fast_rcp", LangKind::Math, "fast_rcp(x)", "Approximate 1/x (rcp.approx.ftz.f32 for float32; exact for float64)."},
    {"ieee_add", LangKind::Math, "ieee_add(x, y, rounding_mode=\"rn\")", "x + y rounded by the mode: rn (nearest even), rz, ru, rd (float32/float64; 16-bit: rn)."},
    {"ieee_sub", LangKind::Math, "ieee_sub(x, y, rounding_mode=\"rn\")", "x - y rounded by the mode (rn, rz, ru, rd)."},
    {"ieee_mul", LangKind::Math, "ieee_mul(x, y, rounding_mode=\"rn\")", "x * y rounded by the mode (rn, rz, ru, rd)."},
    {"ieee_fdiv", LangKind::Math, "ieee_fdiv(x, y, rounding_mode=\"rn\")", "x / y rounded by the mode (rn, rz, ru, rd)."},
    {"ieee_fmaf", LangKind::Math, "ieee_fmaf(x, y, z, rounding_mode=\"rn\")", "x * y + z with one rounding by the mode (rn, rz, ru, rd)."},
    {"ieee_frcp", LangKind::Math, "ieee_frcp(x, rounding_mode=\"rn\")", "1 / x rounded by the mode (rn, rz, ru, rd)."},
    {"ieee_fsqrt", LangKind::Math, "ieee_fsqrt(x, rounding_mode=\"rn\")", "sqrt(x) rounded by the mode (rn, rz, ru, rd)."},
    {"ieee_frsqrt", LangKind::Math, "ieee_frsqrt(x)", "1 / sqrt(x) rounded to nearest (float32)."},
    {"if_then_else", LangKind::Math, "if_then_else(cond, a, b)", "Select a if cond else b."},
    {"Select", LangKind::Math, "Select(cond, a, b)", "TVM spelling of T.if_then_else."},
    {"assume", LangKind::Meta, "assume(cond)", "A promise for TileLang's simplifier: elaborated, not used or checked by TileScope."},
    {"infinity", LangKind::Math, "infinity(dtype)", "Positive infinity of a dtype."},
    {"isnan", LangKind::Math, "isnan(x)", "True where x is NaN (integers: False)."},
    {"isinf", LangKind::Math, "isinf(x)", "True where x is +inf or -inf (integers: False)."},
    {"isfinite", LangKind::Math, "isfinite(x)", "True where x is neither NaN nor infinite (integers: True)."},
    {"cast", LangKind::Math, "cast(x, dtype)", "Converts to dtype (round to nearest even)."},
    {"Cast", LangKind::Math, "Cast(dtype, x)", "TVM spelling of T.cast (dtype first)."},
    {"floordiv", LangKind::Math, "floordiv(a, b)", "a // b (rounds toward minus infinity)."},
    {"floormod", LangKind::Math, "floormod(a, b)", "a % b with the sign of b."},
    {"clamp", LangKind::Math, "clamp(x, lo, hi)", "min(max(x, lo), hi)."},
    {"reinterpret", LangKind::Math, "reinterpret(x, dtype)", "Bit cast to a dtype of the same width (float/int, 8 to 64 bits)."},
    {"thread_binding", LangKind::Scope, "thread_binding(start, stop, thread=\"threadIdx.x\")", "The thread index bound over the whole block dimension, as a value (thread-level code)."},
    {"launch_thread", LangKind::Math, "launch_thread(\"threadIdx.x\", extent)", "The thread index over the whole block dimension, inside a T.Kernel (TVM's launch_thread)."},
    {"get_thread_binding", LangKind::Math, "get_thread_binding(dim=0)", "The thread index along x, y or z (thread-level code: each thread runs it with its own index)."},
    {"get_thread_bindings", LangKind::Math, "get_thread_bindings()", "The thread indices (x, y, z)."},
    {"get_block_binding", LangKind::Math, "get_block_binding(dim=0)", "The block index along x, y or z."},
    {"reshape", LangKind::Math, "reshape(buf, shape)", "A view of a kernel tensor's or a shared buffer's memory with another shape."},
    // synchronization (incl. Hopper)
    {"sync_threads", LangKind::Sync, "sync_threads(barrier_id=None, arrive_count=None)", "Block-wide barrier (__syncthreads), or named barrier bar.sync id, count."},
    {"named_barrier_arrive", LangKind::Sync, "named_barrier_arrive(barrier_id, arrive_count)", "Arrives on a named barrier without waiting (bar.arrive)."},
    {"barrier_arrive", LangKind::Sync, "barrier_arrive(barrier)", "Arrives on a barrier."},
    {"barrier_wait", LangKind::Sync, "barrier_wait(barrier, parity)", "Waits on a barrier phase."},
    {"mbarrier_arrive", LangKind::Sync, "mbarrier_arrive(barrier)", "Arrives on an mbarrier (sm_90)."},
    {"mbarrier_expect_tx", LangKind::Sync, "mbarrier_expect_tx(barrier, bytes)", "Adds transaction bytes (per executing thread) to the barrier's current phase, without arriving."},
    {"mbarrier_wait_parity", LangKind::Sync, "mbarrier_wait_parity(barrier, parity)", "Waits for an mbarrier phase."},
    {"fence_proxy_async", LangKind::Sync, "fence_proxy_async()", "Orders generic-proxy writes before async-proxy reads."},
    {"disable_warp_group_reg_alloc", LangKind::Sync, "disable_warp_group_reg_alloc()", "Hint of TileLang's Hopper pipeline; accepted and ignored."},
    {"no_set_max_nreg", LangKind::Sync, "no_set_max_nreg()", "Hint of TileLang's Hopper pipeline; accepted and ignored."},
    {"set_max_nreg", LangKind::Sync, "set_max_nreg(count, increase)", "Re-balances registers between warp groups (setmaxnreg)."},
    {"tma_copy", LangKind::Sync, "tma_copy(src, dst, barrier=bar)", "Producer half of a TMA load on a hand-written mbarrier: the tile's copy; arrive and wait yourself (sm_90)."},
    {"wgmma_gemm", LangKind::TileOp, "wgmma_gemm(A, B, C, transpose_A=False, transpose_B=False, policy=T.GemmWarpPolicy.Square, clear_accum=False)", "T.gemm that TileLang issues as wgmma without waiting; TileScope's completes before the next statement."},
    {"wait_wgmma", LangKind::Sync, "wait_wgmma(n)", "Waits until n wgmma groups are pending (nothing left to wait for in TileScope)."},
    {"ptx_commit_group", LangKind::Sync, "ptx_commit_group()", "cp.async.commit_group of the executing thread."},
    {"ptx_wait_group", LangKind::Sync, "ptx_wait_group(n)", "cp.async.wait_group n of the executing thread."},
    {"access_ptr", LangKind::Sync, "access_ptr(base, access_type=\"r\", *extents, offset=0, extent=None)", "Pointer to an element (or a region's first element) covering `extents` elements, for T.ptx_cp_async."},
    {"ptx_cp_async", LangKind::Sync, "ptx_cp_async(dst_ptr, src_ptr, num_elems, predicate=None)", "cp.async of num_elems elements (4, 8 or 16 bytes) from global to shared by the executing thread; zero-fills when predicate is false."},
    {"cp_async_barrier_noinc", LangKind::Sync, "cp_async_barrier_noinc(barrier)", "The executing thread arrives on the mbarrier once its earlier cp.async copies completed (cp.async.mbarrier.arrive.noinc)."},
    {"ptx_cp_async_barrier_noinc", LangKind::Sync, "ptx_cp_async_barrier_noinc(barrier)", "Alias of T.cp_async_barrier_noinc (cp.async.mbarrier.arrive.noinc)."},
    {"annotate_producer_reg_dealloc", LangKind::Sync, "annotate_producer_reg_dealloc(reg_count=24)", "Register hint of TileLang's warp specialization; accepted and ignored."},
    {"annotate_consumer_reg_alloc", LangKind::Sync, "annotate_consumer_reg_alloc(reg_count=240)", "Register hint of TileLang's warp specialization; accepted and ignored."},
    {"rng_init", LangKind::Meta, "rng_init(seed, seq=None, off=0)", "Per-thread Philox4x32-10 generator (cuRAND curand_init: seed, subsequence, offset)."},
    {"rng_rand", LangKind::Meta, "rng_rand()", "Next 32-bit random number of the thread's generator (curand)."},
    {"rng_rand_float", LangKind::Meta, "rng_rand_float(bit=32, dist=\"uniform\")", "Next random float: uniform in (0, 1] or normal (curand_uniform / curand_normal)."},
    {"import_source", LangKind::Meta, "import_source(code)", "Inline CUDA source for T.call_extern: accepted for TileLang's dequantize helpers (decode_fp4_to_bf16_twiddling, decode_i4u/i4s_to_f16, decode_i2u/i2s_to_i8s), which TileScope models."},
    {"comm_reducer", LangKind::Meta, "comm_reducer(fcombine, identity_element)", "TVM's reduction combiner, for T.attr(..., \"reduce_scope\", ...) around T.tvm_thread_allreduce."},
    {"attr", LangKind::Meta, "attr(node, attr_key, value)", "TVM's attribute scope; supported as the reduce_scope of T.tvm_thread_allreduce."},
    {"evaluate", LangKind::Meta, "evaluate(expr)", "Evaluates a call for its effect (T.evaluate(T.tvm_thread_allreduce(...)))."},
    {"tvm_thread_allreduce", LangKind::Math, "tvm_thread_allreduce(size, value, cond, dst, thread, dtype=\"handle\")", "Combines value over the threads of threadIdx.x (a power of two up to 32) with the scope's reducer; every thread gets the result in dst."},
    {"access_ptr", LangKind::Meta, "access_ptr(buffer, access_mask, offset=0)", "Pointer to a buffer element, as a T.call_extern argument."},
    {"call_extern", LangKind::Meta, "call_extern(func_name, *args, dtype=None)", "Calls a device function (TVM's positional form call_extern(dtype, func_name, *args) too): TileLang's dequantize helpers decode_fp4_to_bf16_twiddling(src, dst, N), decode_i4u/i4s_to_f16(src, dst, N) and decode_i2u/i2s_to_i8s(src, dst, N) elaborate to equivalent tile-level code."},
    {"dp4a", LangKind::Math, "dp4a(A, B, C)", "C[0] += dot product of four int8 lanes A[0:4] and B[0:4], into an int32 accumulator (__dp4a)."},
    // meta helpers
    {"ceildiv", LangKind::Meta, "ceildiv(a, b)", "Integer division rounding up."},
    {"const", LangKind::Meta, "const(\"M, N\")", "Symbolic sizes bound from argument shapes (eager style)."},
    {"dynamic", LangKind::Meta, "dynamic(name)", "A symbolic (run-time) dimension."},
    {"symbolic", LangKind::Meta, "symbolic(name)", "A symbolic (run-time) dimension."},
};
// clang-format on

/// The entry for `T.<name>`, or nullptr.
constexpr const LangEntry* findLanguageEntry(std::string_view name) {
    for (const auto& e : kLanguage)
        if (e.name == name) return &e;
    return nullptr;
}

}  // namespace ts::fe
