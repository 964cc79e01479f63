// GPU-free parts of the launch path: argument and launch-configuration checks (exact messages, as
// users see them), request validation, timing statistics, and the cubin cache.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "profiler/Runtime.h"
#include "profiler/cuda/CubinCache.h"
#include "profiler/cuda/Launch.h"
#include "profiler/cuda/Timing.h"

using namespace ts::rt;
using ts::ir::DType;

namespace {
std::vector<TensorParam> gemmSignature() {
    return {{"A", DType::Float16, {4096, 4096}, false},
            {"B", DType::Float16, {4096, 4096}, false},
            {"C", DType::Float32, {4096, 4096}, true}};
}

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        path = std::filesystem::temp_directory_path() /
               ("ts_rt_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        std::filesystem::remove_all(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::permissions(path, std::filesystem::perms::owner_all, ec);
        std::filesystem::remove_all(path, ec);
    }
    static inline int counter = 0;
};
}  // namespace

TEST(RuntimeArguments, MatchingArgumentsPass) {
    const auto sig = gemmSignature();
    EXPECT_EQ(checkArguments(sig, {{DType::Float16, {4096, 4096}},
                                   {DType::Float16, {4096, 4096}},
                                   {DType::Float32, {4096, 4096}}}),
              std::nullopt);
}

TEST(RuntimeArguments, MessagesNameTheParameter) {
    const auto sig = gemmSignature();
    auto err = checkArguments(sig, {{DType::Float16, {2, 4, 8}},
                                    {DType::Float32, {4096, 4096}},
                                    {DType::Float32, {4096, 2048}}});
    ASSERT_TRUE(err);
    EXPECT_EQ(*err,
              "argument 'A' (#0): expected rank 2 with shape (4096, 4096), got rank 3 (2, 4, 8)\n"
              "argument 'B' (#1): expected dtype float16, got float32\n"
              "argument 'C' (#2): expected shape (4096, 4096), got (4096, 2048)");
}

TEST(RuntimeArguments, CountMismatch) {
    auto err = checkArguments(gemmSignature(), {{DType::Float16, {4096, 4096}}});
    ASSERT_TRUE(err);
    EXPECT_EQ(*err, "expected 3 arguments (A, B, C), got 1");
}

TEST(RuntimeArguments, DynamicExtentMatchesAnything) {
    std::vector<TensorParam> sig{{"X", DType::Int8, {-1, 64}, false}};
    EXPECT_EQ(checkArguments(sig, {{DType::Int8, {17, 64}}}), std::nullopt);
    auto err = checkArguments(sig, {{DType::Int8, {17, 32}}});
    ASSERT_TRUE(err);
    EXPECT_EQ(*err, "argument 'X' (#0): expected shape (?, 64), got (17, 32)");
    err = checkArguments(sig, {{DType::Int8, {}}});
    ASSERT_TRUE(err);
    EXPECT_EQ(*err, "argument 'X' (#0): expected rank 2 with shape (?, 64), got rank 0 ()");
}

TEST(RuntimeLaunchConfig, Limits) {
    LaunchConfig ok{{128, 1, 1}, {256, 1, 1}, 0};
    EXPECT_EQ(checkLaunchConfig(ok), std::nullopt);
    EXPECT_EQ(describe(ok), "grid (128, 1, 1) block (256, 1, 1) smem 0 B");

    LaunchConfig zero{{0, 1, 1}, {256, 1, 1}, 0};
    EXPECT_NE(checkLaunchConfig(zero)->find("at least 1"), std::string::npos);
    LaunchConfig many{{1, 1, 1}, {1024, 2, 1}, 0};
    EXPECT_NE(checkLaunchConfig(many)->find("2048 threads per block exceed the limit of 1024"),
              std::string::npos);
    LaunchConfig gridY{{1, 70000, 1}, {32, 1, 1}, 0};
    EXPECT_NE(checkLaunchConfig(gridY)->find("grid.y exceeds 65535"), std::string::npos);
    LaunchConfig blockZ{{1, 1, 1}, {1, 1, 128}, 0};
    EXPECT_NE(checkLaunchConfig(blockZ)->find("block.z exceeds 64"), std::string::npos);
    LaunchConfig smem{{1, 1, 1}, {128, 1, 1}, 300 * 1024};
    EXPECT_NE(checkLaunchConfig(smem, 1024, 227 * 1024)
                  ->find("307200 bytes of dynamic shared memory exceed the limit of 232448"),
              std::string::npos);
    EXPECT_EQ(checkLaunchConfig(LaunchConfig{{1, 1, 1}, {128, 1, 1}, 200 * 1024}, 1024, 227 * 1024),
              std::nullopt);
}

