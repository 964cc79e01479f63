// Bounded source-file reading (SourceReader.h).
#include "compiler/support/SourceReader.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace ts {
namespace {

std::string mib(uint64_t bytes) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f MiB", double(bytes) / double(1 << 20));
    return b;
}

std::string tooLarge(uint64_t size, uint64_t maxBytes, bool atLeast) {
    return "is too large (" + std::string(atLeast ? "over " : "") + mib(size) + "; the limit is " +
           mib(maxBytes) + ")";
}

}  // namespace

SourceReadResult readSourceFile(const std::string& path, uint64_t maxBytes) {
    namespace fs = std::filesystem;
    SourceReadResult r;
    std::error_code ec;
    // status() follows symlinks and does not open the file, so a FIFO cannot block us here.
    fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
        r.error = ec && ec != std::errc::no_such_file_or_directory
                      ? "cannot open (" + ec.message() + ")"
                      : "no such file";
        return r;
    }
    if (fs::is_directory(st)) {
        r.error = "is a directory";
        return r;
    }
    if (!fs::is_regular_file(st)) {
        r.error = "is not a regular file (device, FIFO or socket)";
        return r;
    }
    uint64_t size = fs::file_size(path, ec);
    if (!ec && size > maxBytes) {
        r.error = tooLarge(size, maxBytes, false);
        return r;
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) {
        r.error = "cannot open (" + std::string(std::strerror(errno)) + ")";
        return r;
    }
    // Read in chunks up to maxBytes + 1: a file that grew after file_size() is still bounded.
    r.text.reserve(ec ? 0 : size_t(size));
    char buf[1 << 16];
    while (true) {
        size_t n = std::fread(buf, 1, sizeof buf, f.get());
        if (n == 0) break;
        r.text.append(buf, n);
        if (r.text.size() > maxBytes) {
            r.text.clear();
            r.text.shrink_to_fit();
            r.error = tooLarge(maxBytes, maxBytes, true);
            return r;
        }
    }
    if (std::ferror(f.get())) {
        r.text.clear();
        r.error = "cannot read (" + std::string(std::strerror(errno)) + ")";
    }
    return r;
}

}  // namespace ts
