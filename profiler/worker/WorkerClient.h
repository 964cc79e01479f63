// The caller's side of the GPU worker (WorkerServer.h): starts `tilec worker` as a child process
// with two pipes, sends one request at a time and waits for its reply with a timeout. When the
// child dies (a signal: SIGSEGV, SIGABRT, SIGKILL; or an exit status), closes its pipe, replies
// with garbage, or does not answer in time (it is killed then), call() returns a WorkerFailure
// that says which, and the next call() starts a fresh worker: one bad kernel never takes the
// caller, or the next run, with it (DESIGN.md §3).
//
// The worker's stderr goes to a memory file the client reads after every call: what the worker
// printed is passed on to the caller's stderr, and when the worker dies its last line (e.g.
// "tilec worker: frame of ... bytes exceeds the limit ...", an abort message) ends the failure
// message, so an exit status never comes without the worker's own reason.
#pragma once
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "profiler/worker/Protocol.h"

namespace ts::rt::worker {

/// What went wrong with the worker during one call.
struct WorkerFailure {
    enum class Kind { None, Spawn, Crashed, Exited, Timeout, Protocol };
    Kind kind = Kind::None;
    int signal = 0;      ///< Crashed: the signal that ended the worker
    int exitStatus = 0;  ///< Exited: its exit status
    std::string message;  ///< one sentence for the user, e.g. "the GPU worker (pid 123) was
                          ///< killed by SIGSEGV (Segmentation fault)", with the worker's last
                          ///< stderr line when it printed one (": it said 'tilec worker: ...'")
    std::string workerSaid;  ///< that last stderr line alone ("" when it printed nothing)
};

/// "spawn", "crashed", "exited", "timeout", "protocol" (results store, JSON output).
const char* kindName(WorkerFailure::Kind k);
/// "SIGSEGV" for 11, ...; "signal N" for an unnamed one.
std::string signalName(int sig);

class WorkerClient {
public:
    /// `command`: argv of the worker (e.g. {"/path/tilec", "worker"}); nothing starts until the
    /// first call(). `maxFrameBytes`: the largest frame this side writes or accepts (tests lower
    /// it to check messages split over several frames without allocating GiBs).
    /// `env`: "NAME=VALUE" entries set in the worker's environment on top of this process's
    /// (a pool gives each device's worker its TILESCOPE_DEVICE this way, WorkerPool.h).
    explicit WorkerClient(std::vector<std::string> command,
                          uint32_t maxFrameBytes = kDefaultMaxFrameBytes,
                          std::vector<std::string> env = {});
    /// Asks a live worker to quit (1 s), then kills it.
    ~WorkerClient();
    WorkerClient(const WorkerClient&) = delete;
    WorkerClient& operator=(const WorkerClient&) = delete;

    /// Sends `request` and waits up to `timeoutMs` (< 0: forever) for the reply. On failure
    /// returns nullopt with `failure` filled; the dead or killed worker is reaped and the next
    /// call starts a new one. A reply with "fatal": true (a sticky CUDA fault) is returned, and
    /// the worker, which exits after sending it, is reaped before the next call.
    std::optional<Message> call(const Message& request, int timeoutMs, WorkerFailure& failure);

    /// Pid of the running worker, or -1.
    pid_t pid() const { return m_pid; }
    /// How many workers this client has started.
    int starts() const { return m_starts; }
    /// Stops the worker now (SIGKILL) and reaps it; the next call starts a fresh one.
    void kill();

private:
    bool start(WorkerFailure& failure);
    /// Reaps the child (waiting up to `graceMs`, then SIGKILL) and fills `failure` from its
    /// status when it did not exit cleanly.
    void reap(int graceMs, WorkerFailure* failure);
    void closePipes();
    /// Passes what the worker wrote to stderr since the last look on to this process's stderr;
    /// returns its last non-empty line ("" if none).
    std::string drainStderr();
    /// Appends the worker's last stderr line to `failure` (after a failure, before the next start).
    void addWorkerReason(WorkerFailure& failure);

    std::vector<std::string> m_command;
    std::vector<std::string> m_env;  ///< "NAME=VALUE" added to / replacing the inherited ones
    uint32_t m_maxFrameBytes;
    pid_t m_pid = -1;
    int m_toChild = -1, m_fromChild = -1;
    int m_stderr = -1;        ///< memory file that is the worker's stderr (-1: inherited)
    size_t m_stderrSeen = 0;  ///< bytes of it already passed on
    std::string m_lastStderrLine;
    FrameReader m_reader;
    int m_starts = 0;
};

}  // namespace ts::rt::worker
