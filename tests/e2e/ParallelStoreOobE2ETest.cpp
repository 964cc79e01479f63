// Issue 14: a global store inside T.Parallel that falls outside the tensor. Lowering guards it
// (the GPU skips it), and the thread-level interpreter used to run the guard like any `if` and
// skip the store silently, while the tile-level interpreter reports the store. The guard now
// carries the store's logical element (ir::StoreCheck) and both interpreters report it, with the
// same message at the same place; T.copy's tail guards and the user's own `if` stay silent.
// tests/e2e/programs/parallel_store_past_end.py: shift_right (1-D, B[256]) and shift_columns
// (2-D, B[0, 64]: a row overflow whose flat offset is the next row's first element).
#include <array>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <string>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kProg = "tests/e2e/programs/parallel_store_past_end.py";

struct BinaryRun {
    int rc = -1;
    std::string out;
};

/// The built tilec, run in the source tree (so that diagnostics name the file as kProg) with
/// `args`: exit status and the output `redirect` keeps (stdout + stderr by default).
BinaryRun runTilec(const std::string& args, const std::string& redirect = " 2>&1") {
    std::string cmd = "cd '" + std::string(TS_SOURCE_DIR) + "' && " + TS_TILEC_PATH + " " + args + redirect;
    BinaryRun r;
    std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
    if (!p) return r;
    std::array<char, 4096> buf{};
    while (size_t n = fread(buf.data(), 1, buf.size(), p.get())) r.out.append(buf.data(), n);
    int status = pclose(p.release());
    r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

/// The line of `out` holding ": error: " (empty if none).
std::string errorLine(const std::string& out) {
    size_t at = out.find(": error: ");
    if (at == std::string::npos) return "";
    size_t b = out.rfind('\n', at);
    b = b == std::string::npos ? 0 : b + 1;
    return out.substr(b, out.find('\n', at) - b);
}

struct Case {
    const char* kernel;
    const char* tileError;     ///< `tilec run --interp`'s error line
    const char* loweredError;  ///< `tilec run --interp=lowered`'s: the same, plus block and thread
    const char* guard;         ///< the guard's line in the CUDA (sm_80)
};
const Case kCases[] = {
    {"shift_right",
     "tests/e2e/programs/parallel_store_past_end.py:19:17: error: out-of-bounds store B[256]: global buffer 'B' has shape (256)",
     "tests/e2e/programs/parallel_store_past_end.py:19:17: error: out-of-bounds store B[256]: global buffer 'B' has shape (256) [block (1), thread 127]",
     "    if (((((bx * 128) + tx) + 1) < 256)) {\n"
     "        B[(((bx * 128) + tx) + 1)] = (A[((bx * 128) + tx)] * 2.0f);\n"},
    {"shift_columns",
     "tests/e2e/programs/parallel_store_past_end.py:30:17: error: out-of-bounds store B[0, 64]: global buffer 'B' has shape (32, 64)",
     "tests/e2e/programs/parallel_store_past_end.py:30:17: error: out-of-bounds store B[0, 64]: global buffer 'B' has shape (32, 64) [block (0), thread 15]",
     "        if ((((((tx % 16) * 4) + (r_0 % 4)) + 1) < 64)) {\n"},
};

TEST(ParallelStoreOob, BothInterpretersReportTheStoreThroughTilec) {
    for (const Case& c : kCases) {
        SCOPED_TRACE(c.kernel);
        const std::string run = std::string("run ") + kProg + " -k " + c.kernel + " --target cuda:sm_80 ";
        BinaryRun tile = runTilec(run + "--interp");
        EXPECT_EQ(tile.rc, 1) << tile.out;
        EXPECT_EQ(errorLine(tile.out), c.tileError) << tile.out;
        BinaryRun lowered = runTilec(run + "--interp=lowered");
        EXPECT_EQ(lowered.rc, 1) << lowered.out;
        EXPECT_EQ(errorLine(lowered.out), c.loweredError) << lowered.out;
        // The hint is the tile level's: why a T.copy of the same region would not be an error.
        EXPECT_NE(lowered.out.find("hint: TileLang guards only T.copy regions"), std::string::npos) << lowered.out;
    }
}

TEST(ParallelStoreOob, CudaKeepsTheGuard) {
    for (const Case& c : kCases) {
        SCOPED_TRACE(c.kernel);
        BinaryRun cu = runTilec(std::string("compile ") + kProg + " -k " + c.kernel +
                                    " --target cuda:sm_80 --emit cuda --no-nvrtc -q",
                                " 2>/dev/null");
        EXPECT_EQ(cu.rc, 0) << cu.out;
        EXPECT_NE(cu.out.find(c.guard), std::string::npos) << cu.out;
    }
}

/// Each of `kernels` compiles, and NVRTC takes its CUDA for sm_80 and sm_90a.
void expectNvrtcCompiles(const char* prog, std::initializer_list<const char*> kernels) {
    for (const char* kernel : kernels) ts::e2e::expectNvrtcCompilesForSm80AndSm90a(prog, {}, kernel);
}

TEST(ParallelStoreOob, NvrtcCompilesForSm80AndSm90a) { expectNvrtcCompiles(kProg, {kCases[0].kernel, kCases[1].kernel}); }

// The guards that stay silent: a ragged T.Parallel store under the user's own `if` (the marked
// guard inside it is only reached in bounds) and T.copy's tail of a tile that overhangs the
// tensor (clipped on purpose; its guard has no StoreCheck). Both interpreters run them and agree.
TEST(ParallelStoreOob, UserGuardAndCopyTailAreNotErrors) {
    const char* src =
        "import tilelang\nimport tilelang.language as T\n\n"
        "@tilelang.jit\ndef ragged(M=200, block=128):\n    @T.prim_func\n"
        "    def main(A: T.Tensor((M,), \"float32\"), B: T.Tensor((M,), \"float32\"),\n"
        "             C: T.Tensor((M,), \"float32\")):\n"
        "        with T.Kernel(T.ceildiv(M, block), threads=128) as bx:\n"
        "            for i in T.Parallel(block):\n"
        "                if bx * block + i < M:\n"
        "                    B[bx * block + i] = A[bx * block + i] + 1.0\n"
        "            c = T.alloc_fragment((block,), \"float32\")\n"
        "            for i in T.Parallel(block):\n"
        "                c[i] = 2.0\n"
        "            T.copy(c, C[bx * block])\n"
        "    return main\n";
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    ts::CompileResult r = ts::compile("ragged.py", src, opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    std::vector<double> a(200), zero(200, 0.0);
    for (size_t i = 0; i < a.size(); ++i) a[i] = double(i);
    for (bool lowered : {false, true}) {
        SCOPED_TRACE(lowered ? "lowered" : "tile");
        std::vector<ts::HostTensor> args = {ts::makeHostTensor(ts::ir::DType::Float32, {200}, a),
                                            ts::makeHostTensor(ts::ir::DType::Float32, {200}, zero),
                                            ts::makeHostTensor(ts::ir::DType::Float32, {200}, zero)};
        auto res = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
        ASSERT_TRUE(res.ok) << res.error->message;
        for (size_t i = 0; i < 200; ++i) {
            ASSERT_EQ(args[1].data[i], double(i) + 1.0) << i;
            ASSERT_EQ(args[2].data[i], 2.0) << i;
        }
    }
}

// An index that reads the kernel's arguments: the hint names them with the option that sets them
// (helper-127 D7: a scalar passed by value was sent to --input, which only fills tensors), and an
// index of the kernel's own arithmetic gets no argument advice.
TEST(ParallelStoreOob, HintNamesTheArgumentsInTheIndex) {
    const char* prog = "tests/e2e/programs/oob_index_from_arguments.py";
    for (const char* interp : {"--interp", "--interp=lowered"}) {
        SCOPED_TRACE(interp);
        BinaryRun shifted = runTilec(std::string("run ") + prog + " -k shifted_read -p off=3 --target cuda:sm_80 " + interp);
        EXPECT_EQ(shifted.rc, 1) << shifted.out;
        EXPECT_NE(errorLine(shifted.out).find("out-of-bounds load A[64]"), std::string::npos) << shifted.out;
        EXPECT_NE(shifted.out.find("tilec run --param off=VALUE"), std::string::npos) << shifted.out;
        EXPECT_EQ(shifted.out.find("--input NAME=RULE"), std::string::npos) << shifted.out;
        BinaryRun gather = runTilec(std::string("run ") + prog + " -k gather --input idx=fill:70 --target cuda:sm_80 " + interp);
        EXPECT_EQ(gather.rc, 1) << gather.out;
        EXPECT_NE(errorLine(gather.out).find("out-of-bounds load A[70]"), std::string::npos) << gather.out;
        EXPECT_NE(gather.out.find("tilec run --input idx=RULE"), std::string::npos) << gather.out;
        BinaryRun own = runTilec(std::string("run ") + kProg + " -k shift_right --target cuda:sm_80 " + interp);
        EXPECT_NE(own.out.find("otherwise guard the access or fix its arithmetic"), std::string::npos) << own.out;
    }
    // Valid arguments: both kernels run and match their float64 references.
    BinaryRun ok1 = runTilec(std::string("run ") + prog + " -k shifted_read -p off=0 --target cuda:sm_80 --interp --ref ref_program");
    EXPECT_EQ(ok1.rc, 0) << ok1.out;
    BinaryRun ok2 = runTilec(std::string("run ") + prog + " -k gather --input idx=int:0:63 --target cuda:sm_80 --interp --ref gather_ref");
    EXPECT_EQ(ok2.rc, 0) << ok2.out;
    expectNvrtcCompiles(prog, {"shifted_read", "gather"});
}

}  // namespace
