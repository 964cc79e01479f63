// Warp roles that wait on each other in the thread-level interpreter (ThreadMachine.h).
//
// The interpreter runs the threads of a block in lockstep and a thread-dependent if/else as the
// then-side's threads followed by the else-side's. That is exact until the two sides wait on
// each other: a producer role that loops over stages waits (mbarrier parity) for the consumer
// role to free a stage, which in that order never happens, and the wait was reported as a
// deadlock (minference's vertical-slash kernel: both roles loop over the blocks). runRoles runs
// the two sides as coroutines instead: each on its own std::thread, exactly one running at a
// time (a baton under a mutex, so the machine's state needs no locking), each with its own
// copy of the scope state (bindings, per-thread loop variables, statement stack). A role whose
// wait cannot complete hands the baton to the other, which runs until it finishes or blocks in
// turn. Neither role having made progress (an arrival or transaction bytes) since each blocked
// is a real deadlock, reported at the wait as before.
//
// std::thread rather than ucontext: exceptions, sanitizers and debuggers work unchanged. An
// error in one role ends the other (it unwinds from its wait) and is rethrown by runRoles.
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "compiler/interp/ThreadMachine.h"

namespace ts::interp::detail {

using namespace ir;

namespace {
/// Thrown inside a suspended role to unwind it when the other role failed.
struct RoleCancelled {};
}  // namespace

/// The scope state each role has its own copy of (what bind/unbind and the guards change).
struct RoleScope {
    std::vector<Binding> bindings;
    std::vector<ThreadMachine::PerThreadVar> perThread;
    std::vector<const StmtNode*> stack;
    int32_t cur = -1;
    Span stmtSpan;
    int depth = 0, parallelDepth = 0;
};

struct ThreadMachine::RoleRun {
    struct Role {
        const StmtNode* body = nullptr;
        ThreadList act;
        RoleScope scope;
        bool started = false, done = false, cancelled = false;
        uint64_t blockedAt = ~0ull;  ///< m_roleProgress when it last blocked
    };
    std::mutex mu;
    std::condition_variable cv;
    int turn = -1;  ///< 0/1: that role runs; -1: runRoles (the caller) runs
    int current = 0;
    Role roles[2];
    std::exception_ptr error;
    int32_t errorThread = -1;
};

void ThreadMachine::runRoles(const StmtNode* a, const ThreadList& ta, const StmtNode* b,
                             const ThreadList& tb) {
    RoleRun run;
    const RoleScope outer{m_bindings, m_perThread, m_stack,        m_cur,
                          m_stmtSpan, m_depth,     m_parallelDepth};
    auto restore = [this](const RoleScope& s) {
        m_bindings = s.bindings;
        m_perThread = s.perThread;
        m_stack = s.stack;
        m_cur = s.cur;
        m_stmtSpan = s.stmtSpan;
        m_depth = s.depth;
        m_parallelDepth = s.parallelDepth;
    };
    run.roles[0].body = a;
    run.roles[0].act = ta;
    run.roles[1].body = b;
    run.roles[1].act = tb;
    run.roles[0].scope = run.roles[1].scope = outer;

    // Role i's thread: waits for the baton, runs its side, hands the baton on when it is done.
    auto body = [this, &run, &restore](int i) {
        std::unique_lock lock(run.mu);
        run.cv.wait(lock, [&] { return run.turn == i; });
        RoleRun::Role& me = run.roles[i];
        me.started = true;
        if (!me.cancelled) {
            restore(me.scope);
            lock.unlock();
            try {
                execT(me.body, me.act);
            } catch (const RoleCancelled&) {
            } catch (...) {
                if (!run.error) {
                    run.error = std::current_exception();
                    run.errorThread = m_cur;
                }
            }
            lock.lock();
        }
        me.done = true;
        RoleRun::Role& other = run.roles[1 - i];
        if (run.error && !other.done) other.cancelled = true;
        // The other role next (to finish, or to unwind from its wait), else the caller.
        if (!other.done) {
            run.current = 1 - i;
            if (other.started) restore(other.scope);
            run.turn = 1 - i;
        } else {
            run.turn = -1;
        }
        run.cv.notify_all();
    };

    RoleRun* outerRun = m_roles;
    m_roles = &run;
    std::thread t0(body, 0), t1(body, 1);
    {
        std::unique_lock lock(run.mu);
        run.current = 0;
        run.turn = 0;
        run.cv.notify_all();
        run.cv.wait(lock, [&] { return run.turn == -1; });
    }
    t0.join();
    t1.join();
    m_roles = outerRun;
    restore(outer);
    if (run.error) {
        m_cur = run.errorThread;  // the failing thread, for the error's [block, thread] suffix
        std::rethrow_exception(run.error);
    }
}

bool ThreadMachine::waitOnOtherRole(const std::function<bool()>& ready) {
    RoleRun* run = m_roles;
    if (!run) return false;
    const int i = run->current;
    RoleRun::Role& me = run->roles[i];
    RoleRun::Role& other = run->roles[1 - i];
    while (!ready()) {
        std::unique_lock lock(run->mu);
        if (other.done) return false;  // nobody left to arrive
        if (me.blockedAt == m_roleProgress && other.blockedAt == m_roleProgress)
            return false;  // both blocked, nothing happened since: a real deadlock
        me.blockedAt = m_roleProgress;
        me.scope = RoleScope{m_bindings, m_perThread, m_stack,        m_cur,
                             m_stmtSpan, m_depth,     m_parallelDepth};
        if (other.started) {
            m_bindings = other.scope.bindings;
            m_perThread = other.scope.perThread;
            m_stack = other.scope.stack;
            m_cur = other.scope.cur;
            m_stmtSpan = other.scope.stmtSpan;
            m_depth = other.scope.depth;
            m_parallelDepth = other.scope.parallelDepth;
        }
        run->current = 1 - i;
        run->turn = 1 - i;
        run->cv.notify_all();
        run->cv.wait(lock, [&] { return run->turn == i; });
        // The other role restored this role's scope before handing the baton back.
        if (me.cancelled) throw RoleCancelled{};
    }
    return true;
}

}  // namespace ts::interp::detail
