// The thread-level interpreter (compiler/interp/ThreadInterpreter.h) on fully lowered IR:
// every sample at divisible and ragged sizes against the float64 ref_program; gemm with
// transposed operands against a float64 product; the layout-width
// sweep of issue 4 (affine_row.py for every N in 1..520 on both interpreters, exact results);
// and the defects only the thread level can see, each made by editing the lowered IR the way a
// buggy pass would: a forgotten T.clear, a dropped cp.async wait, a dropped barrier, a barrier
// under a thread-dependent branch, a partial warp all-reduce, an off-by-one global store.
#include <algorithm>
#include <chrono>
#include <optional>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/ScopedEnv.h"
#include "compiler/frontend/Module.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Intrinsics.h"
#include "profiler/check/Compare.h"
#include "profiler/check/Inputs.h"
#include "profiler/check/Reference.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

using ts::HostTensor;
namespace ir = ts::ir;

std::string readFile(const std::string& rel) { return ts::e2e::readRepoFile(rel); }
using ts::e2e::diagText;

ts::CompileResult compileText(const std::string& path, const std::string& text,
                              const std::map<std::string, std::string>& params) {
    ts::CompileOptions opts;
    opts.params = params;
    opts.recordSnapshots = false;
    opts.verify = false;
    return ts::compile(path, text, opts);
}

/// Seeded random inputs for the kernel's signature; outputs poisoned with NaN.
std::vector<HostTensor> makeArgs(const ts::CompileResult& r,
                                 std::vector<HostTensor>* inputs = nullptr) {
    std::vector<ts::rt::TensorParam> sig;
    for (auto& a : r.kernel.args) sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
    auto set = ts::rt::makeInputs(sig, {});
    std::vector<HostTensor> args = set.tensors;
    for (size_t i = 0; i < args.size(); ++i) {
        if (sig[i].isOutput)
            args[i].data.assign(static_cast<size_t>(args[i].numel()), std::nan(""));
        else if (inputs)
            inputs->push_back(args[i]);
    }
    return args;
}

std::string errText(const ts::interp::InterpResult& res, const ts::CompileResult& r) {
    return res.error ? ts::formatDiagnostic(*res.error, r.source.get()) : std::string();
}

/// Rebuilds statements the way a buggy pass would: `edit` returns the replacement of an Eval
/// statement (or `self` to keep it).
struct EditEvals : ir::Mutator {
    std::function<ir::Stmt(const ir::CallNode*, const ir::Stmt&)> edit;
    ir::Stmt visitEval(const ir::EvalNode* n, const ir::Stmt& self) override {
        auto* c = dynamic_cast<const ir::CallNode*>(n->call.get());
        return c ? edit(c, self) : self;
    }
};

ir::PrimFunc editEvals(const ir::PrimFunc& f,
                       std::function<ir::Stmt(const ir::CallNode*, const ir::Stmt&)> edit) {
    EditEvals m;
    m.edit = std::move(edit);
    return ir::withBody(f, m.mutate(f->body));
}

bool isBarrier(const ir::CallNode* c) {
    return c->op == ir::intrin::kSyncThreads || c->op == "T.sync_threads";
}

// --- samples against the float64 reference --------------------------------------------------

struct Case {
    std::string sample;
    std::map<std::string, std::string> params;
    std::string label;
};

class LoweredSamples : public ::testing::TestWithParam<Case> {};

TEST_P(LoweredSamples, MatchesFloat64Reference) {
    const Case& c = GetParam();
    std::string text = readFile("samples/" + c.sample);
    ASSERT_FALSE(text.empty());
    auto r = compileText("samples/" + c.sample, text, c.params);
    ASSERT_TRUE(r.ok) << diagText(r);
    ASSERT_TRUE(r.lowered);
    std::vector<HostTensor> inputs;
    auto args = makeArgs(r, &inputs);
    auto run = ts::interp::runLowered(r.lowered, args);
    ASSERT_TRUE(run.ok) << errText(run, r);

    std::map<std::string, std::string> fp;
    for (auto& p : r.params) fp[p.name] = p.value;
    auto ref = ts::rt::evalReference(*r.module->ast(), fp, inputs);
    ASSERT_TRUE(ref.ok) << (ref.diagnostics.empty() ? "" : ref.diagnostics[0].message);
    size_t k = 0;
    for (size_t i = 0; i < args.size(); ++i) {
        if (!r.kernel.args[i].isOutput) continue;
        ASSERT_LT(k, ref.outputs.size());
        auto cmp = ts::rt::compare(args[i], ref.outputs[k++]);
        EXPECT_TRUE(cmp.pass) << c.label << " " << r.kernel.args[i].name << ": "
                              << ts::rt::describe(cmp);
        EXPECT_EQ(cmp.nanCount, 0) << "unwritten output elements";
    }
}

