// How a check calls a reference whose signature is not the kernel's (real TileLang files call
// theirs with other arguments), and how its results are matched with the kernel's outputs.
//
// Binding (on top of Reference.h's rule, which stays the default): a parameter named in
// ReferenceCall::namedValues (`tilec run --ref-param NAME=VALUE`; VALUE a Python literal or an
// expression over the kernel's inputs by name, e.g. `post_layer_mix=c.unsqueeze(-1)`), or named like one of the
// kernel's scalar arguments (`max_seqlen_q: T.int32`), takes that value and leaves the input
// tensors to the next parameters; a scalar with a `position` is also one of the positional inputs
// (`--ref-inputs`). A parameter left at its own default, or at the default of a same-named
// parameter of another top-level function, is reported as a warning diagnostic: nobody chose
// that value for the check.
//
// A reference whose parameters are all settings (bound by name) and that returns a function
// (`def ref_program(stride, padding, dilation): def main(A, B): ...; return main`) is a
// reference factory: the function it returns is called with the inputs, by the same rule.
//
// Outputs: a reference returning fewer values than the kernel has outputs (FlashAttention's O
// without lse) is compared with the first outputs in order, as TileLang's profiler zips them.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "profiler/check/Compare.h"
#include "profiler/check/Reference.h"

namespace ts::rt {

/// A by-value scalar argument of the kernel handed to the reference.
struct ReferenceScalar {
    std::string name;
    double value = 0;
    bool integer = true;             ///< an int (else a float) in the reference
    std::optional<size_t> position;  ///< index among the positional inputs, if it is one
};

/// What a reference call takes besides the input tensors.
struct ReferenceCall {
    /// The kernel's scalar arguments (by name; positioned ones also among the inputs).
    std::vector<ReferenceScalar> scalars;
    /// Values for the reference's own parameters by name (Python literal text, read like
    /// --param). A name no parameter of the function has is an error.
    std::map<std::string, std::string> namedValues;
    /// Every input tensor of the kernel by name (before --ref-inputs picks some), for
    /// namedValues that are expressions over them (`--ref-param 'mix=c.unsqueeze(-1)'`). The
    /// tensors must outlive the evaluation.
    std::vector<std::pair<std::string, const HostTensor*>> namedInputs;
};

/// evalReference (Reference.h, parsed-file form) with the extra binding of `call`.
ReferenceResult evalReference(const fe::ast::Module& module,
                              const std::map<std::string, std::string>& factoryParams,
                              const std::vector<HostTensor>& inputs, const ReferenceOptions& opt,
                              const ReferenceCall& call);

/// Like referenceMismatch (Compare.h), which also accepts fewer values than outputs: when
/// `references` has fewer values than there are outputs, "lse not checked: ref_program returned
/// 1 value for 2 outputs (compared with the first 1 in order, as TileLang does)"; else empty.
std::string uncheckedOutputs(const std::vector<OutputSpec>& outputs,
                             const std::vector<HostTensor>& references);

}  // namespace ts::rt
