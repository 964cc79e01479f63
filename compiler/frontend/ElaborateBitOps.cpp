#include "compiler/frontend/ElaborateBitOps.h"

namespace ts::fe::elab {

void registerBitOps(Interp& in) {
    auto T = in.registerModule("tilelang.language");
    for (auto [name, op] : {std::pair{"shift_left", ast::BinOpKind::LShift},
                            std::pair{"shift_right", ast::BinOpKind::RShift},
                            std::pair{"bitwise_and", ast::BinOpKind::BitAnd},
                            std::pair{"bitwise_or", ast::BinOpKind::BitOr},
                            std::pair{"bitwise_xor", ast::BinOpKind::BitXor}}) {
        const ast::BinOpKind k = op;
        T->set(name, Value::builtin(std::string("T.") + name, [k](Interp& i, CallArgs& a) {
                   a.expectPositional(2, 2);
                   return i.binaryOp(k, a.pos[0], a.pos[1], a.span);
               }));
    }
    T->set("bitwise_not", Value::builtin("T.bitwise_not", [](Interp& i, CallArgs& a) {
               a.expectPositional(1, 1);
               return i.unaryOp(ast::UnaryOpKind::Invert, a.pos[0], a.span);
           }));
}

}  // namespace ts::fe::elab
