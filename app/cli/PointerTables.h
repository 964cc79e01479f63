// How `tilec run` / `tilec bench` feed a kernel with pointer tables (TileLang's T.ptr +
// T.make_tensor; compiler/ir/PointerTensors.h). The file's own host code builds per-group tensors
// and a table of their data_ptr()s; tilec does the same: every entry of a table parameter gets
// its own separately allocated tensor (a "pointee", named "TABLE[g]") whose dtype and shape are
// the kernel's T.make_tensor of that table (all of a table's make_tensor calls must agree on the
// dtype; differing shapes give a 1-D pointee of the largest extent). Pointees are appended to the
// kernel's tensor arguments, after its own: inputs get seeded random values, pointees of tables
// whose tensors the kernel writes are outputs (poisoned, downloaded, checked, printed). The table
// itself holds the pointees' device addresses on the GPU (rt::PointerFill) and the interpreters'
// pointer values (interp/Pointers.h) on the CPU.
#pragma once
#include <string>
#include <vector>

#include "compiler/Compile.h"

namespace ts::cli {

/// The pointer tables of the selected kernel and their pointees, as extended tensor arguments.
struct PointerTableRun {
    size_t kernelTensors = 0;  ///< the kernel's own tensor arguments (the first ones)
    struct Table {
        int param = -1;             ///< the table's argument index
        std::vector<int> pointees;  ///< argument indices of its entries' tensors, in entry order
    };
    std::vector<Table> tables;
    bool active() const { return !tables.empty(); }
};

/// Appends the pointees of r's pointer tables to r.kernel.args (see above; again after an earlier
/// call: the pointees are replaced; nothing for a kernel without tables). Returns false and
/// sets `why` when a table cannot be fed: a non-constant table or make_tensor shape, a table no
/// T.make_tensor uses, make_tensor calls of different dtypes.
bool addPointees(CompileResult& r, PointerTableRun& out, std::string& why);

}  // namespace ts::cli
