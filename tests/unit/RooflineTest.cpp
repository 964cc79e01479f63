// The compare view's roofline (visualizer/core/Roofline.h): intensity and achieved TFLOP/s of
// stored variants, derived by hand from the record fields, and the datasheet roofs.
#include <gtest/gtest.h>

#include "visualizer/core/Roofline.h"
#include "visualizer/core/VariantCompare.h"

using namespace ts::viz;

namespace {
// A profile record of a 1024^3 fp16 GEMM as tilec profile writes it (only the fields used).
nlohmann::json profileRecord(const std::string& tile, double timeMs, double dramRead,
                             double dramWrite) {
    nlohmann::json r;
    r["kind"] = "profile";
    r["status"] = "ok";
    r["check"] = "pass";
    r["device"] = "NVIDIA H200";
    r["params"] = {{"block_M", tile}};
    r["flops"] = 2.0 * 1024 * 1024 * 1024;  // 2 M N K
    r["bytes"] = 3.0 * 1024 * 1024 * 2;     // A, B read and C written once, fp16
    r["time_ms"] = timeMs;
    r["metrics"] = {{"dram_read_bytes", dramRead}, {"dram_write_bytes", dramWrite}};
    return r;
}
}  // namespace

TEST(Roofline, DatasheetPeaksAndAttainable) {
    auto h200 = peaksFor("NVIDIA H200");
    ASSERT_TRUE(h200);
    EXPECT_DOUBLE_EQ(h200->tensorTflops, 989.5);  // 1,979 TFLOPS fp16 with sparsity / 2
    EXPECT_DOUBLE_EQ(h200->dramGBps, 4800);
    EXPECT_FALSE(peaksFor("NVIDIA GeForce RTX 4090"));  // not in the table: no roofs
    EXPECT_FALSE(peaksFor("NVIDIA H200 "));             // exact driver names only
    // Ridge point: 989.5e12 / 4.8e12 = 206.15 FLOP/B. Below it the bandwidth roof:
    // 100 FLOP/B x 4800 GB/s = 480 TFLOP/s; above it the compute roof.
    EXPECT_DOUBLE_EQ(attainableTflops(*h200, 100), 480);
    EXPECT_DOUBLE_EQ(attainableTflops(*h200, 1000), 989.5);
}

TEST(Roofline, PointsFromMeasuredTrafficElseTheModel) {
    std::vector<nlohmann::json> recs;
    // Measured 4 MiB read + 2 MiB written: 2^31 FLOP / 6 MiB = 341.33 FLOP/B; in 0.01 ms:
    // 2^31 / 1e-5 s = 214.75 TFLOP/s.
    recs.push_back(profileRecord("64", 0.01, 4.0 * 1024 * 1024, 2.0 * 1024 * 1024));
    // No counters (not permitted): the sample's ideal 6 MiB as well, but flagged as a model.
    auto noCounters = profileRecord("128", 0.02, 0, 0);
    noCounters.erase("metrics");
    recs.push_back(noCounters);
    // A wrong result, a failed run, an interpreter time and a record without flops: no point.
    auto wrong = profileRecord("256", 0.001, 1, 1);
    wrong["status"] = "wrong_result";
    wrong["check"] = "fail";
    recs.push_back(wrong);
    auto fault = profileRecord("512", 0.001, 1, 1);
    fault["status"] = "fault";
    recs.push_back(fault);
    auto interp = profileRecord("32", 30, 1, 1);
    interp["interp"] = true;
    recs.push_back(interp);
    auto noFlops = profileRecord("16", 0.01, 1, 1);
    noFlops.erase("flops");
    recs.push_back(noFlops);

    VariantCompare c(recs);
    Roofline rl = rooflineOf(c);
    ASSERT_EQ(rl.points.size(), 2u);
    EXPECT_EQ(rl.device, "NVIDIA H200");
    ASSERT_TRUE(rl.peaks);
    const double flops = 2.0 * 1024 * 1024 * 1024, sixMiB = 6.0 * 1024 * 1024;
    EXPECT_EQ(rl.points[0].row, 0);
    EXPECT_EQ(rl.points[0].label, "block_M=64");
    EXPECT_TRUE(rl.points[0].measuredBytes);
    EXPECT_NEAR(rl.points[0].intensity, 341.333, 1e-3);
    EXPECT_DOUBLE_EQ(rl.points[0].intensity, flops / sixMiB);
    EXPECT_NEAR(rl.points[0].tflops, 214.748, 1e-3);
    EXPECT_EQ(rl.points[1].row, 1);
    EXPECT_FALSE(rl.points[1].measuredBytes);
    EXPECT_DOUBLE_EQ(rl.points[1].intensity, flops / sixMiB);
    EXPECT_NEAR(rl.points[1].tflops, 107.374, 1e-3);
    // Only the row without flops is "missing": failed/wrong/interpreter rows are not performance.
    EXPECT_NE(rl.note.find("1 correct variant"), std::string::npos) << rl.note;
}

TEST(Roofline, UnknownDeviceHasPointsWithoutRoofs) {
    auto r = profileRecord("64", 0.01, 1e6, 1e6);
    r["device"] = "NVIDIA L4";
    VariantCompare c(std::vector<nlohmann::json>{r});
    Roofline rl = rooflineOf(c);
    ASSERT_EQ(rl.points.size(), 1u);
    EXPECT_FALSE(rl.peaks);
    EXPECT_DOUBLE_EQ(rl.points[0].intensity, 2.0 * 1024 * 1024 * 1024 / 2e6);
}
