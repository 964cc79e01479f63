// Internal to the elaborator's T.* builtins (ElaborateOps.cpp, ElaborateMath.cpp): message
// helpers that print shapes and regions in the user's terms, extent comparison, and typed
// argument readers with Python-style errors.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "compiler/frontend/Elaborator.h"

namespace ts::fe::elab {

/// "(64, 32)" / "(64,)".
std::string shapeString(const std::vector<ir::Expr>& ext);
/// "'A_shared'" for a whole buffer, "A[0:16, k * 32:k * 32 + 32]" for a part.
std::string regionString(const ir::Region& r);
std::vector<ir::Expr> extentsOf(const ir::Region& r);
/// Drops constant extents of 1 (integer-indexed dimensions).
std::vector<ir::Expr> squeezed(const std::vector<ir::Expr>& ext);
/// Same rank and equal extents (constants by value, symbolic ones by their printed form).
bool sameExtents(const std::vector<ir::Expr>& a, const std::vector<ir::Expr>& b);
/// Rejects keyword arguments outside `allowed` (with a close-match hint).
void onlyKeywords(const CallArgs& a, std::initializer_list<const char*> allowed);
/// A compile-time bool / int argument of a bound call, with a default.
bool boolArg(Interp& in, const CallArgs::Bound& b, size_t i, bool dflt);
int64_t intArg(const CallArgs::Bound& b, size_t i, int64_t dflt, const std::string& what);
/// T.copy(src, dst, ...) as written (ElaborateOps.cpp); T.tma_copy elaborates through it.
Value elaborateCopy(Elaborator& el, CallArgs& a);
/// T.gemm(A, B, C, ...) as written (ElaborateOps.cpp); T.wgmma_gemm elaborates through it.
Value elaborateGemm(Elaborator& el, CallArgs& a);

}  // namespace ts::fe::elab
