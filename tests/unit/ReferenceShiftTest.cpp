// `<<` and `>>` on integer tensors in ref_program (TileLang's int4 dequantize references unpack
// nibbles with `qB & 0x0F, qB >> 4`): values written out by hand, wrap-around of the dtype.
#include <cmath>

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

// Tensor.view(dtype) of the same width reads the bits as the other dtype (TileLang's fp4
// dequantize reference builds bf16 patterns in uint16 and views them as bfloat16): hand bits.
TEST(ReferenceShift, ViewAsDtypeOfTheSameWidthReinterpretsBits) {
    HostTensor a = ts::makeHostTensor(DType::Int32, {4}, {0x3F80, 0xC000, 0x0040, 0x8000});
    auto r = run("import torch\ndef ref_program(a):\n"
                 "    return (a & 0xFFFF).to(torch.uint16).view(torch.bfloat16).float()\n",
                 {a});
    // 0x3F80 = 1.0, 0xC000 = -2.0, 0x0040 = 2^-127 (subnormal), 0x8000 = -0.0.
    expectOutput(r, 0, {4}, {1.0, -2.0, std::ldexp(1.0, -127), -0.0});
    HostTensor h = ts::makeHostTensor(DType::Float16, {2}, {1.0, -2.0});
    expectOutput(run("import torch\ndef ref_program(h):\n    return h.view(torch.int16)\n", {h}),
                 0, {2}, {0x3C00, -16384});
    // Between widths, as torch: the last dimension scales, bytes little-endian. 1.0 = 0x3C00,
    // -2.0 = 0xC000: as uint8 [0x00, 0x3C, 0x00, 0xC0]; as int32 one word 0xC0003C00.
    expectOutput(run("import torch\ndef ref_program(h):\n    return h.view(torch.uint8)\n", {h}), 0, {4}, {0x00, 0x3C, 0x00, 0xC0});
    expectOutput(run("import torch\ndef ref_program(h):\n    return h.view(torch.int32)\n", {h}), 0, {1},
                 {double(int32_t(0xC0003C00u))});
    HostTensor odd = ts::makeHostTensor(DType::Float16, {3}, {1.0, 2.0, 3.0});
    auto bad = run("import torch\ndef ref_program(h):\n    return h.view(torch.int32)\n", {odd});
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(diagText(bad).find("the last dimension (3 elements) is not a whole number of int32 elements"), std::string::npos) << diagText(bad);
}
