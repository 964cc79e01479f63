// `tilec run` with scalar kernel arguments and atomic-only outputs (app/cli/CmdRun.cpp,
// compiler/LaunchArgs.h): --param NAME sets a symbolic size or a scalar parameter for the launch
// (the run says which values it used, defaults included), a non-number is an error naming the
// --param, and an output that only T.atomic_* write starts at zero instead of NaN (split-K).
#include "CliTestUtil.h"
#include "tests/support/SourceDir.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {
RunCommand programRun(const std::string& program, std::vector<std::string> params,
                      const std::string& interp = "lowered") {
    RunCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/" + program;
    c.flags.params = std::move(params);
    c.flags.target = "cuda:sm_80";
    c.interp = interp;
    c.seed = 3;
    return c;
}
}  // namespace

TEST(CliScalarArgs, ParamSetsSymbolicSizeAndScalar) {
    auto o = captureCli([] {
        return runRun(programRun("dynamic_gemm.py", {"M=100", "scale=0.25"}));
    });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "scalar argument M = 100 (--param)")) << o.out;
    EXPECT_TRUE(contains(o.out, "scalar argument scale = 0.25 (--param)")) << o.out;
    EXPECT_TRUE(contains(o.out, "grid (2, 4, 1)")) << o.out;  // ceil(64/32), ceil(100/32)
    EXPECT_TRUE(contains(o.out, "PASS")) << o.out;
}

TEST(CliScalarArgs, DefaultsAreReported) {
    auto o = captureCli([] { return runRun(programRun("dynamic_gemm.py", {})); });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "scalar argument M = 256 (default; set it with --param M=VALUE)"))
        << o.out;
    EXPECT_TRUE(contains(o.out, "scalar argument scale = 1.0 (default")) << o.out;
}

TEST(CliScalarArgs, NonNumericValueIsAnError) {
    auto o = captureCli([] { return runRun(programRun("dynamic_gemm.py", {"M=abc"})); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "--param M=abc: 'M' is a scalar kernel argument (int32) and needs "
                                "a number"))
        << o.err;
}

TEST(CliScalarArgs, UnknownNameIsStillAnError) {
    auto o = captureCli([] { return runRun(programRun("dynamic_gemm.py", {"MM=100"})); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "unknown parameter 'MM' for kernel 'dyn_gemm'")) << o.err;
}

// A body error with --param for a scalar argument: the body's error, not "unknown parameter".
TEST(CliScalarArgs, BodyErrorIsReportedNotTheScalarParam) {
    auto o = captureCli([] { return runRun(programRun("scalar_arg_body_error.py", {"n=7"})); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "scalar_arg_body_error.py:16:42: error: T.serial() step must be a positive compile-time integer")) << o.err;
    EXPECT_FALSE(contains(o.err, "unknown parameter")) << o.err;
    // A name that is neither a factory parameter nor a kernel argument is still the news.
    auto m = captureCli([] { return runRun(programRun("scalar_arg_body_error.py", {"nn=7"})); });
    EXPECT_EQ(m.rc, 1);
    EXPECT_TRUE(contains(m.err, "unknown parameter 'nn' for kernel 'scalar_arg_body_error'")) << m.err;
}

// An integer the scalar argument's type cannot hold is refused (the interpreters used 1e11 for an
// int32; a GPU launch could not pass it, helper-117).
TEST(CliScalarArgs, OutOfRangeIntegerIsRefused) {
    auto o = captureCli([] { return runRun(programRun("dynamic_gemm.py", {"M=99999999999"})); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "--param M=99999999999: 'M' is int32, which does not hold 99999999999")) << o.err;
}

TEST(CliScalarArgs, BoolTakesZeroOrOne) {
    auto bad = captureCli([] { return runRun(programRun("bool_scalar_arg.py", {"flag=2"})); });
    EXPECT_EQ(bad.rc, 1);
    EXPECT_TRUE(contains(bad.err, "--param flag=2: 'flag' is bool: give 0/1 (or False/True)")) << bad.err;
    for (const char* v : {"flag=1", "flag=0", "flag=True"}) {
        auto ok = captureCli([&] { return runRun(programRun("bool_scalar_arg.py", {v})); });
        EXPECT_EQ(ok.rc, 0) << v << ok.out << ok.err;
        EXPECT_TRUE(contains(ok.out, "max-abs 0.0e+00, 0 NaN: PASS")) << v << ok.out;
    }
}

