// Meta-level helpers in the style of TileLang's tilelang.quantize modules
// (tests/e2e/programs/nibble_unpack.py): TVM's C dtype names T.int / T.uint / "uint",
// tvm.tirx.const typed constants, a closure returning the converter. Every byte value is
// unpacked on both interpreters and compared with nibbles computed here; the file's
// ref_program (torch & and >>) agrees on random bytes; the CUDA compiles for sm_80 and sm_90a.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kProgram = "tests/e2e/programs/nibble_unpack.py";

TEST(QuantHelpersE2E, UnpacksEveryByteOnBothInterpreters) {
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    opts.params = {{"M", "16"}};  // 16 x 16 bytes: every value 0..255 once
    auto r = ts::compile(kProgram, ts::e2e::readRepoFile(kProgram), opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    auto ci = ts::e2e::makeCheckedInputs(r);
    auto& B = ci.set.tensors[0].data;
    ASSERT_EQ(B.size(), 256u);
    for (size_t i = 0; i < B.size(); ++i) B[i] = static_cast<double>((i * 167 + 13) % 256);  // a permutation
    for (bool lowered : {false, true}) {
        std::string err;
        auto outs = ts::e2e::runOutputs(r, ci, lowered, &err);
        ASSERT_EQ(outs.size(), 1u) << err;
        for (size_t i = 0; i < 16; ++i)
            for (size_t j = 0; j < 32; ++j) {
                const unsigned byte = static_cast<unsigned>(B[i * 16 + j / 2]);
                ASSERT_EQ(outs[0].data[i * 32 + j], double((byte >> (4 * (j % 2))) & 15u)) << i << ", " << j;
            }
    }
}

TEST(QuantHelpersE2E, RefProgramWithShiftsAgrees) {
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    auto r = ts::compile(kProgram, ts::e2e::readRepoFile(kProgram), opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    ts::e2e::expectInterpretersMatchReference(r, "nibble_unpack");
}

TEST(QuantHelpersE2E, GeneratedCudaCompilesForSm80AndSm90a) {
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProgram, {});
}

}  // namespace
