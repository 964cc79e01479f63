#include "compiler/frontend/ElaborateWarpShuffle.h"

#include "compiler/frontend/Elaborator.h"
#include "compiler/ir/IntrinsicsWarp.h"

namespace ts::fe::elab {

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
                  if (b[3].isIntLike()) {
                      int64_t w = b[3].asInt();
                      if (w < 1 || w > 32 || (w & (w - 1)))
                          throw CompileError(b.spans[3],
                                             "T.tvm_warp_shuffle: width must be a power of two "
                                             "from 1 to 32, got " + std::to_string(w));
                  }
                  ir::Expr mask = el.toExpr(b[0], b.spans[0], "T.tvm_warp_shuffle mask");
                  ir::Expr value = el.toExpr(b[1], b.spans[1], "T.tvm_warp_shuffle value");
                  ir::Expr lane = el.toExpr(b[2], b.spans[2], "T.tvm_warp_shuffle lane");
                  ir::Expr width = el.toExpr(b[3], b.spans[3], "T.tvm_warp_shuffle width");
                  return el.wrap(ir::call(ir::intrin::kWarpShuffle, {mask, value, lane, width},
                                          value->dtype, a.span));
              }));
}

}  // namespace ts::fe::elab
