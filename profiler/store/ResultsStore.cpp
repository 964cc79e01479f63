#include "profiler/store/ResultsStore.h"

#include "ts_git_rev.h"  // TS_GIT_REV, generated at build time (cmake/GitRevision.cmake)

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "profiler/cuda/CubinCache.h"

#ifndef TS_VERSION
#define TS_VERSION "0.1"
#endif
#ifndef TS_GIT_REV
#define TS_GIT_REV "unknown"
#endif

namespace fs = std::filesystem;

namespace ts::rt {

std::string defaultResultsPath() {
    if (const char* p = std::getenv("TILESCOPE_RESULTS"); p && *p) return p;
    fs::path base;
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x)
        base = x;
    else if (const char* h = std::getenv("HOME"); h && *h)
        base = fs::path(h) / ".local" / "share";
    else
        base = fs::temp_directory_path();
    return (base / "tilescope" / "results.jsonl").string();
}

std::string compilerVersion() { return std::string("TileScope ") + TS_VERSION + " (" + TS_GIT_REV + ")"; }

std::string versionText() {
    const std::string rev = TS_GIT_REV;
    return std::string(TS_VERSION) + (rev == "unknown" ? "" : " (" + rev + ")");
}

std::string sourceHashOf(const std::string& text) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx",
                  static_cast<unsigned long long>(fnv1a64(text)));
    return buf;
}

std::string utcNow() {
    std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return date;
}

std::string newRecordId() {
    static std::atomic<int> counter{0};
    std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", std::gmtime(&now));
    return std::string(stamp) + "-" + std::to_string(::getpid()) + "-" +
           std::to_string(counter++);
}

ResultsStore::ResultsStore(std::string path) : m_path(std::move(path)) {}

bool ResultsStore::append(nlohmann::json record, std::string* why) const {
    if (!record.contains("id")) record["id"] = newRecordId();
    if (!record.contains("date")) record["date"] = utcNow();
    std::error_code ec;
    fs::create_directories(fs::path(m_path).parent_path(), ec);
    const std::string line =
        record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    const int fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (why) *why = "cannot open the results store " + m_path + ": " + std::strerror(errno);
        return false;
    }
    // One write per record under an exclusive lock: lines of concurrent writers never interleave.
    ::flock(fd, LOCK_EX);
    size_t done = 0;
    bool ok = true;
    while (done < line.size()) {
        const ssize_t w = ::write(fd, line.data() + done, line.size() - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            ok = false;
            if (why) *why = "cannot write the results store " + m_path + ": " + std::strerror(errno);
            break;
        }
        done += static_cast<size_t>(w);
    }
    ::flock(fd, LOCK_UN);
    ::close(fd);
    return ok;
}

std::vector<nlohmann::json> ResultsStore::load(size_t* skipped, std::string* why) const {
    std::vector<nlohmann::json> out;
    size_t bad = 0;
    std::ifstream in(m_path);
    if (!in) {
        if (why && fs::exists(m_path)) *why = "cannot read " + m_path;
        if (skipped) *skipped = 0;
        return out;
    }
    std::string line;
    while (std::getline(in, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        try {
            auto j = nlohmann::json::parse(line);
            if (j.is_object())
                out.push_back(std::move(j));
            else
                ++bad;
        } catch (const std::exception&) {
            ++bad;
        }
    }
    if (skipped) *skipped = bad;
    return out;
}

std::string ResultsStore::saveSource(const std::string& text) const {
    const std::string hash = sourceHashOf(text);
    const fs::path dir = fs::path(m_path).parent_path() / "sources";
    const fs::path file = dir / (hash + ".py");
    std::error_code ec;
    if (!fs::exists(file, ec)) {
        fs::create_directories(dir, ec);
        const fs::path tmp = dir / (hash + ".tmp" + std::to_string(::getpid()));
        std::ofstream(tmp, std::ios::binary) << text;
        fs::rename(tmp, file, ec);  // atomic: readers never see half a file
    }
    return hash;
}

std::optional<std::string> ResultsStore::loadSource(const std::string& hash) const {
    std::ifstream in(fs::path(m_path).parent_path() / "sources" / (hash + ".py"),
                     std::ios::binary);
    if (!in) return std::nullopt;
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string text(const nlohmann::json& j, const char* key) {
    if (!j.contains(key) || j[key].is_null()) return "";
    const auto& v = j[key];
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

}  // namespace

std::string recordsToCsv(const std::vector<nlohmann::json>& records) {
    static const char* kFixed[] = {"id",     "date",   "kind",     "status", "file",
                                   "kernel", "params", "device",   "driver", "compiler",
                                   "check",  "time_ms", "reason"};
    std::set<std::string> metricKeys;
    for (const auto& r : records)
        if (r.contains("metrics") && r["metrics"].is_object())
            for (auto it = r["metrics"].begin(); it != r["metrics"].end(); ++it)
                metricKeys.insert(it.key());
    std::string out;
    bool first = true;
    for (const char* k : kFixed) out += (first ? "" : ",") + std::string(k), first = false;
    for (const auto& k : metricKeys) out += "," + csvField(k);
    out += "\n";
    for (const auto& r : records) {
        first = true;
        for (const char* k : kFixed) {
            std::string v;
            if (std::string(k) == "params" && r.contains("params") && r["params"].is_object()) {
                for (auto it = r["params"].begin(); it != r["params"].end(); ++it)
                    v += (v.empty() ? "" : " ") + it.key() + "=" +
                         (it->is_string() ? it->get<std::string>() : it->dump());
            } else {
                v = text(r, k);
            }
            out += (first ? "" : ",") + csvField(v);
            first = false;
        }
        for (const auto& k : metricKeys) {
            std::string v;
            if (r.contains("metrics") && r["metrics"].contains(k) && !r["metrics"][k].is_null())
                v = r["metrics"][k].dump();
            out += "," + csvField(v);
        }
        out += "\n";
    }
    return out;
}

}  // namespace ts::rt
