// The byte protocol between a caller (tilec, the IDE) and the GPU worker child process
// (DESIGN.md §3): length-prefixed frames on a pair of pipes. A frame is
//     magic (4 bytes) | payload length (uint32, little-endian) | payload piece
// and a message is one or more frames: zero or more "TSW+" frames (a piece, more follows) and a
// final "TSW1" frame; the message's payload is their pieces in order. A payload is
//     JSON length (uint32, little-endian) | JSON text (UTF-8) | blob
// Why pieces: one frame is bounded (kDefaultMaxFrameBytes, a check against a stream out of step),
// but a kernel's inputs are not (MLA decode at batch 132 sends a 1.1 GiB KV cache). Splitting on
// the same pipe was chosen over passing the blob in a memfd / shared-memory file: it needs no
// descriptor passing (pipes cannot carry one; a /proc/PID/fd path depends on ptrace policy and
// containers), works the same in both directions (outputs can be as large), keeps the reader's
// buffer at one piece (writers cut at kWriteChunkBytes), and a pipe moves a GiB in well under a
// second, next to the seconds the caller spends drawing and checking such tensors.
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
/// The magic of a frame that carries a piece of a message whose remainder follows.
inline constexpr char kContinuationMagic[4] = {'T', 'S', 'W', '+'};
/// Bytes before the payload.
inline constexpr size_t kFrameHeaderBytes = 8;
/// Largest payload a reader accepts by default: 2 GiB - 1 would fit the length field, but a frame
/// that large is a bug or a stream out of step, not a kernel's tensors (tune and run send a few
/// hundred MiB at most). Readers allocate only after this check.
inline constexpr uint32_t kDefaultMaxFrameBytes = 1u << 30;
/// Piece size writeMessage() cuts a large payload into (at most the reader's frame limit): small
/// enough that neither side holds a second copy of a GiB tensor in its frame buffer.
inline constexpr uint32_t kWriteChunkBytes = 64u << 20;

/// One message: a JSON header ("op", fields) and the bytes its tensors point into.
struct Message {
    nlohmann::json header = nlohmann::json::object();
    std::string blob;
};

/// The frame bytes (header + payload) of `payload` as one final frame. Throws std::length_error
/// above 4 GiB - 1.
std::string frame(std::string_view payload);
/// The frames of `payload` cut into pieces of at most `chunkBytes` (> 0): "TSW+" frames and a
/// final "TSW1" one (a single frame when it fits; an empty payload is one empty frame).
std::string frames(std::string_view payload, uint32_t chunkBytes);
/// The payload bytes of `m` (JSON length, JSON, blob).
std::string encodeMessage(const Message& m);
/// Inverse of encodeMessage; nullopt with `why` for a short payload or invalid JSON.
std::optional<Message> decodeMessage(std::string_view payload, std::string& why);

/// Incremental frame splitter: feed() the bytes as they arrive from a pipe (any split), then
/// take complete message payloads with next() (continuation frames are joined). After an error
/// (bad magic, a frame over `maxFrameBytes`) it stays failed: the stream cannot be
/// resynchronised.
class FrameReader {
public:
    explicit FrameReader(uint32_t maxFrameBytes = kDefaultMaxFrameBytes) : m_max(maxFrameBytes) {}
    void feed(const char* data, size_t n);
    enum class Status { Frame, NeedMore, Error };
    /// Frame: `payload` holds the next complete payload. NeedMore: wait for more bytes.
    /// Error: error() says why (also for every later call).
    Status next(std::string& payload);
    const std::string& error() const { return m_error; }
    /// Bytes received but not yet returned as a payload (pieces of a message included).
    size_t buffered() const { return m_partial.size() + m_buf.size() - m_pos; }

private:
    uint32_t m_max;
    std::string m_buf;
    size_t m_pos = 0;
    std::string m_partial;  ///< pieces of the current message from its "TSW+" frames
    std::string m_error;
};

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR. False (errno set) when the
/// other side has gone (EPIPE; callers ignore SIGPIPE) or on another error.
bool writeAll(int fd, std::string_view bytes);

/// Writes `m` to `fd` as frames of at most min(`maxFrameBytes`, kWriteChunkBytes) payload bytes
/// each, without building the whole payload in memory (the blob is written from where it lies).
/// False as writeAll.
bool writeMessage(int fd, const Message& m, uint32_t maxFrameBytes = kDefaultMaxFrameBytes);

/// Reads from `fd` into `reader` until it yields a payload, the deadline passes, or the stream
/// ends. `timeoutMs` < 0 waits forever.
enum class ReadStatus { Frame, Timeout, Closed, Error };
ReadStatus readFrame(int fd, FrameReader& reader, std::string& payload, int timeoutMs,
                     std::string& why);

}  // namespace ts::rt::worker