TEST(CliScalarArgs, AtomicOnlyOutputStartsAtZero) {
    for (const char* interp : {"tile", "lowered"}) {
        auto o = captureCli([&] {
            return runRun(programRun("splitk_gemm.py", {"mode='parallel'"}, interp));
        });
        EXPECT_EQ(o.rc, 0) << o.err;
        EXPECT_TRUE(contains(o.out, "output C starts at zero (only T.atomic_* write it)")) << o.out;
        EXPECT_TRUE(contains(o.out, "PASS")) << o.out;
    }
}

// tests/e2e/programs/varlen_scale.py: a varlen batch whose offsets must be valid (--input), a
// scalar argument the reference takes by name, a reference that returns fewer values than the
// kernel has outputs, and one that takes other inputs in another order (--ref-inputs,
// --ref-param).
TEST(CliScalarArgs, VarlenInputsRuleScalarToReferenceAndFewerOutputs) {
    for (const char* interp : {"tile", "lowered"}) {
        auto o = captureCli([&] {
            auto c = programRun("varlen_scale.py", {"max_len=160"}, interp);
            c.flags.inputRules = {"cu_seqlens=offsets:160"};
            return runRun(c);
        });
        EXPECT_EQ(o.rc, 0) << interp << o.out << o.err;
        EXPECT_TRUE(contains(o.out, "note: Seq not checked: ref_program returned 1 value for 2 "
                                    "outputs (compared with the first 1 in order, as TileLang does)"))
            << o.out;
        EXPECT_TRUE(contains(o.out, "  O: rel-L2")) << o.out;
        EXPECT_TRUE(contains(o.out, "\nPASS\n")) << o.out;
    }
    auto named = captureCli([] {
        auto c = programRun("varlen_scale.py", {"max_len=160"}, "tile");
        c.flags.inputRules = {"cu_seqlens=offsets:160"};
        c.ref = "ref_by_position";
        c.flags.refInputs = {"cu_seqlens", "X"};
        c.flags.refParams = {"n_seq=3"};
        return runRun(c);
    });
    EXPECT_EQ(named.rc, 0) << named.out << named.err;
    EXPECT_TRUE(contains(named.out, "\nPASS\n")) << named.out;
}

TEST(CliScalarArgs, VarlenWithoutValidOffsetsAndBadRulesAreErrors) {
    // Random int32 offsets index outside O: the interpreter says where.
    auto random = captureCli([] {
        return runRun(programRun("varlen_scale.py", {"max_len=160"}, "tile"));
    });
    EXPECT_EQ(random.rc, 1);
    EXPECT_TRUE(contains(random.err, "out-of-bounds")) << random.err;
    auto run = [](std::vector<std::string> rules, std::vector<std::string> refInputs = {}) {
        return captureCli([&] {
            auto c = programRun("varlen_scale.py", {"max_len=160"}, "tile");
            c.flags.inputRules = rules;
            c.flags.refInputs = refInputs;
            return runRun(c);
        });
    };
    auto unknown = run({"cu_seqlens=sorted:3"});
    EXPECT_EQ(unknown.rc, 1);
    EXPECT_TRUE(contains(unknown.err, "--input cu_seqlens: unknown input rule 'sorted:3'"))
        << unknown.err;
    // The hint's example names the kernel's first input (the option's parser, which checks the
    // rule before the compile, does not know the kernel: its example says A).
    EXPECT_TRUE(contains(unknown.err, "\n  hint: write --input NAME=RULE, RULE one of offsets:TOTAL, int:LO:HI, "))
        << unknown.err;
    EXPECT_TRUE(contains(unknown.err, "; e.g. --input X=uniform:-1:1\n")) << unknown.err;
    auto noInput = run({"O=fill:0"});
    EXPECT_EQ(noInput.rc, 1);
    EXPECT_TRUE(contains(noInput.err, "--input O: the kernel has no input tensor 'O' (inputs: X, "
                                      "cu_seqlens)"))
        << noInput.err;
    auto badRef = run({"cu_seqlens=offsets:160"}, {"X", "lengths"});
    EXPECT_EQ(badRef.rc, 1);
    EXPECT_TRUE(contains(badRef.err, "--ref-inputs: the kernel has no input 'lengths' (inputs: X, "
                                     "cu_seqlens, max_len)"))
        << badRef.err;
}
