#include "compiler/frontend/ElaborateWarpShuffle.h"

#include <utility>

#include "compiler/frontend/Elaborator.h"
#include "compiler/ir/IntrinsicsWarp.h"

namespace ts::fe::elab {

namespace {

/// A constant width must be a power of two from 1 to 32, as CUDA's __shfl_*_sync require
/// (a run-time width is the kernel's to get right); `op` names the call in the error.
void checkWidth(const Value& width, const Span& at, const std::string& op) {
    if (!width.isIntLike()) return;
    const int64_t w = width.asInt();
    if (w < 1 || w > 32 || (w & (w - 1)))
        throw CompileError(at, op + ": width must be a power of two from 1 to 32, got " + std::to_string(w));
}

}  // namespace

void registerWarpShuffle(Interp& in) {
    in.registerModule("tilelang.language")
        ->set("tvm_warp_shuffle", Value::builtin("T.tvm_warp_shuffle", [](Interp& i, CallArgs& a) {
                  auto& el = dynamic_cast<Elaborator&>(i);
                  auto b = a.bind({"mask", "value", "warp_id", "width", "warp_size"}, 5);
                  el.requireKernel(a.span, "T.tvm_warp_shuffle");
                  if (b[4].isIntLike() && b[4].asInt() != 32 && b[3].isIntLike() &&
                      b[4].asInt() < b[3].asInt())
                      throw CompileError(b.spans[4], "T.tvm_warp_shuffle: warp_size " +
                                                         std::to_string(b[4].asInt()) +
                                                         " is smaller than width " +
                                                         std::to_string(b[3].asInt()));
                  checkWidth(b[3], b.spans[3], "T.tvm_warp_shuffle");
                  ir::Expr mask = el.toExpr(b[0], b.spans[0], "T.tvm_warp_shuffle mask");
                  ir::Expr value = el.toExpr(b[1], b.spans[1], "T.tvm_warp_shuffle value");
                  ir::Expr lane = el.toExpr(b[2], b.spans[2], "T.tvm_warp_shuffle lane");
                  ir::Expr width = el.toExpr(b[3], b.spans[3], "T.tvm_warp_shuffle width");
                  return el.wrap(ir::call(ir::intrin::kWarpShuffle, {mask, value, lane, width},
                                          value->dtype, a.span));
              }));
    // T.shfl_sync(value, src_lane, width=32, mask=0xFFFFFFFF), TileLang's signature (the corpus's
    // warp_sync test: every lane reads lane 31's value; tilelang/language/builtin.py puts the mask
    // last, unlike CUDA's __shfl_sync): idx mode, the same shuffle as T.tvm_warp_shuffle.
    in.registerModule("tilelang.language")
        ->set("shfl_sync", Value::builtin("T.shfl_sync", [](Interp& i, CallArgs& a) {
                  auto& el = dynamic_cast<Elaborator&>(i);
                  el.requireKernel(a.span, "T.shfl_sync");
                  auto b = a.bind({"value", "src_lane", "width", "mask"}, 2);
                  Value width = b.get(2, Value::integer(32));
                  checkWidth(width, b.has(2) ? b.spans[2] : a.span, "T.shfl_sync");
                  ir::Expr mask = b.has(3) ? el.toExpr(b[3], b.spans[3], "T.shfl_sync mask") : ir::intImm(0xffffffffLL);
                  ir::Expr value = el.toExpr(b[0], b.spans[0], "T.shfl_sync value");
                  ir::Expr lane = el.toExpr(b[1], b.spans[1], "T.shfl_sync src_lane");
                  ir::Expr w = el.toExpr(width, b.has(2) ? b.spans[2] : a.span, "T.shfl_sync width");
                  return el.wrap(ir::call(ir::intrin::kWarpShuffle, {mask, value, lane, w}, value->dtype, a.span));
              }));
    // T.shfl_xor / T.shfl_down / T.shfl_up(value, delta, width=32, mask=0xFFFFFFFF), TileLang's
    // signature (mask last; older TileLang: (value, offset), full warp): CUDA's
    // __shfl_xor_sync / __shfl_down_sync / __shfl_up_sync (IntrinsicsWarp.h).
    for (auto [name, op] : {std::pair{"shfl_xor", ir::intrin::kWarpShuffleXor},
                            std::pair{"shfl_down", ir::intrin::kWarpShuffleDown},
                            std::pair{"shfl_up", ir::intrin::kWarpShuffleUp}}) {
        const std::string call = std::string("T.") + name;
        in.registerModule("tilelang.language")
            ->set(name, Value::builtin(call, [call, op = std::string(op)](Interp& i, CallArgs& a) {
                      auto& el = dynamic_cast<Elaborator&>(i);
                      el.requireKernel(a.span, call);
                      auto b = a.bind({"value", "delta", "width", "mask"}, 2);
                      const Span widthAt = b.has(2) ? b.spans[2] : a.span;
                      const Value width = b.get(2, Value::integer(32));
                      checkWidth(width, widthAt, call);
                      ir::Expr mask = b.has(3) ? el.toExpr(b[3], b.spans[3], call + " mask") : ir::intImm(0xffffffffLL);
                      ir::Expr value = el.toExpr(b[0], b.spans[0], call + " value");
                      ir::Expr delta = el.toExpr(b[1], b.spans[1], call + " delta");
                      ir::Expr w = el.toExpr(width, widthAt, call + " width");
                      return el.wrap(ir::call(op, {mask, value, delta, w}, value->dtype, a.span));
                  }));
    }
}

}  // namespace ts::fe::elab
