#include "profiler/worker/Protocol.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

namespace ts::rt::worker {
namespace {

void putU32(std::string& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

uint32_t getU32(const char* p) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(p[i])) << (8 * i);
    return v;
}

}  // namespace

std::string frame(std::string_view payload) {
    if (payload.size() > 0xFFFFFFFFull) throw std::length_error("frame payload over 4 GiB");
    std::string out(kFrameMagic, 4);
    putU32(out, static_cast<uint32_t>(payload.size()));
    out.append(payload);
    return out;
}

std::string frames(std::string_view payload, uint32_t chunkBytes) {
    if (chunkBytes == 0) throw std::invalid_argument("frames: chunk size 0");
    std::string out;
    out.reserve(payload.size() + (payload.size() / chunkBytes + 1) * kFrameHeaderBytes);
    size_t at = 0;
    do {
        const size_t n = std::min<size_t>(chunkBytes, payload.size() - at);
        const bool last = at + n == payload.size();
        out.append(last ? kFrameMagic : kContinuationMagic, 4);
        putU32(out, static_cast<uint32_t>(n));
        out.append(payload.substr(at, n));
        at += n;
    } while (at < payload.size());
    return out;
}

std::string encodeMessage(const Message& m) {
    const std::string json = m.header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(4 + json.size() + m.blob.size());
    putU32(out, static_cast<uint32_t>(json.size()));
    out += json;
    out += m.blob;
    return out;
}

std::optional<Message> decodeMessage(std::string_view payload, std::string& why) {
    if (payload.size() < 4) {
        why = "message of " + std::to_string(payload.size()) + " bytes has no JSON length";
        return std::nullopt;
    }
    const uint32_t n = getU32(payload.data());
    if (n > payload.size() - 4) {
        why = "message JSON length " + std::to_string(n) + " exceeds the payload (" +
              std::to_string(payload.size() - 4) + " bytes)";
        return std::nullopt;
    }
    Message m;
    try {
        m.header = nlohmann::json::parse(payload.substr(4, n));
    } catch (const std::exception& e) {
        why = std::string("message JSON does not parse: ") + e.what();
        return std::nullopt;
    }
    m.blob.assign(payload.substr(4 + n));
    return m;
}

void FrameReader::feed(const char* data, size_t n) {
    if (!m_error.empty()) return;
    // Drop consumed bytes before growing, so a long-lived reader does not keep every frame.
    if (m_pos > 0 && m_pos == m_buf.size()) m_buf.clear(), m_pos = 0;
    if (m_pos > (1u << 20) && m_pos * 2 > m_buf.size()) m_buf.erase(0, m_pos), m_pos = 0;
    m_buf.append(data, n);
}

FrameReader::Status FrameReader::next(std::string& payload) {
    for (;;) {
        if (!m_error.empty()) return Status::Error;
        const size_t avail = m_buf.size() - m_pos;
        // Check the magic as soon as its bytes arrive: a foreign stream fails at once, not after
        // waiting for a length's worth of bytes. Both magics share "TSW".
        const size_t magicSeen = std::min<size_t>(avail, 4);
        const char* at = m_buf.data() + m_pos;
        const bool final = std::memcmp(at, kFrameMagic, magicSeen) == 0;
        const bool piece = std::memcmp(at, kContinuationMagic, magicSeen) == 0;
        if (!final && !piece) {
            m_error = "bad frame magic (the stream is not the worker protocol or is out of step)";
            return Status::Error;
        }
        if (avail < kFrameHeaderBytes) return Status::NeedMore;
        const uint32_t len = getU32(at + 4);
        if (len > m_max) {
            m_error = "frame of " + std::to_string(len) + " bytes exceeds the limit of " +
                      std::to_string(m_max) + " bytes";
            return Status::Error;
        }
        if (avail < kFrameHeaderBytes + len) return Status::NeedMore;
        const size_t begin = m_pos + kFrameHeaderBytes;
        m_pos += kFrameHeaderBytes + len;
        if (!final) {  // a piece: keep it and look for the next frame
            m_partial.append(m_buf, begin, len);
            continue;
        }
        if (m_partial.empty()) {
            payload.assign(m_buf, begin, len);
        } else {
            m_partial.append(m_buf, begin, len);
            payload = std::move(m_partial);
            m_partial.clear();
        }
        return Status::Frame;
    }
}

bool writeAll(int fd, std::string_view bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += static_cast<size_t>(w);
    }
    return true;
}

bool writeMessage(int fd, const Message& m, uint32_t maxFrameBytes) {
    const std::string json = m.header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string head;
    putU32(head, static_cast<uint32_t>(json.size()));
    head += json;
    // The payload is head then blob; cut it into pieces of `chunk` bytes without joining them.
    const size_t chunk = std::max<uint32_t>(1, std::min(maxFrameBytes, kWriteChunkBytes));
    const std::string_view parts[2] = {head, m.blob};
    const size_t total = head.size() + m.blob.size();
    size_t done = 0;
    do {
        const size_t n = std::min(chunk, total - done);
        std::string header(done + n == total ? kFrameMagic : kContinuationMagic, 4);
        putU32(header, static_cast<uint32_t>(n));
        if (!writeAll(fd, header)) return false;
        for (size_t want = n, pos = done; want > 0;) {  // the piece [done, done + n) of the parts
            const bool inHead = pos < head.size();
            const std::string_view part = inHead ? parts[0] : parts[1];
            const size_t off = inHead ? pos : pos - head.size();
            const size_t take = std::min(want, part.size() - off);
            if (!writeAll(fd, part.substr(off, take))) return false;
            pos += take, want -= take;
        }
        done += n;
    } while (done < total);
    return true;
}

ReadStatus readFrame(int fd, FrameReader& reader, std::string& payload, int timeoutMs,
                     std::string& why) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs < 0 ? 0 : timeoutMs);
    std::string chunk(1 << 16, '\0');
    for (;;) {
        switch (reader.next(payload)) {
            case FrameReader::Status::Frame:
                return ReadStatus::Frame;
            case FrameReader::Status::Error:
                why = reader.error();
                return ReadStatus::Error;
            case FrameReader::Status::NeedMore:
                break;
        }
        int wait = -1;
        if (timeoutMs >= 0) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
            if (left.count() <= 0) return ReadStatus::Timeout;
            wait = static_cast<int>(left.count());
        }
        pollfd p{fd, POLLIN, 0};
        const int pr = ::poll(&p, 1, wait);
        if (pr < 0) {
            if (errno == EINTR) continue;
            why = std::string("poll: ") + std::strerror(errno);
            return ReadStatus::Error;
        }
        if (pr == 0) return ReadStatus::Timeout;
        const ssize_t n = ::read(fd, chunk.data(), chunk.size());
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            why = std::string("read: ") + std::strerror(errno);
            return ReadStatus::Error;
        }
        if (n == 0) {
            if (reader.buffered() > 0)
                why = "the stream ended inside a frame (" + std::to_string(reader.buffered()) +
                      " bytes of it arrived)";
            return ReadStatus::Closed;
        }
        reader.feed(chunk.data(), static_cast<size_t>(n));
    }
}

}  // namespace ts::rt::worker
