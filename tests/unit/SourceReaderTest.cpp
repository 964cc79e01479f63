// The bounded source reader (compiler/support/SourceReader.h) used by tilec and the IDE: regular
// files are read whole, devices/FIFOs/directories are refused by type without blocking, and a
// file over the limit is refused instead of read.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "compiler/support/SourceReader.h"

using namespace ts;
using namespace std::string_literals;
namespace fs = std::filesystem;

namespace {
fs::path scratch(const std::string& name) {
    fs::path dir = fs::path(testing::TempDir()) / "ts_source_reader";
    fs::create_directories(dir);
    fs::path p = dir / name;
    fs::remove(p);
    return p;
}
}  // namespace

TEST(SourceReader, ReadsRegularFileExactly) {
    auto p = scratch("a.py");
    const std::string text = "x = 1\n\0tail"s;  // embedded NUL: bytes come back unchanged
    std::ofstream(p, std::ios::binary) << text;
    auto r = readSourceFile(p.string());
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.text, text);
}

TEST(SourceReader, RefusesDeviceWithoutReading) {
    // /dev/zero never ends: an unbounded read used 16.8 GB (tilec) and 24 GB (IDE) before this.
    auto r = readSourceFile("/dev/zero");
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.error, "is not a regular file (device, FIFO or socket)");
    EXPECT_TRUE(r.text.empty());
}

TEST(SourceReader, RefusesFifoWithoutBlocking) {
    auto p = scratch("pipe");
    ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
    // Opening a FIFO with no writer blocks forever; the reader must decide from the type alone.
    auto r = readSourceFile(p.string());
    EXPECT_EQ(r.error, "is not a regular file (device, FIFO or socket)");
    fs::remove(p);
}

TEST(SourceReader, DirectoryAndMissing) {
    EXPECT_EQ(readSourceFile(fs::path(testing::TempDir()).string()).error, "is a directory");
    EXPECT_EQ(readSourceFile(scratch("missing.py").string()).error, "no such file");
}

TEST(SourceReader, SizeLimitIsInclusive) {
    auto p = scratch("big.py");
    std::ofstream(p, std::ios::binary) << std::string(100, 'x');
    EXPECT_TRUE(readSourceFile(p.string(), 100).ok());  // exactly at the limit: read
    auto r = readSourceFile(p.string(), 99);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(r.text.empty());
    EXPECT_NE(r.error.find("is too large"), std::string::npos) << r.error;
    EXPECT_EQ(kMaxSourceBytes, 268435456u);  // 256 MiB
}