const Case kCases[] = {
    {"gemm.py", {{"M", "128"}, {"N", "128"}, {"K", "64"}}, "gemm_128x128x64"},
    {"gemm.py", {{"M", "256"}, {"N", "256"}, {"K", "128"}}, "gemm_fp16_divisible"},
    {"gemm.py", {{"M", "200"}, {"N", "136"}, {"K", "72"}}, "gemm_fp16_ragged"},
    {"gemm.py",
     {{"M", "130"}, {"N", "250"}, {"K", "100"}, {"dtype", "bfloat16"}},
     "gemm_bf16_ragged"},
    {"gemm.py", {{"M", "100"}, {"N", "36"}, {"K", "40"}}, "gemm_narrow_ragged"},
    {"gemm.py",
     {{"M", "72"}, {"N", "40"}, {"K", "200"}, {"block_M", "64"}, {"block_N", "64"}},
     "gemm_64x64_tiles_long_k"},
    {"gemm.py",
     {{"M", "64"},
      {"N", "192"},
      {"K", "96"},
      {"block_M", "64"},
      {"block_N", "64"},
      {"block_K", "64"},
      {"num_stages", "2"}},
     "gemm_small_tiles"},
    {"softmax.py", {{"M", "8"}, {"N", "1000"}}, "softmax_1000"},
    {"softmax.py", {{"M", "3"}, {"N", "8192"}}, "softmax_8192"},
    {"softmax.py", {{"M", "5"}, {"N", "100"}}, "softmax_100"},
    {"softmax.py",
     {{"M", "10"}, {"N", "77"}, {"block_M", "4"}, {"threads", "128"}},
     "softmax_ragged_rows"},
    {"add.py", {{"M", "100"}, {"N", "300"}}, "add_ragged"},
    {"add.py", {{"M", "33"}, {"N", "130"}}, "add_ragged_small"},
    {"add.py", {{"M", "64"}, {"N", "256"}, {"dtype", "float16"}}, "add_fp16"},
};

INSTANTIATE_TEST_SUITE_P(All, LoweredSamples, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

// --- transposed gemm operands (ldmatrix .trans paths) against a float64 product -------------

struct TransCase {
    bool ta, tb;
    std::map<std::string, std::string> params;
};

class LoweredGemmTrans : public ::testing::TestWithParam<TransCase> {};

TEST_P(LoweredGemmTrans, MatchesFloat64Product) {
    const TransCase& c = GetParam();
    auto params = c.params;
    params["transpose_a"] = c.ta ? "True" : "False";
    params["transpose_b"] = c.tb ? "True" : "False";
    const std::string path = "tests/e2e/programs/gemm_trans.py";
    auto r = compileText(path, readFile(path), params);
    ASSERT_TRUE(r.ok) << diagText(r);
    auto args = makeArgs(r);
    auto res = ts::interp::runLowered(r.lowered, args);
    ASSERT_TRUE(res.ok) << errText(res, r);
    const HostTensor &A = args[0], &B = args[1];
    const int64_t M = args[2].shape[0], N = args[2].shape[1], K = c.ta ? A.shape[0] : A.shape[1];
    HostTensor ref{
        ir::DType::Float64, {M, N}, std::vector<double>(static_cast<size_t>(M * N), 0.0)};
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j)
            for (int64_t k = 0; k < K; ++k)
                ref.data[i * N + j] += (c.ta ? A.data[k * M + i] : A.data[i * K + k]) *
                                       (c.tb ? B.data[j * K + k] : B.data[k * N + j]);
    auto cmp = ts::rt::compare(args[2], ref);
    EXPECT_TRUE(cmp.pass) << "transpose " << c.ta << c.tb << ": " << ts::rt::describe(cmp);
    EXPECT_EQ(cmp.nanCount, 0);
}

const std::map<std::string, std::string> kSquare{{"M", "128"}, {"N", "128"}, {"K", "64"}};
const std::map<std::string, std::string> kRagged{{"M", "100"}, {"N", "72"}, {"K", "96"}};
const std::map<std::string, std::string> kSmall{
    {"M", "96"}, {"N", "80"}, {"K", "80"}, {"block_M", "64"}, {"block_N", "64"}};
const TransCase kTransCases[] = {
    {false, true, kSquare}, {true, false, kSquare}, {true, true, kSquare}, {false, true, kRagged},
    {true, false, kRagged}, {true, true, kRagged},  {true, false, kSmall}, {false, true, kSmall},
};

INSTANTIATE_TEST_SUITE_P(All, LoweredGemmTrans, ::testing::ValuesIn(kTransCases));

// --- issue 4: every fragment width 1..520 on both interpreters ------------------------------

