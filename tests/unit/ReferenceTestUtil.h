// Helpers of the reference-evaluator tests (ReferenceTest.cpp, ReferenceOpsTest.cpp): running a
// ref_program from source text, deterministic input tensors and element access by multi-index.
#pragma once
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "compiler/support/HostTensor.h"
#include "compiler/support/Source.h"
#include "profiler/check/Reference.h"

namespace reftest {

/// Runs `src` (a whole file) with `inputs`; `params` are factory values as Python text.
inline ts::rt::ReferenceResult run(const std::string& src,
                                   const std::vector<ts::HostTensor>& inputs,
                                   const std::map<std::string, std::string>& params = {}) {
    return ts::rt::evalReference(std::make_shared<ts::SourceFile>("ref_test.py", src), params,
                                 inputs);
}

/// A tensor of `shape` with uniform values in [-1, 1) rounded to `t` (seeded: reproducible).
inline ts::HostTensor randomTensor(std::vector<int64_t> shape, uint32_t seed,
                                   ts::ir::DType t = ts::ir::DType::Float32) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<double> v(static_cast<size_t>(ts::numelOf(shape)));
    for (double& x : v) x = dist(gen);
    return ts::makeHostTensor(t, std::move(shape), std::move(v));
}

/// `v` with each value rounded to `t` (a reference's `.half()` / `.to(torch.bfloat16)` rounds).
inline std::vector<double> rounded(ts::ir::DType t, std::vector<double> v) {
    for (double& x : v) x = ts::roundTo(t, x);
    return v;
}

/// Flat row-major offset of a multi-index.
inline size_t at(const std::vector<int64_t>& shape, std::initializer_list<int64_t> idx) {
    size_t off = 0, d = 0;
    for (int64_t i : idx) off = off * static_cast<size_t>(shape[d++]) + static_cast<size_t>(i);
    return off;
}

/// All diagnostics as text (for failure messages).
inline std::string diagText(const ts::rt::ReferenceResult& r) {
    std::string s;
    for (const auto& d : r.diagnostics)
        s += std::to_string(d.span.line) + ":" + std::to_string(d.span.col) + ": " + d.message +
             (d.hint.empty() ? "" : " [" + d.hint + "]") + "\n";
    return s;
}

/// Expects `r` to be ok with one output of `shape` whose values match `expect` within `tol`.
inline void expectOutput(const ts::rt::ReferenceResult& r, size_t index,
                         const std::vector<int64_t>& shape, const std::vector<double>& expect,
                         double tol = 1e-12) {
    ASSERT_TRUE(r.ok) << diagText(r);
    ASSERT_LT(index, r.outputs.size());
    const ts::HostTensor& o = r.outputs[index];
    EXPECT_EQ(o.dtype, ts::ir::DType::Float64);
    ASSERT_EQ(o.shape, shape);
    ASSERT_EQ(o.data.size(), expect.size());
    for (size_t i = 0; i < expect.size(); ++i) {
        if (std::isnan(expect[i])) {
            EXPECT_TRUE(std::isnan(o.data[i])) << "element " << i;
        } else if (std::isinf(expect[i])) {
            EXPECT_EQ(o.data[i], expect[i]) << "element " << i;
        } else {
            EXPECT_NEAR(o.data[i], expect[i], tol * (1.0 + std::fabs(expect[i])))
                << "element " << i;
        }
    }
}

}  // namespace reftest
