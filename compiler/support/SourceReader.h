// Reading a tile program from disk for tilec and the IDE, bounded: a source path can name
// anything the user typed or picked, and reading /dev/zero, a FIFO or a multi-gigabyte log
// unguarded hangs the process or exhausts memory (the IDE was OOM-killed at 24 GB opening
// /dev/zero). One reader, used by both front ends, refuses non-regular files and files over a
// size limit before reading a byte, and never reads more than the limit even if the file grows
// while being read. Plain C++ (std::filesystem), no Qt.
#pragma once
#include <cstdint>
#include <string>

namespace ts {

/// Default size limit of readSourceFile(): 256 MiB. Far above any real tile program (a
/// generated 162 MB file is known to compile in 1.4 s) and far below what would exhaust memory.
inline constexpr uint64_t kMaxSourceBytes = 256ull << 20;

/// Outcome of readSourceFile(): the text, or `error` (non-empty) saying why there is none.
struct SourceReadResult {
    std::string text;
    /// Empty on success; else one sentence without the path, e.g. "no such file",
    /// "is a directory", "is not a regular file (device, FIFO or socket)", "is too large
    /// (300.0 MiB; the limit is 256.0 MiB)", "cannot open (Permission denied)".
    std::string error;
    bool ok() const { return error.empty(); }
};

/// Reads the whole file at `path` (symlinks followed) if it is a regular file of at most
/// `maxBytes` bytes. Never blocks on a FIFO or device (they are refused from their type, not
/// opened) and never holds more than `maxBytes` + 1 bytes. Bytes are returned as they are (the
/// compiler diagnoses non-UTF-8 text).
SourceReadResult readSourceFile(const std::string& path, uint64_t maxBytes = kMaxSourceBytes);

}  // namespace ts
