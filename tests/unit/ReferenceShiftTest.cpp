// `<<` and `>>` on integer tensors in ref_program (TileLang's int4 dequantize references unpack
// nibbles with `qB & 0x0F, qB >> 4`): values written out by hand, wrap-around of the dtype.
#include "tests/unit/ReferenceTestUtil.h"

using namespace reftest;
using ts::HostTensor;
using ts::ir::DType;

TEST(ReferenceShift, UnpacksNibblesOfUint8) {
    HostTensor q = ts::makeHostTensor(DType::UInt8, {1, 3}, {0x4F, 0xA3, 0x07});
    auto r = run("import torch\ndef ref_program(q):\n"
                 "    return torch.stack((q & 0x0F, q >> 4), dim=-1).reshape(1, 6).to(torch.half)\n",
                 {q});
    expectOutput(r, 0, {1, 6}, {0xF, 0x4, 0x3, 0xA, 0x7, 0x0});
}

TEST(ReferenceShift, LeftShiftWrapsAndRightShiftIsArithmeticForSigned) {
    HostTensor a = ts::makeHostTensor(DType::Int8, {4}, {1, -8, 64, -1});
    expectOutput(run("def ref_program(a):\n    return a << 1\n", {a}), 0, {4}, {2, -16, -128, -2});
    expectOutput(run("def ref_program(a):\n    return a >> 2\n", {a}), 0, {4}, {0, -2, 16, -1});
}
