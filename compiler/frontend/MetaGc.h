// Reference cycles among meta-level lists, tuples and dicts (`a.append(a)`, `d['me'] = d`,
// `a.append((a, 1))`). Values are reference counted (shared_ptr), so such a cycle was never
// freed: a leak on every compile of an IDE that compiles on each keystroke (LeakSanitizer in
// fuzz_meta, issue 14). Every list, tuple and dict is registered with its thread's registry
// from creation to destruction (newSeqObj/newDictObj: a slot, released by the shared_ptr's
// deleter, so a registry holds no memory of dead objects); collectCycles() empties those that nothing but other registered containers keeps
// alive (CPython's trial deletion: a container whose reference count exceeds the references
// from registered containers is reachable from outside, and so is everything it reaches).
// Interp's destructor runs it. It is conservative: a reference from anywhere else (a local,
// an environment, an extension value) keeps a container and what it reaches.
#pragma once
#include <cstddef>
#include <memory>

namespace ts::fe {

struct SeqObj;
struct DictObj;

/// A new, empty, registered list/tuple or dict payload.
std::shared_ptr<SeqObj> newSeqObj();
std::shared_ptr<DictObj> newDictObj();

/// Empties the lists, tuples and dicts of this thread that only reference cycles keep alive
/// (they are then freed); returns how many.
size_t collectCycles();

}  // namespace ts::fe
