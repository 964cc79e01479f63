// The grid barrier (T.sync_grid) on both interpreters (Machine.h: runGrid, gridBarrier).
//
// Without a grid barrier the interpreters run the blocks of a grid one after another, which is
// exact: blocks do not wait on each other. With one, every block must reach barrier k before any
// block passes it (CUDA C++ Programming Guide, "Grid Synchronization"), so block 0 cannot run to
// its end first. runGrid runs each block as a coroutine instead: a machine of its own
// (cloneForBlock: its buffers, bindings and thread state; global memory is the caller's tensors,
// shared) on its own std::thread, exactly one running at a time (a baton under a mutex, as the
// warp roles of ThreadRoles.cpp), so no interpreter state needs locking. Phase k runs every
// block, in launch order, from its barrier k-1 to its barrier k (or its end). The k-th T.sync_grid
// a block executes is its barrier k, whichever statement it is (the GPU's barrier is a counter).
// A block that ends while others wait at a barrier would hang the GPU: it is a deadlock error at
// the barrier, naming the block that left. Single-block grids and kernels without T.sync_grid
// keep the plain block loop (Exec.cpp, ThreadExec.cpp).
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "compiler/interp/Machine.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Intrinsics.h"

namespace ts::interp::detail {

using namespace ir;

namespace {
/// Thrown inside a waiting block to unwind it when another block failed or deadlocked.
struct GridCancelled {};

/// Most blocks a cooperative grid may have on the interpreters (one std::thread each); far above
/// what a GPU keeps co-resident (132 SMs x a few blocks on an H200).
constexpr int64_t kMaxGridBlocks = 8192;
}  // namespace

struct Machine::GridRun {
    struct Slot {
        std::unique_ptr<Machine> m;
        std::condition_variable cv;  ///< this block's turn came
        bool done = false, cancelled = false, ran = false;
        int64_t arrivals = 0;  ///< grid barriers reached
        Span waitAt;           ///< the barrier it waits at (while not done)
        std::exception_ptr error;
    };
    std::mutex mu;
    std::condition_variable back;  ///< the running block handed the baton back
    int turn = -1;                 ///< the block that runs; -1: runGrid
    std::vector<Slot> slots;       ///< sized before the threads start, never resized
};

bool Machine::needsGridRun(const KernelNode* k, int64_t blocks) {
    if (blocks <= 1) return false;
    bool found = false;
    walk(
        k->body, [&](const Stmt& s) {
            auto* e = as<EvalNode>(s);
            auto* c = e ? as<CallNode>(e->call) : nullptr;
            if (c && c->op == intrin::kSyncGrid) found = true;
        },
        [](const Expr&) {});
    return found;
}

void Machine::copySetupTo(Machine& m) const {
    m.m_bindings = m_bindings;
    m.m_memory = m_memory;  // pointer tables (Pointers.h) point into the same device memory
    for (auto& b : m_buffers) {
        if (b->viewOwnsData) continue;  // made again, with its pair, at the block's first access
        auto c = std::make_unique<BufferState>();
        c->node = b->node;
        c->dtype = b->dtype;
        c->global = b->global;
        if (b->global) *c = *b;  // points at the caller's tensor: shared by every block
        m.m_buffers.push_back(std::move(c));
    }
    m.m_blockIdx = m_blockIdx;
    m.m_tileFunc = m_tileFunc;
    m.m_started = m_started;
    m.m_inKernel = m_inKernel;
    m.m_blockThreads = m_blockThreads;
    m.m_parallelDepth = m_parallelDepth;
}

std::unique_ptr<Machine> Machine::cloneForBlock() const {
    auto m = std::make_unique<Machine>(m_opts);
    copySetupTo(*m);
    return m;
}

void Machine::gridBarrier(const Span& at) {
    GridRun* run = m_grid;
    if (!run) return;  // a one-block grid: nobody else to wait for
    GridRun::Slot& me = run->slots[static_cast<size_t>(m_gridSlot)];
    std::unique_lock lock(run->mu);
    ++me.arrivals;
    me.waitAt = at;
    run->turn = -1;
    run->back.notify_one();
    me.cv.wait(lock, [&] { return run->turn == m_gridSlot; });
    if (me.cancelled) throw GridCancelled{};
}

void Machine::runGrid(const KernelNode* k, size_t mark, const std::vector<int64_t>& grid, int64_t total) {
    if (total > kMaxGridBlocks)
        fail(k->span, "T.sync_grid: the interpreter runs a cooperative grid of at most " +
                          std::to_string(kMaxGridBlocks) + " blocks; this one has " + std::to_string(total),
             "use a smaller grid (a GPU keeps only about SMs x blocks-per-SM blocks resident anyway)");
    GridRun run;
    run.slots = std::vector<GridRun::Slot>(static_cast<size_t>(total));
    for (int64_t b = 0; b < total; ++b) {
        auto& s = run.slots[static_cast<size_t>(b)];
        s.m = cloneForBlock();
        s.m->m_grid = &run;
        s.m->m_gridSlot = static_cast<int>(b);
    }
    auto body = [&run, k, mark, &grid](int b) {
        GridRun::Slot& me = run.slots[static_cast<size_t>(b)];
        {
            std::unique_lock lock(run.mu);
            me.cv.wait(lock, [&] { return run.turn == b; });
        }
        if (!me.cancelled) {
            try {
                me.ran = me.m->execBlock(k, mark, b, grid);
            } catch (const GridCancelled&) {
            } catch (...) {
                me.error = std::current_exception();
            }
        }
        std::unique_lock lock(run.mu);
        me.done = true;
        run.turn = -1;
        run.back.notify_one();
    };
    // Gives the baton to block b and waits until it is back (the block reached a barrier or ended).
    auto step = [&run](int b) {
        std::unique_lock lock(run.mu);
        run.turn = b;
        run.slots[static_cast<size_t>(b)].cv.notify_one();
        run.back.wait(lock, [&] { return run.turn == -1; });
    };
    std::vector<std::thread> threads;
    threads.reserve(run.slots.size());
    std::exception_ptr error;
    try {
        for (int64_t b = 0; b < total; ++b) threads.emplace_back(body, static_cast<int>(b));
    } catch (...) {  // could not start a thread: unwind those started
        error = std::current_exception();
    }
    const int n = static_cast<int>(threads.size());
    int64_t reported = 0;
    while (!error) {
        if (n < total) break;
        for (int b = 0; b < n && !error; ++b) {
            if (run.slots[static_cast<size_t>(b)].done) continue;
            step(b);
            if (run.slots[static_cast<size_t>(b)].error) error = run.slots[static_cast<size_t>(b)].error;
        }
        if (error) break;
        // Blocks that ended this phase (the progress callback counts them).
        int64_t doneCount = 0;
        int waiter = -1, leaver = -1;
        for (int b = 0; b < n; ++b) {
            auto& s = run.slots[static_cast<size_t>(b)];
            if (s.done) {
                ++doneCount;
            } else if (waiter < 0) {
                waiter = b;
            }
        }
        if (m_opts.onBlock)
            for (; reported < doneCount; ++reported) m_opts.onBlock(reported + 1, total);
        if (waiter < 0) break;  // every block ended
        const auto& w = run.slots[static_cast<size_t>(waiter)];
        for (int b = 0; b < n && leaver < 0; ++b)
            if (run.slots[static_cast<size_t>(b)].done && run.slots[static_cast<size_t>(b)].arrivals < w.arrivals)
                leaver = b;
        if (leaver >= 0) {
            const auto& l = run.slots[static_cast<size_t>(leaver)];
            std::string idx = formatIndex(l.m->m_blockIdx);
            try {
                fail(w.waitAt,
                     "deadlock at T.sync_grid: block " + formatIndex(w.m->m_blockIdx) + " (and " +
                         std::to_string(total - doneCount - 1) + " other block(s)) wait at grid barrier " +
                         std::to_string(w.arrivals) + " here, but block " + idx + " ended after " +
                         std::to_string(l.arrivals) + " grid barrier(s) without reaching it; on the GPU the grid would hang",
                     "every block of the grid must execute the same number of T.sync_grid calls: keep them "
                     "out of conditions on the block index (and of loops whose trip count depends on it)");
            } catch (...) {
                error = std::current_exception();
            }
        }
    }
    // Unwind the blocks still waiting, then join every thread.
    for (int b = 0; b < n; ++b) {
        auto& s = run.slots[static_cast<size_t>(b)];
        if (s.done) continue;
        s.cancelled = true;
        step(b);
    }
    for (auto& t : threads) t.join();
    for (auto& s : run.slots) {
        if (!s.m) continue;
        if (s.ran) ++m_blocksRun;
        for (auto& line : s.m->m_log) log(std::move(line));
        for (size_t w = 0; w < s.m->m_warnings.size(); ++w) warnOnce(s.m->m_warnKeys[w], std::move(s.m->m_warnings[w]));
    }
    if (error) {
        // The failing block's index, for callers that describe the error with it.
        for (auto& s : run.slots)
            if (s.error == error) m_blockIdx = s.m->m_blockIdx;
        std::rethrow_exception(error);
    }
}

}  // namespace ts::interp::detail