TEST(RuntimeRequest, ValidationWithoutGpu) {
    DeviceInfo dev;
    dev.maxThreadsPerBlock = 1024;
    dev.maxSmemPerBlockOptin = 227 * 1024;
    RunRequest req;
    req.source = "extern \"C\" __global__ void k() {}";
    req.kernel = "k";
    req.signature = {{"X", DType::Float32, {4}, false}, {"Y", DType::Float32, {4}, true}};
    req.config = LaunchConfig{{1, 1, 1}, {4, 1, 1}, 0};
    req.tensors = {ts::makeHostTensor(DType::Float32, {4}, {1, 2, 3, 4}),
                   ts::HostTensor{DType::Float32, {4}, {}}};
    EXPECT_EQ(checkRequest(req, dev), std::nullopt);

    RunRequest noData = req;
    noData.tensors[0].data.clear();
    EXPECT_EQ(*checkRequest(noData, dev),
              "argument 'X' (#0): input has 0 values, its shape (4) needs 4");

    RunRequest wrong = req;
    wrong.tensors[1].dtype = DType::Float16;
    wrong.rotateSets = 0;
    EXPECT_EQ(
        *checkRequest(wrong, dev),
        "argument 'Y' (#1): expected dtype float32, got float16\nrotateSets must be at least 1");
}

TEST(RuntimeTiming, Summary) {
    auto r = summarizeTimes({3.0, 1.0, 2.0, 10.0});
    EXPECT_EQ(r.reps, 4);
    EXPECT_DOUBLE_EQ(r.medianMs, 2.5);
    EXPECT_DOUBLE_EQ(r.minMs, 1.0);
    EXPECT_DOUBLE_EQ(r.maxMs, 10.0);
    EXPECT_EQ(r.samplesMs, (std::vector<double>{3.0, 1.0, 2.0, 10.0}));  // launch order kept
    EXPECT_DOUBLE_EQ(summarizeTimes({5.0, 1.0, 4.0}).medianMs, 4.0);
    EXPECT_EQ(summarizeTimes({}).reps, 0);
}

TEST(RuntimeCubinCache, Fnv1aKnownVectors) {
    EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
    EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
    EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
    EXPECT_NE(CacheKey().add("ab").add("c").value(), CacheKey().add("a").add("bc").value());
    EXPECT_EQ(CacheKey().add("x").add("y").value(), CacheKey().add("x").add("y").value());
}

TEST(RuntimeCubinCache, StoreLoadAndCorruption) {
    TempDir tmp;
    CubinCache cache(tmp.path / "cubin");
    const std::vector<char> blob{'\x7f', 'E', 'L', 'F', 1, 2, 3, 4, 5};
    EXPECT_FALSE(cache.load(42));
    EXPECT_TRUE(cache.store(42, blob));
    ASSERT_TRUE(cache.load(42));
    EXPECT_EQ(*cache.load(42), blob);
    EXPECT_FALSE(cache.load(43));
    // No temporary files left behind.
    int files = 0;
    for (auto& e : std::filesystem::directory_iterator(tmp.path / "cubin")) {
        ++files;
        EXPECT_EQ(e.path().extension(), ".cubin");
    }
    EXPECT_EQ(files, 1);

    // Flip a payload byte: the hash check rejects it.
    {
        std::fstream f(cache.pathFor(42), std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(34);
        f.put('X');
    }
    EXPECT_FALSE(cache.load(42));
    // Truncate: rejected.
    std::filesystem::resize_file(cache.pathFor(42), 20);
    EXPECT_FALSE(cache.load(42));
    // A file stored under another key's name: rejected.
    EXPECT_TRUE(cache.store(7, blob));
    std::filesystem::copy_file(cache.pathFor(7), cache.pathFor(8));
    EXPECT_FALSE(cache.load(8));
    // Overwriting a corrupt entry works.
    EXPECT_TRUE(cache.store(42, blob));
    EXPECT_EQ(*cache.load(42), blob);
}

TEST(RuntimeCubinCache, UnwritableOrDisabledIsNotAnError) {
    CubinCache disabled{std::filesystem::path()};
    EXPECT_FALSE(disabled.store(1, {'a'}));
    EXPECT_FALSE(disabled.load(1));
    TempDir tmp;
    std::filesystem::create_directories(tmp.path);
    std::ofstream(tmp.path / "file") << "not a directory";
    CubinCache underFile(tmp.path / "file" / "cubin");
    EXPECT_FALSE(underFile.store(1, {'a'}));
    EXPECT_FALSE(underFile.load(1));
}

TEST(RuntimeCubinCache, DefaultDirHonoursEnvironment) {
    const char* old = std::getenv("TILESCOPE_CACHE_DIR");
    const std::string saved = old ? old : "";
    setenv("TILESCOPE_CACHE_DIR", "/tmp/tscache", 1);
    EXPECT_EQ(CubinCache::defaultDir(), std::filesystem::path("/tmp/tscache/cubin"));
    if (old)
        setenv("TILESCOPE_CACHE_DIR", saved.c_str(), 1);
    else
        unsetenv("TILESCOPE_CACHE_DIR");
}
