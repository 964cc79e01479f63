#include "compiler/frontend/ElaborateDeviceAssert.h"

#include "compiler/frontend/Elaborator.h"
#include "compiler/ir/IntrinsicsAssert.h"

namespace ts::fe::elab {

void registerDeviceAssert(Interp& in) {
    in.registerModule("tilelang.language")
        ->set("device_assert", Value::builtin("T.device_assert", [](Interp& i, CallArgs& a) {
                  auto& el = dynamic_cast<Elaborator&>(i);
                  auto b = a.bind({"condition", "msg"}, 1);
                  el.requireKernel(a.span, "T.device_assert");
                  std::string msg = b.has(1) && b[1].is(ValueKind::Str) ? b[1].asStr() : "";
                  if (b.has(1) && !b[1].is(ValueKind::Str))
                      throw CompileError(b.spans[1], "T.device_assert: msg must be a string");
                  if (!el.isRuntime(b[0])) {
                      if (el.truthy(b[0], b.spans[0])) return Value::none();
                      throw CompileError(b.spans[0],
                                         "T.device_assert: the condition is False at compile "
                                         "time" + (msg.empty() ? std::string() : ": " + msg));
                  }
                  ir::Expr cond = el.toExpr(b[0], b.spans[0], "T.device_assert condition");
                  el.emit(ir::evaluate(
                      ir::call(ir::intrin::kDeviceAssert,
                               {cond, std::make_shared<ir::StrImmNode>(msg, a.span)},
                               ir::DType::Int32, a.span),
                      a.span));
                  return Value::none();
              }));
}

}  // namespace ts::fe::elab