TEST(LoweredInterp, LayoutWidthSweepExactOnBothInterpreters) {
    const std::string path = "tests/e2e/programs/affine_row.py";
    std::string text = readFile(path);
    ASSERT_FALSE(text.empty());
    for (int n = 1; n <= 520; ++n) {
        auto r = compileText(path, text, {{"N", std::to_string(n)}, {"threads", "128"}});
        ASSERT_TRUE(r.ok) << "N=" << n << "\n" << diagText(r);
        // Halves in [-48.5, 48.5]: 2x + 1 is exact in float32, so equality is the contract.
        HostTensor x{ir::DType::Float32, {1, n}, {}};
        for (int j = 0; j < n; ++j) x.data.push_back((j % 97) - 48.5);
        for (int level = 0; level < 2; ++level) {
            std::vector<HostTensor> args{x, HostTensor{ir::DType::Float32, {1, n}, {}}};
            args[1].data.assign(static_cast<size_t>(n), std::nan(""));
            auto res = level ? ts::interp::runLowered(r.lowered, args)
                             : ts::interp::run(r.elaborated, args);
            const char* which = level ? "lowered" : "tile-level";
            ASSERT_TRUE(res.ok) << which << " N=" << n << ": " << errText(res, r);
            for (int j = 0; j < n; ++j)
                ASSERT_EQ(args[1].data[j], 2 * x.data[j] + 1) << which << " N=" << n << " j=" << j;
        }
    }
}

// --- defects the thread level must report ---------------------------------------------------

ts::CompileResult compileGemm(const std::string& text) {
    return compileText("samples/gemm.py", text, {{"M", "128"}, {"N", "128"}, {"K", "64"}});
}

TEST(LoweredInterp, GemmWithoutClearGivesNaN) {
    std::string text = readFile("samples/gemm.py");
    auto pos = text.find("T.clear(C_local)");
    ASSERT_NE(pos, std::string::npos);
    text.replace(pos, std::string("T.clear(C_local)").size(), "pass");
    auto r = compileGemm(text);
    ASSERT_TRUE(r.ok) << diagText(r);
    auto args = makeArgs(r);
    auto res = ts::interp::runLowered(r.lowered, args);
    ASSERT_TRUE(res.ok) << errText(res, r);
    // Every accumulator register starts poisoned, so every output is NaN (none silently 0 + A@B).
    for (double v : args[2].data) ASSERT_TRUE(std::isnan(v));
}

TEST(LoweredInterp, MissingCpAsyncWaitIsARace) {
    auto r = compileGemm(readFile("samples/gemm.py"));
    ASSERT_TRUE(r.ok) << diagText(r);
    int dropped = 0;
    auto broken = editEvals(r.lowered, [&](const ir::CallNode* c, const ir::Stmt& self) {
        if (c->op != ir::intrin::kCpAsyncWait) return self;
        ++dropped;
        return ir::seq({});
    });
    ASSERT_GT(dropped, 0);
    auto args = makeArgs(r);
    auto res = ts::interp::runLowered(broken, args);
    ASSERT_FALSE(res.ok);
    EXPECT_NE(
        res.error->message.find("before its cp.async completed (missing cp.async.wait_group?)"),
        std::string::npos)
        << res.error->message;
    EXPECT_NE(res.error->message.find("_shared["), std::string::npos) << res.error->message;
    ASSERT_TRUE(res.error->span.valid());
    EXPECT_NE(r.source->lineText(res.error->span.line).find("T.gemm"), std::string::npos)
        << errText(res, r);
}

TEST(LoweredInterp, StoreToAStageWithAPendingCopyIsARace) {
    auto r = compileGemm(readFile("samples/gemm.py"));
    ASSERT_TRUE(r.ok) << diagText(r);
    ir::Buffer aShared;
    ir::walk(r.lowered->body, [&](const ir::Stmt& st) {
        if (auto* a = dynamic_cast<const ir::AllocNode*>(st.get());
            a && a->buffer->name == "A_shared")
            aShared = a->buffer;
    });
    ASSERT_TRUE(aShared);
    ir::Expr tx = ir::findKernel(r.lowered)->threadVars[0];
    bool done = false;
    auto broken = editEvals(r.lowered, [&](const ir::CallNode* c, const ir::Stmt& self) {
        if (c->op != ir::intrin::kCpAsyncWait || done) return self;
        done = true;  // thread 5 stores into stage 0 while its copies are in flight
        ir::Stmt poke =
            ir::ifThen(ir::binary(ir::BinOp::Eq, tx, ir::intImm(5)),
                       ir::store(aShared, {ir::intImm(8)}, ir::floatImm(0.0, ir::DType::Float16)));
        return ir::seq({poke, self});
    });
    auto args = makeArgs(r);
    auto res = ts::interp::runLowered(broken, args);
    ASSERT_FALSE(res.ok);
    EXPECT_NE(res.error->message.find(
                  "write of A_shared[8] (= A_shared[0, 0, 8]) races with a pending cp.async"),
              std::string::npos)
        << res.error->message;
}

