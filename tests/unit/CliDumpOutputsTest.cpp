// `tilec run --dump-outputs DIR` (app/cli/DumpOutputs.h, bench/differential.py): the outputs of a
// run land in DIR as raw values with a manifest naming dtype, shape, file and tolerance. With
// A = 1.5 everywhere and B = 0, 1, 2, ... (row-major), samples/add.py writes C = 1.5 + i*N + j,
// exact in float32: the dump must hold exactly those values, on both interpreters.
#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "CliTestUtil.h"
#include "tests/support/SourceDir.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {

std::vector<char> readBytes(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(CliDumpOutputs, WritesTheOutputValuesAndAManifest) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("ts-dump-" + std::to_string(::getpid()));
    for (const char* interp : {"tile", "lowered"}) {
        std::filesystem::remove_all(dir);
        RunCommand c;
        c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/add.py";
        c.flags.params = {"M=3", "N=40"};
        c.flags.inputRules = {"A=fill:1.5", "B=arange"};
        c.interp = interp;
        c.seed = 9;
        c.dumpOutputs = (dir / interp).string();
        auto o = captureCli([&] { return runRun(c); });
        ASSERT_EQ(o.rc, 0) << interp << o.out << o.err;

        std::ifstream m(dir / interp / "outputs.json");
        ASSERT_TRUE(m) << interp;
        auto j = nlohmann::json::parse(m);
        EXPECT_EQ(j["engine"], interp);
        EXPECT_EQ(j["seed"], 9);
        ASSERT_EQ(j["outputs"].size(), 1u);
        const auto& out = j["outputs"][0];
        EXPECT_EQ(out["name"], "C");
        EXPECT_EQ(out["dtype"], "float32");
        EXPECT_EQ(out["shape"], nlohmann::json::array({3, 40}));
        EXPECT_EQ(out["file"], "C.f32");  // every value exact in float32
        EXPECT_EQ(out["rel_l2_tolerance"], 1e-5);

        auto bytes = readBytes(dir / interp / "C.f32");
        ASSERT_EQ(bytes.size(), 3u * 40u * sizeof(float)) << interp;
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 40; ++k) {
                float v;
                std::memcpy(&v, bytes.data() + (i * 40 + k) * sizeof(float), sizeof v);
                ASSERT_EQ(v, 1.5f + float(i * 40 + k)) << interp << " C[" << i << "," << k << "]";
            }
    }
    std::filesystem::remove_all(dir);
}

TEST(CliDumpOutputs, ValuesNotExactInFloat32AreWrittenAsFloat64) {
    // 1.5 + 2^24 + j is not a float32 for odd j: a float64 output keeps the dump in float64.
    const auto dir = std::filesystem::temp_directory_path() /
                     ("ts-dump64-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    RunCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/add.py";
    c.flags.params = {"M=1", "N=8", "dtype=\"float64\""};
    c.flags.inputRules = {"A=fill:16777217", "B=arange"};
    c.interp = "tile";
    c.seed = 1;
    c.dumpOutputs = dir.string();
    auto o = captureCli([&] { return runRun(c); });
    ASSERT_EQ(o.rc, 0) << o.out << o.err;
    auto bytes = readBytes(dir / "C.f64");
    ASSERT_EQ(bytes.size(), 8u * sizeof(double)) << o.out;
    for (int k = 0; k < 8; ++k) {
        double v;
        std::memcpy(&v, bytes.data() + k * sizeof(double), sizeof v);
        EXPECT_EQ(v, 16777217.0 + k) << k;
    }
    std::filesystem::remove_all(dir);
}
