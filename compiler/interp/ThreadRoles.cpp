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
// is a real deadlock, reported at the wait as before. An if/elif chain of roles (two consumers
// and a producer: DeepSeek MLA decode ws, V3.2 sparse MLA pipelined) gives one coroutine per
// arm (collectRoles), the baton passed round-robin; run as then-side followed by a nested
// else-side, a consumer waiting for the producer behind it in that same else-side was reported
// as a deadlock.
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
    std::vector<Machine::ActiveLoop> loops;
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
    int turn = -1;  ///< the role that runs; -1: runRoles (the caller) runs
    int current = 0;
    std::vector<Role> roles;  ///< sized before the role threads start, never resized
    std::exception_ptr error;
    int32_t errorThread = -1;
    /// The first role after i (round-robin) that has not finished, or -1.
    int next(int i) const {
        const int n = static_cast<int>(roles.size());
        for (int k = 1; k < n; ++k)
            if (!roles[(i + k) % n].done) return (i + k) % n;
        return -1;
    }
};

void ThreadMachine::collectRoles(const StmtNode* s, const ThreadList& act, RoleList& out) {
    const StmtNode* inner = s;
    if (s && s->kind == StmtKind::Seq) {
        auto* q = static_cast<const SeqNode*>(s);
        inner = q->stmts.size() == 1 ? q->stmts[0].get() : nullptr;
    }
    if (inner && inner->kind == StmtKind::If) {
        auto* n = static_cast<const IfNode*>(inner);
        ThreadList yes, no;
        splitByCond(n->cond.get(), act, yes, no);
        if (!yes.empty() && !no.empty()) {
            out.emplace_back(n->then.get(), yes);
            if (n->otherwise) collectRoles(n->otherwise.get(), no, out);
            return;
        }
    }
    out.emplace_back(s, act);
}

void ThreadMachine::runRoles(const RoleList& list) {
    RoleRun run;
    const RoleScope outer{m_bindings, m_perThread, m_stack,    m_loops,
                          m_cur,      m_stmtSpan,  m_depth,    m_parallelDepth};
    auto restore = [this](const RoleScope& s) {
        m_bindings = s.bindings;
        m_perThread = s.perThread;
        m_stack = s.stack;
        m_loops = s.loops;
        m_cur = s.cur;
        m_stmtSpan = s.stmtSpan;
        m_depth = s.depth;
        m_parallelDepth = s.parallelDepth;
    };
    run.roles.resize(list.size());
    for (size_t i = 0; i < list.size(); ++i) {
        run.roles[i].body = list[i].first;
        run.roles[i].act = list[i].second;
        run.roles[i].scope = outer;
    }

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
        if (run.error)
            for (auto& r : run.roles)
                if (!r.done) r.cancelled = true;
        // The next unfinished role (to finish, or to unwind from its wait), else the caller.
        const int j = run.next(i);
        if (j >= 0) {
            run.current = j;
            if (run.roles[j].started) restore(run.roles[j].scope);
            run.turn = j;
        } else {
            run.turn = -1;
        }
        run.cv.notify_all();
    };

    RoleRun* outerRun = m_roles;
    m_roles = &run;
    std::vector<std::thread> threads;
    threads.reserve(run.roles.size());
    for (size_t i = 0; i < run.roles.size(); ++i) threads.emplace_back(body, static_cast<int>(i));
    {
        std::unique_lock lock(run.mu);
        run.current = 0;
        run.turn = 0;
        run.cv.notify_all();
        run.cv.wait(lock, [&] { return run.turn == -1; });
    }
    for (auto& t : threads) t.join();
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
    while (!ready()) {
        std::unique_lock lock(run->mu);
        const int j = run->next(i);
        if (j < 0) return false;  // nobody left to arrive
        // Every unfinished role blocked with nothing happened since: a real deadlock.
        bool stuck = me.blockedAt == m_roleProgress;
        for (size_t k = 0; stuck && k < run->roles.size(); ++k)
            if (static_cast<int>(k) != i && !run->roles[k].done) stuck = run->roles[k].blockedAt == m_roleProgress;
        if (stuck) return false;
        me.blockedAt = m_roleProgress;
        me.scope = RoleScope{m_bindings, m_perThread, m_stack,    m_loops,
                             m_cur,      m_stmtSpan,  m_depth,    m_parallelDepth};
        RoleRun::Role& other = run->roles[j];
        if (other.started) {
            m_bindings = other.scope.bindings;
            m_perThread = other.scope.perThread;
            m_stack = other.scope.stack;
            m_loops = other.scope.loops;
            m_cur = other.scope.cur;
            m_stmtSpan = other.scope.stmtSpan;
            m_depth = other.scope.depth;
            m_parallelDepth = other.scope.parallelDepth;
        }
        run->current = j;
        run->turn = j;
        run->cv.notify_all();
        run->cv.wait(lock, [&] { return run->turn == i; });
        // The role handing the baton back restored this role's scope first.
        if (me.cancelled) throw RoleCancelled{};
    }
    return true;
}

}  // namespace ts::interp::detail