TEST(LoweredInterp, MissingBarrierAfterWaitIsARace) {
    auto r = compileGemm(readFile("samples/gemm.py"));
    ASSERT_TRUE(r.ok) << diagText(r);
    auto broken = editEvals(r.lowered, [&](const ir::CallNode* c, const ir::Stmt& self) {
        return isBarrier(c) ? ir::seq({}) : self;
    });
    auto args = makeArgs(r);
    auto res = ts::interp::runLowered(broken, args);
    ASSERT_FALSE(res.ok);
    // The stage was completed by each thread's own wait; the other warps read it unordered.
    EXPECT_NE(res.error->message.find("races with its write by thread"), std::string::npos)
        << res.error->message;
}

TEST(LoweredInterp, DivergentBarrierIsReported) {
    auto r = compileGemm(readFile("samples/gemm.py"));
    ASSERT_TRUE(r.ok) << diagText(r);
    const ir::KernelNode* k = ir::findKernel(r.lowered);
    ASSERT_TRUE(k && !k->threadVars.empty());
    ir::Expr tx = k->threadVars[0];
    auto broken = editEvals(r.lowered, [&](const ir::CallNode* c, const ir::Stmt& self) {
        return isBarrier(c) ? ir::ifThen(ir::lt(tx, ir::intImm(64)), self, nullptr, self->span)
                            : self;
    });
    auto args = makeArgs(r);
    auto res = ts::interp::runLowered(broken, args);
    ASSERT_FALSE(res.ok);
    const std::string& m = res.error->message;
    EXPECT_NE(m.find("T.sync_threads()"), std::string::npos) << m;
    EXPECT_NE(m.find("reached by only 64 of 128 threads"), std::string::npos) << m;
    EXPECT_NE(m.find("divergent barrier; thread 64"), std::string::npos) << m;
    ASSERT_TRUE(res.error->span.valid());
    EXPECT_NE(m.find("at line " + std::to_string(res.error->span.line)), std::string::npos) << m;
}

TEST(LoweredInterp, PartialWarpAllreduceIsReported) {
    auto r = compileText("samples/softmax.py", readFile("samples/softmax.py"),
                         {{"M", "2"}, {"N", "8192"}});
    ASSERT_TRUE(r.ok) << diagText(r);
    const ir::KernelNode* k = ir::findKernel(r.lowered);
    ir::Expr tx = k->threadVars[0];
    struct GuardReduce : ir::Mutator {
        ir::Expr tx;
        ir::Stmt visitStore(const ir::StoreNode* n, const ir::Stmt& self) override {
            auto* c = dynamic_cast<const ir::CallNode*>(n->value.get());
            if (!c || c->op != ir::intrin::kWarpAllreduce) return self;
            return ir::ifThen(ir::lt(tx, ir::intImm(40)), self);  // warp 1 runs with lanes 0-7 only
        }
    } m;
    m.tx = tx;
    auto broken = ir::withBody(r.lowered, m.mutate(r.lowered->body));
    auto args = makeArgs(r);
    auto res = ts::interp::runLowered(broken, args);
    ASSERT_FALSE(res.ok);
    EXPECT_NE(res.error->message.find("lanes 0..31 of warp 1 executed by only 8 of them"),
              std::string::npos)
        << res.error->message;
}

TEST(LoweredInterp, OutOfBoundsGlobalStoreNamesBufferAndIndex) {
    auto r = compileText("samples/add.py", readFile("samples/add.py"), {{"M", "32"}, {"N", "128"}});
    ASSERT_TRUE(r.ok) << diagText(r);
    struct ShiftStore : ir::Mutator {
        ir::Stmt visitStore(const ir::StoreNode* n, const ir::Stmt& self) override {
            if (n->buffer->name != "C") return self;
            return ir::store(n->buffer, {ir::add(n->indices[0], ir::intImm(1))}, n->value, n->span);
        }
    } m;
    auto broken = ir::withBody(r.lowered, m.mutate(r.lowered->body));
    auto args = makeArgs(r);
    auto res = ts::interp::runLowered(broken, args);
    ASSERT_FALSE(res.ok);
    // One element past the end of C (32 * 128 = 4096 elements).
    EXPECT_NE(res.error->message.find("out-of-bounds store C[4096]"), std::string::npos)
        << res.error->message;
}

