#include <gtest/gtest.h>

#include "app/cli/HostMemory.h"

using ts::cli::hostMemoryProblem;

namespace {
ts::rt::TensorParam tensor(const char* name, std::vector<int64_t> shape) {
    ts::rt::TensorParam p;
    p.name = name;
    p.shape = std::move(shape);
    return p;
}
}  // namespace

TEST(HostMemory, RealSizeMlaInputsOnA23GBMachineAreRefusedWithTheLargestTensor) {
    // The new-user trial's sparse_mla_fwd at its scalar defaults: Q (256, 256, 64, 576) alone is
    // 2.4e9 elements = 58 GB at 24 bytes per element.
    const int64_t gb23 = int64_t(23) * 1000 * 1000 * 1000;
    auto p = hostMemoryProblem({tensor("KV", {256, 256, 1, 576}), tensor("Q", {256, 256, 64, 576}),
                                tensor("Output", {256, 256, 64, 512})},
                               gb23);
    ASSERT_TRUE(p.has_value());
    EXPECT_NE(p->find("largest: Q (256, 256, 64, 576), Output (256, 256, 64, 512), KV"), std::string::npos) << *p;
    EXPECT_NE(p->find("of this machine's 23.0 GB"), std::string::npos) << *p;
    EXPECT_NE(p->find("--param"), std::string::npos) << *p;
}

TEST(HostMemory, TheBoundIsEightyPercentOfInstalledMemory) {
    // 1e6 elements x 24 bytes = 24 MB: fits in 30 MB (80% = 24 MB), not in 29 MB.
    std::vector<ts::rt::TensorParam> sig{tensor("A", {1000, 1000})};
    EXPECT_FALSE(hostMemoryProblem(sig, 30'000'000).has_value());
    EXPECT_TRUE(hostMemoryProblem(sig, 29'000'000).has_value());
    EXPECT_FALSE(hostMemoryProblem(sig, 0).has_value());  // unknown memory: no check
}

TEST(HostMemory, DynamicExtentsCountAsOneAndHugeProductsDoNotOverflow) {
    EXPECT_FALSE(hostMemoryProblem({tensor("A", {-1, 1000})}, 30'000'000).has_value());
    auto p = hostMemoryProblem({tensor("A", {int64_t(1) << 40, int64_t(1) << 40})}, int64_t(1) << 40);
    ASSERT_TRUE(p.has_value());
    EXPECT_NE(p->find("A (1099511627776, 1099511627776)"), std::string::npos) << *p;
}
