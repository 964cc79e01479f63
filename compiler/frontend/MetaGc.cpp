#include "compiler/frontend/MetaGc.h"

#include <mutex>
#include <unordered_map>
#include <vector>

#include "compiler/frontend/MetaValue.h"

namespace ts::fe {

namespace {
// The containers alive on one thread. Held by every deleter too (shared_ptr): a container that
// outlives its thread, or dies on another one, still finds it. The mutex is for that case only.
struct Registry {
    std::mutex mu;
    std::vector<Object*> slots;  // nullptr: a free slot
    std::vector<size_t> freeSlots;
    size_t add(Object* o) {
        std::lock_guard lock(mu);
        if (!freeSlots.empty()) {
            size_t i = freeSlots.back();
            freeSlots.pop_back();
            slots[i] = o;
            return i;
        }
        slots.push_back(o);
        return slots.size() - 1;
    }
    void remove(size_t i) {
        std::lock_guard lock(mu);
        slots[i] = nullptr;
        freeSlots.push_back(i);
    }
};

const std::shared_ptr<Registry>& registry() {
    thread_local std::shared_ptr<Registry> r = std::make_shared<Registry>();
    return r;
}

template <class T>
struct Unregister {
    std::shared_ptr<Registry> reg;
    size_t slot;
    void operator()(T* p) const {
        reg->remove(slot);
        delete p;
    }
};

template <class T>
std::shared_ptr<T> newRegistered() {
    const auto& reg = registry();
    T* p = new T();
    size_t slot = reg->add(p);
    return std::shared_ptr<T>(p, Unregister<T>{reg, slot});
}

struct Node {
    long refs = 0;  // references from outside the registered containers (after trial deletion)
    SeqObj* seq = nullptr;
    DictObj* dict = nullptr;
    bool reachable = false;
};

template <class F>
void forEachChild(const Node& n, F&& f) {
    if (n.seq)
        for (const Value& v : n.seq->items) f(v);
    if (n.dict)
        for (const auto& [k, v] : n.dict->entries) {
            f(k);
            f(v);
        }
}
}  // namespace

std::shared_ptr<SeqObj> newSeqObj() { return newRegistered<SeqObj>(); }
std::shared_ptr<DictObj> newDictObj() { return newRegistered<DictObj>(); }

size_t collectCycles() {
    std::vector<std::shared_ptr<Object>> held;  // one handle each while we look
    {
        Registry& reg = *registry();
        std::lock_guard lock(reg.mu);
        held.reserve(reg.slots.size());
        for (Object* o : reg.slots)
            if (o)
                if (auto p = o->weak_from_this().lock()) held.push_back(std::move(p));
    }
    std::unordered_map<const Object*, Node> nodes;
    nodes.reserve(held.size());
    for (auto& p : held) {
        Node n;
        n.refs = p.use_count() - 1;  // less the handle in `held`
        n.seq = dynamic_cast<SeqObj*>(p.get());
        n.dict = dynamic_cast<DictObj*>(p.get());
        nodes.emplace(p.get(), n);
    }
    for (auto& [obj, n] : nodes)
        forEachChild(n, [&](const Value& v) {
            if (auto it = nodes.find(v.identity()); it != nodes.end()) --it->second.refs;
        });
    std::vector<Node*> work;
    for (auto& [obj, n] : nodes)
        if (n.refs > 0) {
            n.reachable = true;
            work.push_back(&n);
        }
    while (!work.empty()) {
        Node* n = work.back();
        work.pop_back();
        forEachChild(*n, [&](const Value& v) {
            auto it = nodes.find(v.identity());
            if (it != nodes.end() && !it->second.reachable) {
                it->second.reachable = true;
                work.push_back(&it->second);
            }
        });
    }
    // Empty the garbage; its elements (and `held`) are released after every one is emptied.
    std::vector<Value> dropped;
    size_t freed = 0;
    for (auto& [obj, n] : nodes) {
        if (n.reachable) continue;
        ++freed;
        if (n.seq) {
            for (Value& v : n.seq->items) dropped.push_back(std::move(v));
            n.seq->items.clear();
        }
        if (n.dict) {
            for (auto& [k, v] : n.dict->entries) {
                dropped.push_back(std::move(k));
                dropped.push_back(std::move(v));
            }
            n.dict->entries.clear();
        }
    }
    nodes.clear();
    dropped.clear();
    held.clear();
    return freed;
}

}  // namespace ts::fe