TEST(LoweredInterp, OutOfBoundsGuardedGlobalLoadIsReportedNotZero) {
    // Lowering guards a global element load in T.Parallel (out of bounds it gives 0 on the GPU);
    // the read is still outside the tensor: both interpreters report it, naming buffer and index.
    const char* src =
        "import tilelang\nimport tilelang.language as T\n\n"
        "@tilelang.jit(out_idx=[-1])\ndef shift(N=200, block=128):\n    @T.prim_func\n"
        "    def main(A: T.Tensor((N,), \"float32\"), B: T.Tensor((N,), \"float32\")):\n"
        "        with T.Kernel(T.ceildiv(N, block), threads=128) as bx:\n"
        "            for i in T.Parallel(block):\n"
        "                if bx * block + i < N:\n"
        "                    B[bx * block + i] = A[bx * block + i + 1]\n"
        "    return main\n";
    auto r = compileText("shift.py", src, {});
    ASSERT_TRUE(r.ok) << diagText(r);
    auto args = makeArgs(r);
    auto tile = ts::interp::run(r.elaborated, args);
    ASSERT_FALSE(tile.ok);
    EXPECT_NE(tile.error->message.find("out-of-bounds load A[200]"), std::string::npos)
        << tile.error->message;
    // The hint says why it is an error although a T.copy of the same region would not be.
    EXPECT_NE(tile.error->hint.find("TileLang guards only T.copy regions"), std::string::npos)
        << tile.error->hint;
    args = makeArgs(r);
    auto res = ts::interp::runLowered(r.lowered, args);
    ASSERT_FALSE(res.ok);
    EXPECT_NE(res.error->message.find("out-of-bounds load A[200]"), std::string::npos)
        << res.error->message;
    EXPECT_EQ(res.error->span.line, 11u);
}

TEST(LoweredInterp, CopyFromANegativeStartZeroFillsLikeTheTileInterpreter) {
    // A T.copy whose start is read from memory (a cu_seqlens-like offset) and is negative: the
    // lanes before the tensor are out of bounds, zero-filled by the tile-level interpreter (and by
    // TileLang's copy predicate, which has both `index < extent` and `index >= 0`). The lowered
    // guard once had only the upper half, so the GPU read before the tensor: the H200's illegal
    // address and wrong dK/dV of example_gqa_bwd_tma_reduce_varlen.py with cu_seqlens in [-8, 8].
    const char* src =
        "import tilelang\nimport tilelang.language as T\n\n"
        "@tilelang.jit(out_idx=[-1])\ndef window(N=64, W=32):\n    @T.prim_func\n"
        "    def main(A: T.Tensor((N,), \"float32\"), Start: T.Tensor((1,), \"int32\"),\n"
        "             B: T.Tensor((W,), \"float32\")):\n"
        "        with T.Kernel(1, threads=32) as bx:\n"
        "            s = T.alloc_shared((W,), \"float32\")\n"
        "            T.copy(A[Start[0] : Start[0] + W], s)\n"
        "            T.copy(s, B)\n"
        "    return main\n";
    auto r = compileText("window.py", src, {});
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_NE(r.cuda.find(">= 0"), std::string::npos) << r.cuda;  // the lower half of the guard
    for (int start : {-8, 0, 40}) {  // before, inside, past the end (40 + 32 > 64)
        SCOPED_TRACE(start);
        std::vector<HostTensor> args = makeArgs(r);
        for (int64_t i = 0; i < 64; ++i) args[0].data[static_cast<size_t>(i)] = double(i + 1);
        args[1].data = {double(start)};
        std::vector<double> want(32);
        for (int i = 0; i < 32; ++i)
            want[static_cast<size_t>(i)] = start + i >= 0 && start + i < 64 ? start + i + 1 : 0.0;
        auto tileArgs = args;
        auto tile = ts::interp::run(r.elaborated, tileArgs);
        ASSERT_TRUE(tile.ok) << errText(tile, r);
        EXPECT_EQ(tileArgs[2].data, want);
        auto res = ts::interp::runLowered(r.lowered, args);
        ASSERT_TRUE(res.ok) << errText(res, r);
        EXPECT_EQ(args[2].data, want);
    }
}

// --- hand-built lowered IR: thread-dependent loops, uninitialised integers ----------------

/// Kernel(1, threads=128) over Y: float32[128] with `body(tx, Y)` as its body.
ir::PrimFunc handKernel(const std::function<ir::Stmt(ir::Var, ir::Buffer)>& body) {
    auto Y = std::make_shared<ir::BufferNode>("Y", ir::DType::Float32,
                                              std::vector<ir::Expr>{ir::intImm(128)},
                                              ir::Scope::Global, ts::Span{});
    ir::Var bx = ir::makeVar("bx", ir::DType::Int32, {}, ir::VarTag::BlockIdx, 0);
    ir::Var tx = ir::makeVar("tx", ir::DType::Int32, {}, ir::VarTag::ThreadIdx, 0);
    auto k = std::make_shared<ir::KernelNode>(std::vector<ir::Expr>{ir::intImm(1)},
                                              std::vector<int64_t>{128}, std::vector<ir::Var>{bx},
                                              std::vector<ir::Var>{tx}, body(tx, Y), ts::Span{});
    auto f = std::make_shared<ir::PrimFuncNode>();
    f->name = "hand";
    f->params = {Y};
    f->outputs = {0};
    f->body = ir::seq({k});
    return f;
}

ir::Buffer localBuf(const std::string& name, ir::DType t) {
    return std::make_shared<ir::BufferNode>(name, t, std::vector<ir::Expr>{ir::intImm(1)},
                                            ir::Scope::Local, ts::Span{});
}

