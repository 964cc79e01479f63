// Meta-level values of a `ref_program` run (LANGUAGE.md §4): the tensor type the meta-evaluator
// manipulates (RefTensor, an fe::ExtValue over a RefArray), torch's named tuples
// ((values, indices) of x.max(dim)), the torch modules as ref_program sees them (RefModule:
// `torch`, `torch.nn`, `torch.nn.functional` as F), stand-ins for anything the evaluator does
// not model (RefUnsupported: any use is a diagnostic naming the call, e.g.
// "ref_program: torch.linalg.svd is not supported by the reference evaluator"), and the
// context managers that only matter for autograd (`with torch.no_grad():`).
//
// Operators reach tensors through the ExtValue hooks: `+ - * / // % ** @ & | ^`, unary `- + ~`,
// comparisons (elementwise, giving bool tensors), indexing and item assignment with ints,
// slices and None, truth of one-element tensors, iteration over the first dim and len().
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "compiler/frontend/MetaEval.h"
#include "compiler/frontend/MetaValue.h"
#include "profiler/check/ReferenceArray.h"

namespace ts::rt {

/// A torch.Tensor of a ref_program: float64 values with a nominal dtype.
class RefTensor final : public fe::ExtValue {
public:
    explicit RefTensor(RefArray a) : m_array(std::move(a)) {}
    /// Wraps `a` as a meta value.
    static fe::Value make(RefArray a);

    RefArray& array() { return m_array; }
    const RefArray& array() const { return m_array; }

    std::string typeName() const override { return "Tensor"; }
    /// "tensor(shape=(4, 8), dtype=float16)".
    std::string repr() const override;
    /// Properties (.T, .mT, .shape, .dtype, .ndim, .device, .data) and bound methods; an unknown
    /// name gives a RefUnsupported named "Tensor.<name>".
    std::optional<fe::Value> getAttr(fe::Interp&, const std::string& name, Span) override;
    std::optional<fe::Value> binaryOp(fe::Interp&, fe::ast::BinOpKind op, const fe::Value& other,
                                      bool selfOnLeft, Span) override;
    std::optional<fe::Value> unaryOp(fe::Interp&, fe::ast::UnaryOpKind op, Span) override;
    std::optional<fe::Value> compare(fe::Interp&, fe::ast::CmpOpKind op, const fe::Value& other,
                                     bool selfOnLeft, Span) override;
    std::optional<fe::Value> getItem(fe::Interp&, const fe::Value& index, Span) override;
    bool setItem(fe::Interp&, const fe::Value& index, const fe::Value& v, Span) override;
    /// Truth of a one-element tensor; more elements is an error like torch's "ambiguous".
    std::optional<bool> truth(fe::Interp&, Span) override;
    std::optional<std::vector<fe::Value>> iterate(fe::Interp&, Span) override;
    std::optional<int64_t> length(fe::Interp&, Span) override;

private:
    RefArray m_array;
};

/// A torch named tuple such as torch.return_types.max: attributes by name, items by index,
/// unpacking.
class RefNamedTuple final : public fe::ExtValue {
public:
    RefNamedTuple(std::string type, std::vector<std::string> names, std::vector<fe::Value> items)
        : m_type(std::move(type)), m_names(std::move(names)), m_items(std::move(items)) {}
    std::string typeName() const override { return m_type; }
    std::optional<fe::Value> getAttr(fe::Interp&, const std::string& name, Span) override;
    std::optional<fe::Value> getItem(fe::Interp&, const fe::Value& index, Span) override;
    std::optional<std::vector<fe::Value>> iterate(fe::Interp&, Span) override { return m_items; }
    std::optional<int64_t> length(fe::Interp&, Span) override {
        return static_cast<int64_t>(m_items.size());
    }

private:
    std::string m_type;
    std::vector<std::string> m_names;
    std::vector<fe::Value> m_items;
};

/// `torch`, `torch.nn`, `torch.nn.functional`, ... inside ref_program. Members come from the
/// function table (ReferenceTorch.h); unknown members are RefUnsupported.
class RefModule final : public fe::ExtValue {
public:
    explicit RefModule(std::string path) : m_path(std::move(path)) {}
    const std::string& path() const { return m_path; }
    std::string typeName() const override { return "module"; }
    std::string repr() const override { return "<module '" + m_path + "'>"; }
    std::optional<fe::Value> getAttr(fe::Interp&, const std::string& name, Span) override;

private:
    std::string m_path;
};

/// A name the reference evaluator does not model ("torch.linalg.svd", "Tensor.backward").
/// Attribute access extends the name; calling it or using it in any operation throws
/// "ref_program: <name> is not supported by the reference evaluator" at that span.
class RefUnsupported final : public fe::ExtValue {
public:
    explicit RefUnsupported(std::string name) : m_name(std::move(name)) {}
    const std::string& name() const { return m_name; }
    std::string typeName() const override { return m_name + " (unsupported)"; }
    std::optional<fe::Value> getAttr(fe::Interp&, const std::string& name, Span) override;
    std::optional<fe::Value> call(fe::Interp&, fe::CallArgs&) override;
    /// Setting a flag under torch.backends (`torch.backends.cuda.matmul.allow_tf32 = True`,
    /// cudnn.deterministic, ...) is accepted and has no effect: those knobs choose the GPU's
    /// arithmetic, and the reference is float64 anyway. Any other attribute set is refused.
    bool setAttr(fe::Interp&, const std::string& name, const fe::Value& v, Span) override;
    std::optional<fe::Value> binaryOp(fe::Interp&, fe::ast::BinOpKind, const fe::Value&, bool,
                                      Span) override;
    std::optional<fe::Value> unaryOp(fe::Interp&, fe::ast::UnaryOpKind, Span) override;
    std::optional<fe::Value> compare(fe::Interp&, fe::ast::CmpOpKind, const fe::Value&, bool,
                                     Span) override;
    std::optional<fe::Value> getItem(fe::Interp&, const fe::Value&, Span) override;
    std::optional<bool> truth(fe::Interp&, Span) override;
    std::optional<std::vector<fe::Value>> iterate(fe::Interp&, Span) override;
    /// The diagnostic this value reports.
    [[noreturn]] void fail(Span s) const;

private:
    std::string m_name;
};

/// The value of `torch.no_grad()`, `torch.inference_mode()`, `torch.autocast(...)`: a `with`
/// over it just runs the body (RefInterp::execWith).
class RefNullContext final : public fe::ExtValue {
public:
    std::string typeName() const override { return "context manager"; }
};

/// The value of `...` in a reference (RefInterp::evalEllipsis): `kv[..., :dim]`.
class RefEllipsis final : public fe::ExtValue {
public:
    std::string typeName() const override { return "ellipsis"; }
    std::string repr() const override { return "Ellipsis"; }
};

/// The message of an unsupported name, used by every path that reports one.
std::string unsupportedMessage(const std::string& name);

/// The array behind a tensor, a Python number/bool (a weak 0-d array) or a nested list/tuple of
/// numbers. Throws CompileError at `s` ("<what> must be a tensor or a number, got str").
RefArray toArray(const fe::Value& v, Span s, const std::string& what);
/// True for a RefTensor, a number or a bool.
bool isArrayLike(const fe::Value& v);
/// A tensor value or a Python scalar, as returned by ops: 0-d results stay tensors.
fe::Value wrap(RefArray a);

}  // namespace ts::rt
