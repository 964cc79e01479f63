// Progress of a long CPU-interpreter run on stderr, and Ctrl-C that stops it cleanly (fresh-user
// defect D10: `tilec run --interp` at a file's real sizes ran for minutes without a word).
//
// InterpProgress formats "block 12 of 64 (19%), 9.8 s, about 42 s left" once a run has taken
// longer than `after` (1 s): on a terminal one line redrawn in place (at most 5 times a second,
// erased at the end), otherwise a full line at most every 10 s. Inside one long block (an
// enormous T.serial) it adds the loop: "block 1 of 1 (0%), 4.2 s, line 12: iteration 3145728 of
// 1000000000000" (loop() is fed by InterpOptions::onLoop). InterruptGuard turns the first
// SIGINT into a cancel flag the interpreters poll (between blocks and every 64Ki loop
// iterations), so the run ends with a message instead of a killed process; a second Ctrl-C
// kills as usual.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace ts::cli {

class InterpProgress {
public:
    using Clock = std::function<std::chrono::steady_clock::time_point()>;
    /// `tty`: `out` is a terminal (redraw one line with '\r'). `now` is the clock (tests pass a
    /// fake one).
    InterpProgress(std::ostream& out, bool tty, std::chrono::milliseconds after = std::chrono::seconds(1),
                   Clock now = std::chrono::steady_clock::now);
    ~InterpProgress();
    /// After each block: `done` blocks of `total` in the current launch (`launch` of
    /// `launches`, 1-based; shown when there are several).
    void update(int64_t done, int64_t total, int launch = 1, int launches = 1);
    /// Inside block `block` (0-based) of `blocks`: the running loop with the most iterations is
    /// at source line `line`, iteration `iteration` (0-based) of `extent`. Shown until the next
    /// update().
    void loop(uint32_t line, int64_t iteration, int64_t extent, int64_t block, int64_t blocks);
    /// Erases the redrawn line (terminal); nothing otherwise. Called by the destructor too.
    void finish();
    /// The text of one progress report (no newline), e.g. "block 12 of 64 (19%), 9.8 s, about
    /// 42 s left" (the estimate assumes the remaining blocks take as long as the done ones).
    static std::string describe(int64_t done, int64_t total, double elapsedS, int launch = 1,
                                int launches = 1, const std::string& loop = {});
    /// The loop part of a progress line: "line 12: iteration 3145729 of 1000000000000".
    static std::string describeLoop(uint32_t line, int64_t iteration, int64_t extent);
    /// Whether anything was shown (the run took longer than `after`).
    bool shown() const { return m_shown; }
    int64_t done() const { return m_done; }
    int64_t total() const { return m_total; }

private:
    void redraw(bool final);

    std::ostream& m_out;
    bool m_tty;
    std::chrono::milliseconds m_after;
    Clock m_now;
    std::chrono::steady_clock::time_point m_start, m_lastPrint;
    bool m_shown = false, m_lineOpen = false;
    size_t m_lastWidth = 0;
    int64_t m_done = 0, m_total = 0;
    int m_launch = 1, m_launches = 1;
    std::string m_loop;  ///< describeLoop() of the current block's long loop, or ""
};

/// While alive, the first SIGINT sets cancelFlag() instead of killing the process (the
/// previous handler is restored on destruction). One guard at a time.
class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;
    const std::atomic<bool>* cancelFlag() const;
    bool interrupted() const;
};

/// Whether tilec shows interpreter progress: stderr is a terminal, `tilec run --progress`
/// (setProgressForced), or TILEC_PROGRESS=1 (tests, logs); TILEC_PROGRESS=0 turns it off.
bool progressWanted();
void setProgressForced(bool on);

}  // namespace ts::cli
