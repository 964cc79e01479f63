// The byte protocol between a caller (tilec, the IDE) and the GPU worker child process
// (DESIGN.md §3): length-prefixed frames on a pair of pipes. A frame is
//     "TSW1" (4 bytes) | payload length (uint32, little-endian) | payload
// and a payload is one message: a JSON header and an optional binary blob (tensor bytes), as
//     JSON length (uint32, little-endian) | JSON text (UTF-8) | blob
// Tensors travel in their device encoding (HostTensor.h encode()), referenced from the JSON by
// offset and size in the blob, so a 4096x4096 fp16 matrix is 32 MiB, not 128 MiB of doubles.
//
// Everything here is pure byte handling (no GPU, no processes) so it is unit-tested on its own:
// frames split across reads, several frames in one read, a bad magic, a length over the limit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ts::rt::worker {

/// The magic that starts every frame; a reader that sees anything else stops (the stream is not
/// ours, or it is out of step after a bug).
inline constexpr char kFrameMagic[4] = {'T', 'S', 'W', '1'};
/// Bytes before the payload.
inline constexpr size_t kFrameHeaderBytes = 8;
/// Largest payload a reader accepts by default: 2 GiB - 1 would fit the length field, but a frame
/// that large is a bug or a stream out of step, not a kernel's tensors (tune and run send a few
/// hundred MiB at most). Readers allocate only after this check.
inline constexpr uint32_t kDefaultMaxFrameBytes = 1u << 30;

/// One message: a JSON header ("op", fields) and the bytes its tensors point into.
struct Message {
    nlohmann::json header = nlohmann::json::object();
    std::string blob;
};

/// The frame bytes (header + payload) of `payload`. Throws std::length_error above 4 GiB - 1.
std::string frame(std::string_view payload);
/// The payload bytes of `m` (JSON length, JSON, blob).
std::string encodeMessage(const Message& m);
/// Inverse of encodeMessage; nullopt with `why` for a short payload or invalid JSON.
std::optional<Message> decodeMessage(std::string_view payload, std::string& why);

/// Incremental frame splitter: feed() the bytes as they arrive from a pipe (any split), then
/// take complete payloads with next(). After an error (bad magic, oversize length) it stays
/// failed: the stream cannot be resynchronised.
class FrameReader {
public:
    explicit FrameReader(uint32_t maxFrameBytes = kDefaultMaxFrameBytes) : m_max(maxFrameBytes) {}
    void feed(const char* data, size_t n);
    enum class Status { Frame, NeedMore, Error };
    /// Frame: `payload` holds the next complete payload. NeedMore: wait for more bytes.
    /// Error: error() says why (also for every later call).
    Status next(std::string& payload);
    const std::string& error() const { return m_error; }
    /// Bytes received but not yet returned as a payload.
    size_t buffered() const { return m_buf.size() - m_pos; }

private:
    uint32_t m_max;
    std::string m_buf;
    size_t m_pos = 0;
    std::string m_error;
};

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR. False (errno set) when the
/// other side has gone (EPIPE; callers ignore SIGPIPE) or on another error.
bool writeAll(int fd, std::string_view bytes);

/// Reads from `fd` into `reader` until it yields a payload, the deadline passes, or the stream
/// ends. `timeoutMs` < 0 waits forever.
enum class ReadStatus { Frame, Timeout, Closed, Error };
ReadStatus readFrame(int fd, FrameReader& reader, std::string& payload, int timeoutMs,
                     std::string& why);

}  // namespace ts::rt::worker
