#include "app/cli/InterpProgress.h"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ts::cli {

namespace {
std::string seconds(double s) {
    char buf[32];
    if (s < 60)
        std::snprintf(buf, sizeof buf, "%.1f s", s);
    else if (s < 3600)
        std::snprintf(buf, sizeof buf, "%d min %02d s", int(s) / 60, int(s) % 60);
    else
        std::snprintf(buf, sizeof buf, "%d h %02d min", int(s) / 3600, int(s) / 60 % 60);
    return buf;
}
}  // namespace

InterpProgress::InterpProgress(std::ostream& out, bool tty, std::chrono::milliseconds after,
                               Clock now)
    : m_out(out), m_tty(tty), m_after(after), m_now(std::move(now)) {
    m_start = m_now();
}

InterpProgress::~InterpProgress() { finish(); }

std::string InterpProgress::describeLoop(uint32_t line, int64_t iteration, int64_t extent) {
    return "line " + std::to_string(line) + ": iteration " + std::to_string(iteration + 1) +
           " of " + std::to_string(extent);
}

std::string InterpProgress::describe(int64_t done, int64_t total, double elapsedS, int launch,
                                     int launches, const std::string& loop) {
    std::string s = "tilec: interpreter: ";
    if (launches > 1) s += "launch " + std::to_string(launch) + " of " + std::to_string(launches) + ", ";
    s += "block " + std::to_string(done) + " of " + std::to_string(total);
    if (total > 0) s += " (" + std::to_string(done * 100 / total) + "%)";
    s += ", " + seconds(elapsedS);
    if (done > 0 && total > done && launches == 1)
        s += ", about " + seconds(elapsedS / double(done) * double(total - done)) + " left";
    if (!loop.empty()) s += ", " + loop;
    s += "; smaller --param sizes run faster, Ctrl-C stops";
    return s;
}

void InterpProgress::update(int64_t done, int64_t total, int launch, int launches) {
    m_done = done;
    m_total = total;
    m_launch = launch;
    m_launches = launches;
    m_loop.clear();
    redraw(done == total);
}

void InterpProgress::loop(uint32_t line, int64_t iteration, int64_t extent, int64_t block,
                          int64_t blocks) {
    m_done = block;
    m_total = blocks;
    m_loop = describeLoop(line, iteration, extent);
    redraw(false);
}

void InterpProgress::redraw(bool final) {
    const int64_t done = m_done, total = m_total;
    auto t = m_now();
    if (t - m_start < m_after) return;
    auto every = m_tty ? std::chrono::milliseconds(200) : std::chrono::milliseconds(10000);
    if (m_shown && t - m_lastPrint < every && !final) return;
    if (!m_tty && m_shown && final) return;  // the result line follows anyway
    m_lastPrint = t;
    m_shown = true;
    std::string line = describe(done, total, std::chrono::duration<double>(t - m_start).count(),
                                m_launch, m_launches, m_loop);
    if (m_tty) {
        // Pad over a longer previous line, then return to the line's start.
        std::string pad(m_lastWidth > line.size() ? m_lastWidth - line.size() : 0, ' ');
        m_out << '\r' << line << pad << std::flush;
        m_lastWidth = line.size();
        m_lineOpen = true;
    } else {
        m_out << line << '\n' << std::flush;
    }
}

void InterpProgress::finish() {
    if (!m_lineOpen) return;
    m_out << '\r' << std::string(m_lastWidth, ' ') << '\r' << std::flush;
    m_lineOpen = false;
}

// ---- SIGINT -----------------------------------------------------------------------------------

namespace {
std::atomic<bool> g_interrupted{false};
struct sigaction g_previous;

extern "C" void onSigint(int) {
    g_interrupted.store(true);
    // SA_RESETHAND put the default action back: a second Ctrl-C ends the process.
}
}  // namespace

InterruptGuard::InterruptGuard() {
    g_interrupted.store(false);
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = onSigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, &g_previous);
}

InterruptGuard::~InterruptGuard() { sigaction(SIGINT, &g_previous, nullptr); }

const std::atomic<bool>* InterruptGuard::cancelFlag() const { return &g_interrupted; }

bool InterruptGuard::interrupted() const { return g_interrupted.load(); }

namespace {
bool g_progressForced = false;
}  // namespace

void setProgressForced(bool on) { g_progressForced = on; }

bool progressWanted() {
    if (g_progressForced) return true;
    if (const char* v = std::getenv("TILEC_PROGRESS"); v && *v) return std::strcmp(v, "0") != 0;
    return isatty(STDERR_FILENO) != 0;
}

}  // namespace ts::cli
