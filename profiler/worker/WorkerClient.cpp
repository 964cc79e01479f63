#include "profiler/worker/WorkerClient.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string_view>
#include <thread>

extern char** environ;

namespace ts::rt::worker {

const char* kindName(WorkerFailure::Kind k) {
    switch (k) {
        case WorkerFailure::Kind::None:
            return "none";
        case WorkerFailure::Kind::Spawn:
            return "spawn";
        case WorkerFailure::Kind::Crashed:
            return "crashed";
        case WorkerFailure::Kind::Exited:
            return "exited";
        case WorkerFailure::Kind::Timeout:
            return "timeout";
        case WorkerFailure::Kind::Protocol:
            return "protocol";
    }
    return "?";
}

std::string signalName(int sig) {
    switch (sig) {
        case SIGSEGV:
            return "SIGSEGV";
        case SIGABRT:
            return "SIGABRT";
        case SIGBUS:
            return "SIGBUS";
        case SIGILL:
            return "SIGILL";
        case SIGFPE:
            return "SIGFPE";
        case SIGKILL:
            return "SIGKILL";
        case SIGTERM:
            return "SIGTERM";
        case SIGTRAP:
            return "SIGTRAP";
        default:
            return "signal " + std::to_string(sig);
    }
}

WorkerClient::WorkerClient(std::vector<std::string> command, uint32_t maxFrameBytes,
                           std::vector<std::string> env)
    : m_command(std::move(command)),
      m_env(std::move(env)),
      m_maxFrameBytes(maxFrameBytes),
      m_reader(maxFrameBytes) {
    // A worker that dies while we write must give EPIPE, not kill the caller.
    std::signal(SIGPIPE, SIG_IGN);
}

WorkerClient::~WorkerClient() {
    if (m_pid > 0) {
        Message quit;
        quit.header = {{"op", "quit"}};
        writeMessage(m_toChild, quit, m_maxFrameBytes);
        closePipes();  // EOF ends the worker's loop as well
        reap(1000, nullptr);
    }
    drainStderr();
    if (m_stderr >= 0) ::close(m_stderr);
}

void WorkerClient::closePipes() {
    if (m_toChild >= 0) ::close(m_toChild);
    if (m_fromChild >= 0) ::close(m_fromChild);
    m_toChild = m_fromChild = -1;
    m_reader = FrameReader(m_maxFrameBytes);
}

std::string WorkerClient::drainStderr() {
    if (m_stderr < 0) return {};
    struct stat st {};
    if (::fstat(m_stderr, &st) != 0 || static_cast<size_t>(st.st_size) <= m_stderrSeen) return {};
    std::string text(static_cast<size_t>(st.st_size) - m_stderrSeen, '\0');
    const ssize_t n = ::pread(m_stderr, text.data(), text.size(), static_cast<off_t>(m_stderrSeen));
    if (n <= 0) return {};
    text.resize(static_cast<size_t>(n));
    m_stderrSeen += text.size();
    writeAll(STDERR_FILENO, text);  // the user still sees what the worker printed
    // Its last non-empty line (trailing newlines and carriage returns dropped).
    size_t end = text.find_last_not_of("\r\n");
    if (end == std::string::npos) return {};
    const size_t begin = text.rfind('\n', end);
    return text.substr(begin == std::string::npos ? 0 : begin + 1, end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

void WorkerClient::addWorkerReason(WorkerFailure& failure) {
    if (std::string line = drainStderr(); !line.empty()) m_lastStderrLine = std::move(line);
    if (m_lastStderrLine.empty() || failure.kind == WorkerFailure::Kind::None) return;
    if (m_lastStderrLine.size() > 400) m_lastStderrLine = m_lastStderrLine.substr(0, 400) + "...";
    failure.workerSaid = m_lastStderrLine;
    failure.message += "; its last stderr line: " + m_lastStderrLine;
}

void WorkerClient::kill() {
    if (m_pid <= 0) return;
    ::kill(m_pid, SIGKILL);
    closePipes();
    reap(0, nullptr);
}

bool WorkerClient::start(WorkerFailure& failure) {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0) {
        failure = {WorkerFailure::Kind::Spawn, 0, 0,
                   std::string("cannot create a pipe for the GPU worker: ") + std::strerror(errno), {}};
        return false;
    }
    if (::pipe2(out, O_CLOEXEC) != 0) {
        ::close(in[0]), ::close(in[1]);
        failure = {WorkerFailure::Kind::Spawn, 0, 0,
                   std::string("cannot create a pipe for the GPU worker: ") + std::strerror(errno), {}};
        return false;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);  // dup2 drops O_CLOEXEC
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    // stderr into a memory file (drainStderr): a pipe would need draining while we wait for a
    // reply, or a chatty worker would block on it. Without memfd the worker inherits ours.
    if (m_stderr >= 0) ::close(m_stderr);
    m_stderr = ::memfd_create("tilec-worker-stderr", MFD_CLOEXEC);
    m_stderrSeen = 0;
    m_lastStderrLine.clear();
    if (m_stderr >= 0) posix_spawn_file_actions_adddup2(&fa, m_stderr, STDERR_FILENO);
    std::vector<char*> argv;
    for (auto& a : m_command) argv.push_back(a.data());
    argv.push_back(nullptr);
    // The inherited environment, less the names m_env sets, then m_env.
    std::vector<char*> envp;
    for (char** e = environ; e && *e; ++e) {
        const std::string_view entry(*e);
        bool replaced = false;
        for (const auto& mine : m_env) {
            const size_t eq = mine.find('=');
            replaced |= eq != std::string::npos && entry.size() > eq &&
                        entry.substr(0, eq + 1) == std::string_view(mine).substr(0, eq + 1);
        }
        if (!replaced) envp.push_back(*e);
    }
    for (auto& mine : m_env) envp.push_back(mine.data());
    envp.push_back(nullptr);
    pid_t pid = -1;
    const int rc = m_command.empty()
                       ? EINVAL
                       : posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    ::close(in[0]), ::close(out[1]);
    if (rc != 0) {
        ::close(in[1]), ::close(out[0]);
        failure = {WorkerFailure::Kind::Spawn, 0, 0,
                   "cannot start the GPU worker '" +
                       (m_command.empty() ? std::string("(none)") : m_command[0]) +
                       "': " + std::strerror(rc), {}};
        return false;
    }
    m_pid = pid;
    m_toChild = in[1];
    m_fromChild = out[0];
    // Larger pipes (best effort; the default is 64 KiB) for GiB-sized tensors.
    ::fcntl(m_toChild, F_SETPIPE_SZ, 1 << 20);
    ::fcntl(m_fromChild, F_SETPIPE_SZ, 1 << 20);
    m_reader = FrameReader(m_maxFrameBytes);
    ++m_starts;
    return true;
}

void WorkerClient::reap(int graceMs, WorkerFailure* failure) {
    if (m_pid <= 0) return;
    int status = 0;
    pid_t got = 0;
    for (int waited = 0;; waited += 10) {
        got = ::waitpid(m_pid, &status, WNOHANG);
        if (got == m_pid || (got < 0 && errno != EINTR)) break;
        if (waited >= graceMs) {
            ::kill(m_pid, SIGKILL);
            got = ::waitpid(m_pid, &status, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const pid_t pid = m_pid;
    m_pid = -1;
    closePipes();
    if (!failure || got != pid) return;
    const std::string who = "the GPU worker (pid " + std::to_string(pid) + ")";
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        failure->kind = WorkerFailure::Kind::Crashed;
        failure->signal = sig;
        failure->message =
            who + " was killed by " + signalName(sig) + " (" + strsignal(sig) + ")";
    } else if (WIFEXITED(status)) {
        failure->kind = WorkerFailure::Kind::Exited;
        failure->exitStatus = WEXITSTATUS(status);
        failure->message = who + " exited with status " + std::to_string(WEXITSTATUS(status));
    }
}

std::optional<Message> WorkerClient::call(const Message& request, int timeoutMs,
                                          WorkerFailure& failure) {
    failure = {};
    auto failed = [&](WorkerFailure f) {
        failure = std::move(f);
        addWorkerReason(failure);
        return std::nullopt;
    };
    if (m_pid > 0) {
        // A worker that exited after a fatal reply (or died between calls) is replaced.
        int status = 0;
        if (::waitpid(m_pid, &status, WNOHANG) == m_pid) m_pid = -1, closePipes();
    }
    // Only what the worker prints during this call can be its reason for failing it.
    drainStderr();
    m_lastStderrLine.clear();
    if (m_pid <= 0 && !start(failure)) return std::nullopt;
    if (!writeMessage(m_toChild, request, m_maxFrameBytes)) {
        reap(1000, &failure);
        if (failure.kind == WorkerFailure::Kind::None)
            failure = {WorkerFailure::Kind::Protocol, 0, 0,
                       "the GPU worker closed its pipe before taking the request", {}};
        return failed(failure);
    }
    std::string payload, why;
    switch (readFrame(m_fromChild, m_reader, payload, timeoutMs, why)) {
        case ReadStatus::Frame:
            break;
        case ReadStatus::Timeout: {
            const pid_t pid = m_pid;
            kill();
            return failed({WorkerFailure::Kind::Timeout, 0, 0,
                           "the GPU worker (pid " + std::to_string(pid) +
                               ") did not answer within " +
                               std::to_string(timeoutMs / 1000.0).substr(0, 5) +
                               " s (a hang or an endless loop) and was killed",
                           {}});
        }
        case ReadStatus::Closed:
            reap(2000, &failure);
            if (failure.kind == WorkerFailure::Kind::None)
                failure = {WorkerFailure::Kind::Protocol, 0, 0,
                           "the GPU worker closed its pipe without a reply" +
                               (why.empty() ? std::string() : " (" + why + ")"),
                           {}};
            else if (!why.empty())
                failure.message += " (" + why + ")";
            return failed(failure);
        case ReadStatus::Error: {
            const pid_t pid = m_pid;
            kill();
            return failed({WorkerFailure::Kind::Protocol, 0, 0,
                           "the GPU worker (pid " + std::to_string(pid) +
                               ") broke the protocol and was killed: " + why,
                           {}});
        }
    }
    auto msg = decodeMessage(payload, why);
    if (!msg) {
        const pid_t pid = m_pid;
        kill();
        return failed({WorkerFailure::Kind::Protocol, 0, 0,
                       "the GPU worker (pid " + std::to_string(pid) + ") sent a bad reply: " + why,
                       {}});
    }
    if (msg->header.value("fatal", false)) reap(5000, nullptr);  // it exits after a fatal reply
    drainStderr();
    if (m_pid > 0 && m_stderr >= 0 && m_stderrSeen > (1u << 20)) {
        // An idle worker: start its stderr file over (the offset is shared with the child).
        if (::ftruncate(m_stderr, 0) == 0 && ::lseek(m_stderr, 0, SEEK_SET) == 0) m_stderrSeen = 0;
    }
    return msg;
}

}  // namespace ts::rt::worker
