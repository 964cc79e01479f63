// The on-disk cache of NVRTC output. Compiling a tile kernel with NVRTC takes 0.2-2 s, which is
// most of the interactive edit-run loop, and the same source is compiled again and again (re-runs,
// benchmark sweeps, the worker restarting). Entries are keyed by a 64-bit FNV-1a hash of
// everything that determines the cubin (source, embedded headers, arch, options, NVRTC version).
// The cache is an optimisation only: a missing, corrupt, foreign or unwritable cache is silently
// ignored and never turns into an error.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace ts::rt {

/// 64-bit FNV-1a of `bytes`, continuing from `h` (pass a previous result to chain fields).
uint64_t fnv1a64(std::string_view bytes, uint64_t h = 0xcbf29ce484222325ull);

/// Builds a cache key from several fields; each is length-prefixed, so ("ab","c") != ("a","bc").
class CacheKey {
public:
    CacheKey& add(std::string_view field);
    uint64_t value() const { return m_h; }

private:
    uint64_t m_h = 0xcbf29ce484222325ull;
};

/// A directory of cubins, one file "<16 hex digits>.cubin" per key. Each file carries a header
/// (magic, key, payload size, payload hash) that load() verifies, so a truncated or foreign file
/// reads as a miss. Writes go to a unique temporary file renamed into place (atomic on POSIX), so
/// concurrent tilec processes never see half-written entries.
class CubinCache {
public:
    /// Uses `dir` (created on first store). An empty path disables the cache.
    explicit CubinCache(std::filesystem::path dir) : m_dir(std::move(dir)) {}

    /// $TILESCOPE_CACHE_DIR/cubin if that variable is set, else $XDG_CACHE_HOME/tilescope/cubin,
    /// else ~/.cache/tilescope/cubin; empty if none of these can be determined.
    static std::filesystem::path defaultDir();

    /// The cached bytes for `key`, or nullopt on a miss or any read/verification problem.
    std::optional<std::vector<char>> load(uint64_t key) const noexcept;
    /// Stores `cubin` under `key`; returns false (and leaves no partial file) on any failure.
    bool store(uint64_t key, const std::vector<char>& cubin) const noexcept;
    /// Path the entry for `key` would have.
    std::filesystem::path pathFor(uint64_t key) const;

    const std::filesystem::path& dir() const { return m_dir; }

private:
    std::filesystem::path m_dir;
};

}  // namespace ts::rt