/// acc = 0; for i in range(tx % 5): acc += i + 1 [; barrier]; Y[tx] = acc
ir::PrimFunc triangleKernel(bool barrierInLoop) {
    return handKernel([&](ir::Var tx, ir::Buffer Y) {
        auto acc = localBuf("acc", ir::DType::Float32);
        ir::Var i = ir::makeVar("i");
        ir::Stmt step = ir::store(acc, {ir::intImm(0)},
                                  ir::add(ir::load(acc, {ir::intImm(0)}),
                                          ir::cast(ir::DType::Float32, ir::add(i, ir::intImm(1)))));
        if (barrierInLoop)
            step = ir::seq(
                {step, ir::evaluate(ir::call(ir::intrin::kSyncThreads, {}, ir::DType::Int32))});
        return ir::seq({std::make_shared<ir::AllocNode>(acc, nullptr, ts::Span{}),
                        ir::store(acc, {ir::intImm(0)}, ir::floatImm(0.0)),
                        ir::forLoop(i, ir::intImm(0), ir::floormod(tx, ir::intImm(5)),
                                    ir::ForKind::Serial, step),
                        ir::store(Y, {tx}, ir::load(acc, {ir::intImm(0)}))});
    });
}

TEST(LoweredInterp, ThreadDependentTripCountRunsPerThread) {
    std::vector<HostTensor> args{HostTensor{ir::DType::Float32, {128}, {}}};
    auto res = ts::interp::runLowered(triangleKernel(false), args);
    ASSERT_TRUE(res.ok) << (res.error ? res.error->message : "");
    for (int t = 0; t < 128; ++t) {
        int m = t % 5;
        EXPECT_EQ(args[0].data[t], m * (m + 1) / 2) << "thread " << t;  // 1 + 2 + ... + m
    }
}

TEST(LoweredInterp, BarrierInThreadDependentLoopIsDivergent) {
    std::vector<HostTensor> args{HostTensor{ir::DType::Float32, {128}, {}}};
    auto res = ts::interp::runLowered(triangleKernel(true), args);
    ASSERT_FALSE(res.ok);
    // Iteration 0 runs for the threads with tx % 5 >= 1: 128 - 26 (tx = 0, 5, ..., 125) = 102.
    EXPECT_NE(res.error->message.find("reached by only 102 of 128 threads"), std::string::npos)
        << res.error->message;
}

TEST(LoweredInterp, ReadOfNeverWrittenIntegerIsAnError) {
    auto f = handKernel([&](ir::Var tx, ir::Buffer Y) {
        auto cnt = localBuf("cnt", ir::DType::Int32);
        return ir::seq(
            {std::make_shared<ir::AllocNode>(cnt, nullptr, ts::Span{}),
             ir::store(Y, {tx}, ir::cast(ir::DType::Float32, ir::load(cnt, {ir::intImm(0)})))});
    });
    std::vector<HostTensor> args{HostTensor{ir::DType::Float32, {128}, {}}};
    auto res = ts::interp::runLowered(f, args);
    ASSERT_FALSE(res.ok);
    EXPECT_NE(res.error->message.find("read of never-written cnt[0]"), std::string::npos)
        << res.error->message;
}

TEST(LoweredInterp, ReadOfNeverWrittenFloatSharedIsAWarningOnceAndIntegerStaysAnError) {
    // tests/debugger/uninit_shared_read.py fills only S[0..63], then thread t reads S[t]. A float
    // tile: the run completes, B[64..] carries the NaN poison, and one warning names the first
    // such read (the read's line, S[64], the declaration's line) -- as the corpus gdn
    // chunk_delta_h with use_initial_state=False reads b_h_shared. An int32 tile: an error.
    const std::string path = "tests/debugger/uninit_shared_read.py";
    const std::string text = readFile(path);
    auto lineOf = [&](const std::string& needle) {
        size_t at = text.find(needle);
        return uint32_t(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n') + 1);
    };
    ts::CompileResult r = compileText(path, text, {});
    ASSERT_TRUE(r.ok) << diagText(r);
    std::vector<double> a(128);
    for (int i = 0; i < 128; ++i) a[size_t(i)] = 0.5 * i + 1;
    std::vector<HostTensor> args{ts::makeHostTensor(ir::DType::Float32, {128}, a), HostTensor{ir::DType::Float32, {128}, {}}};
    auto res = ts::interp::runLowered(r.lowered, args);
    ASSERT_TRUE(res.ok) << (res.error ? res.error->message : "");
    for (int i = 0; i < 64; ++i) EXPECT_EQ(args[1].data[size_t(i)], a[size_t(i)]) << i;
    for (int i = 64; i < 128; ++i) EXPECT_TRUE(std::isnan(args[1].data[size_t(i)])) << i;
    ASSERT_EQ(res.warnings.size(), 1u);
    const ts::Diagnostic& w = res.warnings[0];
    EXPECT_EQ(w.severity, ts::Severity::Warning);
    EXPECT_EQ(w.span.line, lineOf("B[i] = S[i]  # read"));
    EXPECT_NE(w.message.find("read of never-written S[64]: uninitialised shared memory (first such read of 'S', "
                             "block (0), thread 64; declared at line " + std::to_string(lineOf("S = T.alloc_shared"))),
              std::string::npos)
        << w.message;
    ts::CompileResult ri = compileText(path, text, {{"dtype", "int32"}});
    ASSERT_TRUE(ri.ok) << diagText(ri);
    std::vector<HostTensor> iargs{ts::makeHostTensor(ir::DType::Int32, {128}, a), HostTensor{ir::DType::Int32, {128}, {}}};
    auto ires = ts::interp::runLowered(ri.lowered, iargs);
    ASSERT_FALSE(ires.ok);
    EXPECT_NE(ires.error->message.find("read of never-written S[64]"), std::string::npos) << ires.error->message;
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    for (const char* dtype : {"float32", "int32"})
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileOptions opts;
            opts.target = target;
            opts.params = {{"dtype", dtype}};
            ts::CompileResult rc = ts::compile(path, text, opts);
            ASSERT_TRUE(rc.ok) << diagText(rc);
            auto nv = ts::rt::compileCuda(rc.cuda, ts::parseTarget(target)->arch(), {}, true);
            EXPECT_TRUE(nv.ok) << dtype << " " << target << "\n" << nv.log;
        }
}

