#include "profiler/worker/Protocol.h"

#include <poll.h>
#include <unistd.h>

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
    if (!m_error.empty()) return Status::Error;
    const size_t avail = m_buf.size() - m_pos;
    // Check the magic as soon as its bytes arrive: a foreign stream fails at once, not after
    // waiting for a length's worth of bytes.
    const size_t magicSeen = std::min<size_t>(avail, 4);
    if (std::memcmp(m_buf.data() + m_pos, kFrameMagic, magicSeen) != 0) {
        m_error = "bad frame magic (the stream is not the worker protocol or is out of step)";
        return Status::Error;
    }
    if (avail < kFrameHeaderBytes) return Status::NeedMore;
    const uint32_t len = getU32(m_buf.data() + m_pos + 4);
    if (len > m_max) {
        m_error = "frame of " + std::to_string(len) + " bytes exceeds the limit of " +
                  std::to_string(m_max) + " bytes";
        return Status::Error;
    }
    if (avail < kFrameHeaderBytes + len) return Status::NeedMore;
    payload.assign(m_buf, m_pos + kFrameHeaderBytes, len);
    m_pos += kFrameHeaderBytes + len;
    return Status::Frame;
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
