// The exported nvcc project (app/cli/ProjectExport.h) with awkward names and folders (fresh-user
// trial, 2026-12-04): a folder with a space broke `make` (the data folder's -D define was split by
// the shell), and `--name 'g m'` / `'../x'` were accepted although the name becomes the
// executable, the make target and the CMake target. The name must be one word; any folder works.
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "app/cli/ProjectExport.h"
#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"

namespace fs = std::filesystem;

namespace {

ts::CompileResult smallGemm() {
    ts::CompileOptions o;
    o.target = "cuda:sm_80";
    o.params = {{"M", "128"}, {"N", "128"}, {"K", "64"}};
    o.recordSnapshots = false;
    return ts::compile("samples/gemm.py", ts::e2e::readRepoFile("samples/gemm.py"), o);
}

TEST(ExportNameAndPath, TheNameIsOneWord) {
    ts::CompileResult r = smallGemm();
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const fs::path dir = fs::temp_directory_path() / ("ts_export_name_" + std::to_string(::getpid()));
    for (const char* bad : {"g m", "../evil", "-rf", "a/b"}) {
        std::string error;
        EXPECT_TRUE(ts::cli::exportProject(r, {dir.string(), bad, "samples/gemm.py", "sm_80"}, &error).empty()) << bad;
        EXPECT_NE(error.find("is not one word"), std::string::npos) << bad << ": " << error;
    }
    std::string error;
    EXPECT_FALSE(ts::cli::exportProject(r, {dir.string(), "gemm_2-x", "samples/gemm.py", "sm_80"}, &error).empty()) << error;
    fs::remove_all(dir);
}

TEST(ExportNameAndPath, AFolderWithASpaceBuildsWithMake) {
    std::string out;
    if (ts::e2e::shell("command -v nvcc || ls /usr/local/cuda/bin/nvcc", &out) != 0) GTEST_SKIP() << "nvcc not installed";
    const std::string nvcc = out.substr(0, out.find('\n'));
    ts::CompileResult r = smallGemm();
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const fs::path dir = fs::temp_directory_path() / ("ts export space " + std::to_string(::getpid()));
    fs::remove_all(dir);
    std::string error;
    ASSERT_FALSE(ts::cli::exportProject(r, {dir.string(), "gemm", "samples/gemm.py", "sm_80"}, &error).empty()) << error;
    std::string log;
    EXPECT_EQ(ts::e2e::shell("make -C '" + dir.string() + "' NVCC='" + nvcc + "'", &log), 0) << log;
    EXPECT_TRUE(fs::exists(dir / "gemm")) << log;
    // kernel.cu on its own (a user's own build) without warnings: the floor helpers a kernel does
    // not use were nvcc's #177 "declared but never referenced" (helper-116).
    std::string alone;
    EXPECT_EQ(ts::e2e::shell("cd '" + dir.string() + "' && '" + nvcc + "' -std=c++17 -arch=sm_80 -c kernel.cu -o kernel.o 2>&1", &alone), 0) << alone;
    EXPECT_EQ(alone.find("warning"), std::string::npos) << alone;
    fs::remove_all(dir);
}

}  // namespace