// A read of never-written shared memory by a block-level op (T.gemm reads its A tile in one
// intrinsic, no single thread is current): the warning names the block, not "thread -1" (a
// fresh-user trial deleted the T.copy into a gemm operand and got that placeholder).
TEST(LoweredInterp, NeverWrittenGemmOperandWarningNamesNoPlaceholderThread) {
    const std::string text = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def gemm_unwritten_a():
    @T.prim_func
    def main(B: T.Tensor((32, 32), "float16"), C: T.Tensor((32, 32), "float32")):
        with T.Kernel(1, threads=128) as bx:
            A_s = T.alloc_shared((32, 32), "float16")
            B_s = T.alloc_shared((32, 32), "float16")
            acc = T.alloc_fragment((32, 32), "float32")
            T.copy(B, B_s)
            T.clear(acc)
            T.gemm(A_s, B_s, acc)
            T.copy(acc, C)

    return main
)";
    ts::CompileResult r = compileText("gemm_unwritten_a.py", text, {});
    ASSERT_TRUE(r.ok) << diagText(r);
    std::vector<double> b(32 * 32, 0.5);
    std::vector<HostTensor> args{ts::makeHostTensor(ir::DType::Float16, {32, 32}, b), HostTensor{ir::DType::Float32, {32, 32}, {}}};
    auto res = ts::interp::runLowered(r.lowered, args);
    ASSERT_TRUE(res.ok) << (res.error ? res.error->message : "");
    ASSERT_EQ(res.warnings.size(), 1u);
    const std::string& m = res.warnings[0].message;
    EXPECT_NE(m.find("uninitialised shared memory (first such read of 'A_s', block (0); declared at line 10)"), std::string::npos) << m;
    EXPECT_EQ(m.find("thread -1"), std::string::npos) << m;
}

TEST(LoweredInterp, WarpAllreduceCombinesAlignedLaneGroups) {
    for (int width : {8, 32}) {
        for (const char* op : {"sum", "max"}) {
            auto f = handKernel([&](ir::Var tx, ir::Buffer Y) {
                ir::Expr v = ir::cast(ir::DType::Float32, tx);
                ir::Expr red = ir::call(
                    ir::intrin::kWarpAllreduce,
                    {std::make_shared<ir::StrImmNode>(op, ts::Span{}), v, ir::intImm(width)},
                    ir::DType::Float32);
                return ir::store(Y, {tx}, red);
            });
            std::vector<HostTensor> args{HostTensor{ir::DType::Float32, {128}, {}}};
            auto res = ts::interp::runLowered(f, args);
            ASSERT_TRUE(res.ok) << (res.error ? res.error->message : "");
            for (int t = 0; t < 128; ++t) {
                int first =
                    t / width * width;  // lanes first .. first+width-1 hold first .. first+width-1
                double want = std::string(op) == "sum" ? width * first + width * (width - 1) / 2
                                                       : first + width - 1;
                ASSERT_EQ(args[0].data[t], want) << op << " width " << width << " thread " << t;
            }
        }
    }
}

