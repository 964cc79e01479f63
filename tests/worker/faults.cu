// Kernels that fail on purpose, for `tilec launch` (app/cli/CmdLaunch.cpp) on a GPU: each must
// be reported with its CUDA error (or as a hang past --timeout) and end only the GPU worker, so
// that `good` after them still runs. bench/h200_profile.sh runs them in one tilec process:
//   tilec launch tests/worker/faults.cu --kernel good,oob_write,good,trap,good,spin,good --timeout 10
extern "C" __global__ void good(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * i;
}

// A store 4 TiB past the buffer (far beyond any allocation of a 141 GB device):
// CUDA_ERROR_ILLEGAL_ADDRESS at the next synchronisation.
extern "C" __global__ void oob_write(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i + (1ll << 40)] = 1.0f;
}

// PTX `trap`: the launch fails with CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure).
extern "C" __global__ void trap(float* out, int n) {
    if (threadIdx.x == 0) asm volatile("trap;");
    out[threadIdx.x] = 0.0f;
}

// Never ends: the caller's timeout kills the worker (the driver then tears the context down).
extern "C" __global__ void spin(float* out, int n) {
    volatile int keep = 1;
    while (keep) {
        if (n < 0) keep = 0;  // never true; keeps the loop from being proven infinite
    }
    out[threadIdx.x] = 1.0f;
}
