#include "profiler/worker/WorkerPool.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace ts::rt::worker {

WorkerPool::WorkerPool(std::vector<std::string> command, std::vector<int> ordinals,
                       uint32_t maxFrameBytes)
    : m_ordinals(std::move(ordinals)) {
    if (m_ordinals.empty()) throw std::invalid_argument("WorkerPool needs at least one device");
    for (int o : m_ordinals)
        m_clients.push_back(std::make_unique<WorkerClient>(
            command, maxFrameBytes, std::vector<std::string>{"TILESCOPE_DEVICE=" + std::to_string(o)}));
}

void WorkerPool::forEach(size_t n, const std::function<void(size_t, size_t)>& job) {
    if (m_clients.size() == 1) {  // one device: exactly the old sequential loop
        for (size_t i = 0; i < n; ++i) job(i, 0);
        return;
    }
    std::atomic<size_t> next{0};
    std::vector<std::thread> threads;
    for (size_t slot = 0; slot < m_clients.size(); ++slot)
        threads.emplace_back([&, slot] {
            for (size_t i; (i = next++) < n;) job(i, slot);
        });
    for (auto& t : threads) t.join();
}

std::optional<std::vector<int>> parseDeviceList(const std::string& text, int deviceCount,
                                                std::string& why) {
    std::vector<int> out;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t comma = text.find(',', pos);
        if (comma == std::string::npos) comma = text.size();
        const std::string item = text.substr(pos, comma - pos);
        char* end = nullptr;
        errno = 0;
        const long v = item.empty() ? -1 : std::strtol(item.c_str(), &end, 10);
        if (item.empty() || errno != 0 || *end != '\0' || v < 0 || v > 1024) {
            why = "--devices expects device ordinals separated by commas (e.g. 0,1), got '" +
                  text + "'";
            return std::nullopt;
        }
        if (deviceCount > 0 && v >= deviceCount) {
            why = "--devices: '" + item + "' is not a device here: the driver sees " +
                  std::to_string(deviceCount) + " device" + (deviceCount == 1 ? "" : "s") +
                  " (0-" + std::to_string(deviceCount - 1) +
                  "; CUDA_VISIBLE_DEVICES renumbers them from 0)";
            return std::nullopt;
        }
        if (std::find(out.begin(), out.end(), static_cast<int>(v)) != out.end()) {
            why = "--devices names device " + item + " twice";
            return std::nullopt;
        }
        out.push_back(static_cast<int>(v));
        pos = comma + 1;
    }
    return out;
}

}  // namespace ts::rt::worker
