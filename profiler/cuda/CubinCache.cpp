#include "profiler/cuda/CubinCache.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <unistd.h>

namespace ts::rt {
namespace fs = std::filesystem;

namespace {
constexpr char kMagic[8] = {'T', 'S', 'C', 'U', 'B', 'I', 'N', '1'};
constexpr size_t kHeaderBytes = 32;  // magic, key, payload size, payload hash (8 bytes each)

void putU64(char* p, uint64_t v) {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
uint64_t getU64(const char* p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
    return v;
}
std::string hex16(uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
    return buf;
}
}  // namespace

uint64_t fnv1a64(std::string_view bytes, uint64_t h) {
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

CacheKey& CacheKey::add(std::string_view field) {
    char len[8];
    putU64(len, field.size());
    m_h = fnv1a64(std::string_view(len, 8), m_h);
    m_h = fnv1a64(field, m_h);
    return *this;
}

fs::path CubinCache::defaultDir() {
    if (const char* d = std::getenv("TILESCOPE_CACHE_DIR"); d && *d) return fs::path(d) / "cubin";
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
        return fs::path(x) / "tilescope" / "cubin";
    if (const char* h = std::getenv("HOME"); h && *h)
        return fs::path(h) / ".cache" / "tilescope" / "cubin";
    return {};
}

fs::path CubinCache::pathFor(uint64_t key) const { return m_dir / (hex16(key) + ".cubin"); }

std::optional<std::vector<char>> CubinCache::load(uint64_t key) const noexcept {
    try {
        if (m_dir.empty()) return std::nullopt;
        std::ifstream in(pathFor(key), std::ios::binary);
        if (!in) return std::nullopt;
        char header[kHeaderBytes];
        if (!in.read(header, kHeaderBytes)) return std::nullopt;
        if (std::memcmp(header, kMagic, 8) != 0 || getU64(header + 8) != key) return std::nullopt;
        const uint64_t size = getU64(header + 16);
        if (size == 0 || size > (uint64_t{1} << 30)) return std::nullopt;
        std::vector<char> data(size);
        if (!in.read(data.data(), static_cast<std::streamsize>(size))) return std::nullopt;
        if (in.peek() != std::char_traits<char>::eof()) return std::nullopt;  // trailing garbage
        if (fnv1a64(std::string_view(data.data(), data.size())) != getU64(header + 24))
            return std::nullopt;
        return data;
    } catch (...) {
        return std::nullopt;
    }
}

bool CubinCache::store(uint64_t key, const std::vector<char>& cubin) const noexcept {
    if (m_dir.empty() || cubin.empty()) return false;
    static std::atomic<unsigned> counter{0};
    fs::path tmp;
    try {
        std::error_code ec;
        fs::create_directories(m_dir, ec);
        tmp = m_dir / (hex16(key) + ".tmp." + std::to_string(::getpid()) + "." +
                       std::to_string(counter.fetch_add(1)));
        char header[kHeaderBytes];
        std::memcpy(header, kMagic, 8);
        putU64(header + 8, key);
        putU64(header + 16, cubin.size());
        putU64(header + 24, fnv1a64(std::string_view(cubin.data(), cubin.size())));
        {
            std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
            if (!out) return false;
            out.write(header, kHeaderBytes);
            out.write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
            out.close();
            if (!out) {
                fs::remove(tmp, ec);
                return false;
            }
        }
        fs::rename(tmp, pathFor(key), ec);
        if (ec) {
            fs::remove(tmp, ec);
            return false;
        }
        return true;
    } catch (...) {
        std::error_code ec;
        if (!tmp.empty()) fs::remove(tmp, ec);
        return false;
    }
}

}  // namespace ts::rt
