// Progress and Ctrl-C of long interpreter runs (app/cli/InterpProgress.h; fresh-user defect D10:
// `tilec run --interp` at a TileLang file's real sizes was silent for minutes and Ctrl-C killed
// it without a word).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <thread>

#include "app/cli/InterpProgress.h"
#include "tests/support/SourceDir.h"

using namespace std::chrono_literals;
using ts::cli::InterpProgress;

namespace {
struct FakeClock {
    std::chrono::steady_clock::time_point t{};
    InterpProgress::Clock fn() {
        return [this] { return t; };
    }
};
}  // namespace

TEST(InterpProgress, DescribeGivesBlocksPercentElapsedAndTheEstimate) {
    // 16 of 64 blocks in 10 s: the other 48 take 30 s at the same rate.
    EXPECT_EQ(InterpProgress::describe(16, 64, 10.0),
              "tilec: interpreter: block 16 of 64 (25%), 10.0 s, about 30.0 s left; smaller "
              "--param sizes run faster, Ctrl-C stops");
    EXPECT_EQ(InterpProgress::describe(1, 4096, 2.5).rfind(
                  "tilec: interpreter: block 1 of 4096 (0%), 2.5 s, about 2 h 50 min left;", 0),
              0u);
    // Several launches: no estimate (the other launches' blocks may cost anything).
    EXPECT_EQ(InterpProgress::describe(3, 8, 75.0, 2, 3).rfind(
                  "tilec: interpreter: launch 2 of 3, block 3 of 8 (37%), 1 min 15 s;", 0),
              0u);
}

TEST(InterpProgress, TerminalLineAppearsAfterTwoSecondsIsRedrawnAndErased) {
    FakeClock clock;
    std::ostringstream out;
    {
        InterpProgress p(out, /*tty=*/true, 2s, clock.fn());
        clock.t += 1500ms;
        p.update(1, 8);
        EXPECT_EQ(out.str(), "");  // a short run shows nothing
        clock.t += 1000ms;         // 2.5 s
        p.update(2, 8);
        EXPECT_EQ(out.str(), "\r" + InterpProgress::describe(2, 8, 2.5));
        clock.t += 100ms;  // redrawn at most 5 times a second
        p.update(3, 8);
        EXPECT_EQ(out.str(), "\r" + InterpProgress::describe(2, 8, 2.5));
        clock.t += 200ms;
        p.update(4, 8);
        EXPECT_TRUE(p.shown());
        out.str("");
    }
    // The destructor erased the line, so the result line starts clean.
    size_t width = InterpProgress::describe(4, 8, 2.8).size();
    EXPECT_EQ(out.str(), "\r" + std::string(width, ' ') + "\r");
}

TEST(InterpProgress, LogLinesEveryTenSecondsWhenNotATerminal) {
    FakeClock clock;
    std::ostringstream out;
    InterpProgress p(out, /*tty=*/false, 2s, clock.fn());
    clock.t += 3s;
    p.update(1, 100);
    clock.t += 5s;
    p.update(2, 100);  // within 10 s of the last line: nothing
    clock.t += 6s;
    p.update(5, 100);
    clock.t += 20s;
    p.update(100, 100);  // the end: the result line follows, no final progress line
    p.finish();
    EXPECT_EQ(out.str(), InterpProgress::describe(1, 100, 3.0) + "\n" +
                             InterpProgress::describe(5, 100, 14.0) + "\n");
}

// Inside one long block (an enormous T.serial, new-user trial): the loop's line and iteration,
// from the first second on; the next block's update drops the loop again.
TEST(InterpProgress, LoopInsideALongBlockIsShownAfterOneSecond) {
    EXPECT_EQ(InterpProgress::describeLoop(12, 41, 1000), "line 12: iteration 42 of 1000");
    EXPECT_EQ(InterpProgress::describe(0, 1, 4.0, 1, 1, "line 12: iteration 42 of 1000"),
              "tilec: interpreter: block 0 of 1 (0%), 4.0 s, line 12: iteration 42 of 1000; "
              "smaller --param sizes run faster, Ctrl-C stops");
    FakeClock clock;
    std::ostringstream out;
    InterpProgress p(out, /*tty=*/false, 1s, clock.fn());  // 1 s: tilec's default
    clock.t += 500ms;
    p.loop(12, 1023, 1 << 30, 0, 1);
    EXPECT_EQ(out.str(), "");
    clock.t += 700ms;  // 1.2 s
    p.loop(12, 2047, 1 << 30, 0, 1);
    EXPECT_EQ(out.str(), InterpProgress::describe(0, 1, 1.2, 1, 1,
                                                  "line 12: iteration 2048 of 1073741824") +
                             "\n");
}

// The real thing: tilec run on the thread-level interpreter at a size that takes minutes shows
// progress on stderr, and SIGINT (Ctrl-C) stops it with a message and exit status 130.
TEST(InterpProgress, TilecRunShowsProgressAndStopsOnCtrlC) {
    // A fresh file: a previous run's progress line must not be mistaken for this one's.
    std::string errPath =
        testing::TempDir() + "/interp_progress_err_" + std::to_string(getpid()) + ".txt";
    std::remove(errPath.c_str());
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        int fd = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, STDERR_FILENO);
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, STDOUT_FILENO);
        setenv("TILEC_PROGRESS", "1", 1);
        std::string sample = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
        execl(TS_TILEC_PATH, TS_TILEC_PATH, "run", sample.c_str(), "--interp=lowered", "--param",
              "M=2048", "--param", "N=2048", "--param", "K=2048", (char*)nullptr);
        _exit(127);
    }
    // Wait for the first progress line (2 s after the run starts; compiling comes first).
    std::string err;
    auto readErr = [&] {
        std::ifstream in(errPath);
        std::stringstream ss;
        ss << in.rdbuf();
        err = ss.str();
    };
    auto deadline = std::chrono::steady_clock::now() + 90s;
    while (std::chrono::steady_clock::now() < deadline) {
        readErr();
        if (err.find("tilec: interpreter: block ") != std::string::npos) break;
        std::this_thread::sleep_for(100ms);
    }
    kill(pid, SIGINT);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    readErr();
    EXPECT_NE(err.find("tilec: interpreter: block "), std::string::npos) << err;
    EXPECT_NE(err.find(" of 256 ("), std::string::npos) << err;  // 16 x 16 blocks of 128x128
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status) << "\n" << err;
    EXPECT_EQ(WEXITSTATUS(status), 130) << err;
    EXPECT_NE(err.find("tilec: stopped (Ctrl-C) after "), std::string::npos) << err;
    EXPECT_EQ(err.find("internal"), std::string::npos) << err;
    std::remove(errPath.c_str());
}