/// The pipelined main loop with its barrier moved from before the refill to just before the
/// gemm: the wait is still ordered before the reads, but the refill of stage (k+3)%4 now races
/// with iteration k-1's gemm reading the same stage.
TEST(LoweredInterp, StageRefillWithoutBarrierIsAWriteAfterReadRace) {
    auto r = compileText("samples/gemm.py", readFile("samples/gemm.py"),
                         {{"M", "128"}, {"N", "128"}, {"K", "256"}});
    ASSERT_TRUE(r.ok) << diagText(r);
    struct MoveBarrier : ir::Mutator {
        int moved = 0;
        ir::Stmt visitSeq(const ir::SeqNode* n, const ir::Stmt& self) override {
            std::vector<ir::Stmt> out;
            ir::Stmt barrier;
            for (auto& st : n->stmts) {
                auto* e = dynamic_cast<const ir::EvalNode*>(st.get());
                auto* c = e ? dynamic_cast<const ir::CallNode*>(e->call.get()) : nullptr;
                if (c && isBarrier(c) && !barrier) {
                    barrier = st;
                    continue;
                }
                if (c && c->op == ir::intrin::kGemmSS && barrier) {
                    out.push_back(barrier);
                    barrier = nullptr;
                    ++moved;
                }
                out.push_back(mutate(st));
            }
            if (barrier) out.push_back(barrier);
            return ir::seq(out, n->span);
        }
    } m;
    auto broken = ir::withBody(r.lowered, m.mutate(r.lowered->body));
    ASSERT_EQ(m.moved, 1);
    auto args = makeArgs(r);
    auto res = ts::interp::runLowered(broken, args);
    ASSERT_FALSE(res.ok);
    EXPECT_NE(res.error->message.find("cp.async to "), std::string::npos) << res.error->message;
    EXPECT_NE(res.error->message.find("races with its read by other threads"), std::string::npos)
        << res.error->message;
}

TEST(LoweredInterp, Gemm128x128x64RunsWellUnderASecond) {
    auto r = compileGemm(readFile("samples/gemm.py"));
    ASSERT_TRUE(r.ok) << diagText(r);
    auto args = makeArgs(r);
    auto t0 = std::chrono::steady_clock::now();
    auto res = ts::interp::runLowered(r.lowered, args);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(res.ok) << errText(res, r);
    RecordProperty("lowered_gemm_128x128x64_ms", std::to_string(ms));
    EXPECT_LT(ms, 500.0);
}

// sm_90a: a wgmma group left in flight (wgmma_gemm_ss with wait_group > 0) keeps reading its
// shared tiles until a later wait retires it; a write to them before that is a race the thread
// level reports. The fused RMSNorm -> GEMM (InjectPipelineWgmmaGeneric.cpp) refills tile k-2's
// stage at iteration k and writes its X * G tile into copy k % 2 while wgmma k-1 reads the other:
// correct with wait_group 1 (k-2 retired in iteration k-1), a race with wait_group 2 (k-2 still
// in flight when iteration k's refill of its W stage lands, the first write that hits it): by TMA
// (InjectPipelineTmaLoads.cpp, W's rows are 256 bytes) and, with TILESCOPE_PIPELINE_TMA=0, by cp.async.
TEST(LoweredInterp, WriteIntoATileAnInflightWgmmaReadsIsARace) {
  for (const char* engine : {"TMA load", "cp.async"}) {
    std::optional<ts::e2e::ScopedEnv> off;
    if (std::string(engine) == "cp.async") off.emplace("TILESCOPE_PIPELINE_TMA", "0");
    ts::CompileOptions opts;
    opts.params = {{"M", "128"}, {"N", "128"}, {"K", "256"}};
    opts.target = "cuda:sm_90a";
    opts.recordSnapshots = false;
    auto r = ts::compile("samples/rmsnorm_matmul.py", readFile("samples/rmsnorm_matmul.py"), opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    {
        auto args = makeArgs(r);
        auto res = ts::interp::runLowered(r.lowered, args);
        ASSERT_TRUE(res.ok) << errText(res, r);
    }
    int deepened = 0;
    auto broken = editEvals(r.lowered, [&](const ir::CallNode* c, const ir::Stmt& self) {
        if (c->op != ir::intrin::kWgmmaSS || c->args.size() < 10 || ir::constInt(c->args[9]).value_or(0) != 1) return self;
        ++deepened;  // the loop's gemm: two groups left in flight instead of one
        std::vector<ir::Expr> a = c->args;
        a[9] = ir::intImm(2);
        return ir::evaluate(ir::call(c->op, a, c->dtype, c->span), self->span);
    });
    ASSERT_EQ(deepened, 1);
    auto args = makeArgs(r);
    auto res = ts::interp::runLowered(broken, args);
    ASSERT_FALSE(res.ok);
    EXPECT_NE(res.error->message.find(std::string(engine) + " of W_s["), std::string::npos) << res.error->message;
    EXPECT_NE(res.error->message.find("may still read it (its group is in flight"), std::string::npos) << res.error->message;
    ASSERT_TRUE(res.error->span.valid());
    EXPECT_NE(r.source->lineText(res.error->span.line).find("T.copy(W["), std::string::npos) << errText(res, r);
  }
}

}  // namespace
