#include "compiler/frontend/ElaborateExtern.h"

#include "compiler/frontend/ElabValues.h"
#include "compiler/frontend/Elaborator.h"
#include "compiler/ir/Builder.h"

namespace ts::fe::elab {

namespace {

/// The device functions TileScope models, as T.call_extern names them.
constexpr const char* kKnown[] = {"decode_fp4_to_bf16_twiddling", "decode_i4u_to_f16",
                                  "decode_i4s_to_f16", "decode_i2u_to_i8s", "decode_i2s_to_i8s"};

std::string knownList() {
    std::string s;
    for (const char* k : kKnown) s += std::string(s.empty() ? "" : ", ") + k;
    return s;
}

/// T.access_ptr(buffer, access_mask, offset=0): a pointer to `buffer`'s element `offset`
/// (row-major), usable only as a T.call_extern argument.
class AccessPtr final : public ExtValue {
public:
    AccessPtr(ir::Buffer b, ir::Expr off) : buffer(std::move(b)), offset(std::move(off)) {}
    std::string typeName() const override { return "access_ptr"; }
    std::string repr() const override { return "T.access_ptr(" + buffer->name + ")"; }
    ir::Buffer buffer;
    ir::Expr offset;
};

ir::Expr i32(int64_t v, Span s) { return ir::intImm(v, s, ir::DType::Int32); }
ir::Expr band(ir::Expr a, int64_t m, Span s) { return ir::binary(ir::BinOp::BitAnd, a, i32(m, s), s); }
ir::Expr shr(ir::Expr a, int64_t k, Span s) {
    return k == 0 ? a : ir::binary(ir::BinOp::Shr, a, i32(k, s), s);
}
ir::Expr shl(ir::Expr a, int64_t k, Span s) {
    return k == 0 ? a : ir::binary(ir::BinOp::Shl, a, i32(k, s), s);
}
ir::Expr bor(ir::Expr a, ir::Expr b, Span s) { return ir::binary(ir::BinOp::BitOr, a, b, s); }

/// Row-major indices of flat element `flat` of `b` (constant or symbolic extents).
std::vector<ir::Expr> unflatten(const ir::Buffer& b, ir::Expr flat, Span s) {
    std::vector<ir::Expr> idx(b->rank());
    for (size_t d = b->rank(); d-- > 0;) {
        if (d == 0) {
            idx[d] = flat;
        } else {
            idx[d] = ir::floormod(flat, b->shape[d], s);
            flat = ir::floordiv(flat, b->shape[d], s);
        }
    }
    return idx;
}

ir::Expr element(const AccessPtr& p, int64_t k, Span s) {
    return ir::add(p.offset, i32(k, s), s);
}

/// Byte `k` of the packed source as an Int32 in [0, 255].
ir::Expr byteAt(Elaborator& el, const AccessPtr& src, int64_t k, Span s) {
    (void)el;
    ir::Expr v = ir::load(src.buffer, unflatten(src.buffer, element(src, k, s), s), s);
    return band(ir::cast(ir::DType::Int32, v, s), 0xFF, s);
}

const AccessPtr& pointerArg(const CallArgs& a, size_t i, const std::string& fn,
                            const std::string& role) {
    const AccessPtr* p = i < a.pos.size() ? a.pos[i].extAs<AccessPtr>() : nullptr;
    if (!p)
        throw CompileError(a.argSpan(i), "T.call_extern: " + fn + "'s " + role +
                                             " must be T.access_ptr(buffer, ...)");
    return *p;
}

void requireBits(const AccessPtr& p, int bits, bool floatDst, const std::string& fn,
                 const std::string& role, Span s) {
    ir::DType t = p.buffer->dtype;
    bool ok = ir::dtypeBits(t) == bits && (floatDst ? ir::isFloat(t) : ir::isInt(t));
    if (!ok)
        throw CompileError(s, "T.call_extern: " + fn + " needs a " + std::to_string(bits) +
                                  "-bit " + (floatDst ? "float" : "integer") + " " + role +
                                  " buffer, '" + p.buffer->name + "' is " +
                                  std::string(ir::dtypeName(t)));
}

/// decode_fp4_to_bf16_twiddling(src, dst, N=8): for each group i of 4 bytes, the halves
/// h = byte0<<8|byte1 and byte2<<8|byte3 each hold four E2M1 values in mxfp.py's twiddled bit
/// order (sign, two exponent bits, mantissa bit of element j at the positions below); element
/// j of the first half goes to dst[8i+j], of the second to dst[8i+4+j]. The PTX multiplies the
/// placed bf16 pattern by 2^126 (mul.bf16x2 with 0x7e80): exactly the E2M1 value, whose bf16
/// bits are built here directly (no subnormal arithmetic).
void decodeFp4Twiddling(Elaborator& el, const AccessPtr& src, const AccessPtr& dst, int64_t n,
                        Span s) {
    // (sign bit, exponent shift, mantissa bit) of element j inside a 16-bit half.
    struct Pos { int sign, expShift, mant; };
    const Pos pos[4] = {{15, 7, 6}, {12, 4, 3}, {9, 1, 0}, {14, 10, 13}};
    for (int64_t i = 0; i < n; ++i) {
        for (int half = 0; half < 2; ++half) {
            ir::Expr h = bor(shl(byteAt(el, src, 4 * i + 2 * half, s), 8, s),
                             byteAt(el, src, 4 * i + 2 * half + 1, s), s);
            for (int j = 0; j < 4; ++j) {
                ir::Expr sign = band(shr(h, pos[j].sign, s), 1, s);
                ir::Expr e = band(shr(h, pos[j].expShift, s), 3, s);
                ir::Expr m = band(shr(h, pos[j].mant, s), 1, s);
                // E > 0: exponent E - 1 + 127, mantissa bit m; E == 0: m * 0.5 (bf16 0x3F00).
                ir::Expr normal = bor(shl(ir::add(e, i32(126, s), s), 7, s), shl(m, 6, s), s);
                ir::Expr sub = ir::mul(m, i32(0x3F00, s), s);
                ir::Expr mag = ir::select(ir::binary(ir::BinOp::Eq, e, i32(0, s), s), sub, normal, s);
                ir::Expr bits = bor(shl(sign, 15, s), mag, s);
                ir::Expr value = ir::call("reinterpret", {ir::cast(ir::DType::UInt16, bits, s)},
                                          ir::DType::BFloat16, s);
                int64_t k = 8 * i + 4 * half + j;
                el.storeTo(dst.buffer, unflatten(dst.buffer, element(dst, k, s), s),
                           el.wrap(value), s);
            }
        }
    }
}

/// decode_i4{u,s}_to_f16(src, dst, N=8): lop3.py reads one 32-bit word w (the 4 source bytes,
/// little-endian) and, for i < N/2, writes dst[2i] = nibble i of w's low half and dst[2i+1] =
/// nibble i of its high half (lop3 with 0x64006400 then sub.f16x2: 1024 + q - 1024, or
/// - 1032 when signed, i.e. q - 8). Exact in fp16.
void decodeI4ToF16(Elaborator& el, const AccessPtr& src, const AccessPtr& dst, int64_t n,
                   bool isSigned, Span s) {
    for (int64_t i = 0; i < n / 2; ++i) {
        for (int hi = 0; hi < 2; ++hi) {
            // Nibble i of half `hi`: bits 16*hi + 4i .. +3 of w = byte (2*hi + i/2), nibble i%2.
            ir::Expr byte = byteAt(el, src, 2 * hi + i / 2, s);
            ir::Expr q = band(shr(byte, 4 * (i % 2), s), 0xF, s);
            if (isSigned) q = ir::sub(q, i32(8, s), s);
            el.storeTo(dst.buffer, unflatten(dst.buffer, element(dst, 2 * i + hi, s), s),
                       el.wrap(ir::cast(dst.buffer->dtype, q, s)), s);
        }
    }
}

/// decode_i2{u,s}_to_i8s(src, dst, N=16) (BitNet's 2-bit weights): one 32-bit word w of the 4
/// source bytes; for i < N/4, lop3 keeps bits 2i..2i+1 of every byte ((w >> 2i) & 0x03030303)
/// and __vsub4 subtracts 2 from each byte when signed, so byte j of output word i, i.e.
/// dst[4i+j], is ((src byte j) >> 2i) & 3, minus 2 when signed: [0, 3] or [-2, 1].
void decodeI2ToI8(Elaborator& el, const AccessPtr& src, const AccessPtr& dst, int64_t n,
                  bool isSigned, Span s) {
    for (int64_t i = 0; i < n / 4; ++i)
        for (int64_t j = 0; j < 4; ++j) {
            ir::Expr q = band(shr(byteAt(el, src, j, s), 2 * i, s), 3, s);
            if (isSigned) q = ir::sub(q, i32(2, s), s);
            el.storeTo(dst.buffer, unflatten(dst.buffer, element(dst, 4 * i + j, s), s),
                       el.wrap(ir::cast(dst.buffer->dtype, q, s)), s);
        }
}

bool sourceIsKnown(const std::string& code) {
    for (const char* k : kKnown)
        if (code.find(k) != std::string::npos) return true;
    return false;
}

}  // namespace

void registerExternDecoders(Interp& in) {
    auto T = in.registerModule("tilelang.language");
    T->set("import_source", Value::builtin("T.import_source", [](Interp& i, CallArgs& a) {
               auto b = a.bind({"code"}, 1);
               if (b[0].is(ValueKind::Str) && sourceIsKnown(b[0].asStr())) return Value::none();
               throw CompileError(
                   a.span, "T.import_source is not supported by TileScope yet for this source",
                   "inline CUDA source cannot run on TileScope's interpreters; TileScope models "
                   "only TileLang's dequantize helpers (" + knownList() +
                       "); write other functions in the tile language");
           }));
    // T.access_ptr of an element or region (T.ptx_cp_async's form, ElaboratePtx.cpp) stays with
    // the definition installed before this one; a whole buffer gives call_extern's pointer.
    auto it = T->members.find("access_ptr");
    Value ptxAccessPtr = it != T->members.end() ? it->second : Value::none();
    T->set("access_ptr", Value::builtin("T.access_ptr", [ptxAccessPtr](Interp& i, CallArgs& a) {
               auto& el = dynamic_cast<Elaborator&>(i);
               if (!ptxAccessPtr.isNone() && (a.pos.empty() || !a.pos[0].extAs<BufferValue>()))
                   return i.call(ptxAccessPtr, a);
               auto b = a.bind({"buffer", "access_mask", "ptr_type", "content_lanes", "offset",
                                "extent"}, 1);
               auto* buf = b[0].extAs<BufferValue>();
               if (!buf)
                   throw CompileError(b.spans[0], "T.access_ptr: expected a buffer, got " +
                                                      repr(b[0]));
               if (b.has(1) && !(b[1].is(ValueKind::Str) &&
                                 b[1].asStr().find_first_not_of("rw") == std::string::npos))
                   throw CompileError(b.spans[1], "T.access_ptr: access mask must be \"r\", "
                                                  "\"w\" or \"rw\"");
               ir::Expr off = b.has(4) ? el.toExprLike(b[4], ir::DType::Int32, b.spans[4],
                                                       "T.access_ptr offset")
                                       : i32(0, a.span);
               return Value::ext(std::make_shared<AccessPtr>(buf->buffer, off));
           }));
    // T.dp4a(A, B, C) (tilelang/language/customize.py: call_extern "DP4A" on three pointers):
    // C[0] += sum over k < 4 of A[k] * B[k], int8 lanes into an int32 accumulator (__dp4a, CUDA
    // guide "Integer Intrinsics"; PTX ISA dp4a). Each argument is an element (`A_local[4 * ki]`),
    // a whole buffer (its first element) or T.access_ptr; elaborated to plain int32 arithmetic,
    // so both interpreters run it and codegen emits it like any other expression.
    T->set("dp4a", Value::builtin("T.dp4a", [](Interp& i, CallArgs& a) -> Value {
               auto& el = dynamic_cast<Elaborator&>(i);
               el.requireKernel(a.span, "T.dp4a");
               auto b = a.bind({"A", "B", "C"}, 3);
               struct Elem { ir::Buffer buf; std::vector<ir::Expr> idx; };
               auto elem = [&](int k, ir::DType want, const char* role) {
                   Elem e;
                   if (auto* p = b[k].extAs<AccessPtr>()) {
                       e.buf = p->buffer;
                       e.idx = unflatten(p->buffer, p->offset, b.spans[k]);
                   } else if (auto* bv = b[k].extAs<BufferValue>()) {
                       e.buf = bv->buffer;
                       e.idx.assign(bv->buffer->rank(), i32(0, b.spans[k]));
                   } else {
                       ir::Expr x = el.toExpr(b[k], b.spans[k], std::string("T.dp4a ") + role);
                       auto* l = ir::as<ir::LoadNode>(x);
                       if (!l)
                           throw CompileError(b.spans[k], std::string("T.dp4a: ") + role +
                                                              " must be a buffer element such as A_local[4 * k]",
                                              "pass the element where the four lanes start");
                       e.buf = l->buffer;
                       e.idx = l->indices;
                   }
                   if (e.buf->dtype != want)
                       throw CompileError(b.spans[k], std::string("T.dp4a: ") + role + " '" + e.buf->name +
                                                          "' is " + std::string(ir::dtypeName(e.buf->dtype)) +
                                                          ", dp4a takes " + std::string(ir::dtypeName(want)),
                                          "int8 A and B, an int32 accumulator C (TileLang's rule)");
                   if (e.idx.empty())
                       throw CompileError(b.spans[k], std::string("T.dp4a: ") + role + " has no elements to index");
                   return e;
               };
               Elem A = elem(0, ir::DType::Int8, "A"), B = elem(1, ir::DType::Int8, "B"),
                    C = elem(2, ir::DType::Int32, "C");
               Span s = a.span;
               ir::Expr acc = ir::load(C.buf, C.idx, s);
               for (int64_t k = 0; k < 4; ++k) {
                   auto lane = [&](const Elem& e) {
                       std::vector<ir::Expr> idx = e.idx;
                       idx.back() = ir::add(idx.back(), i32(k, s), s);
                       return ir::cast(ir::DType::Int32, ir::load(e.buf, idx, s), s);
                   };
                   acc = ir::add(acc, ir::mul(lane(A), lane(B), s), s);
               }
               el.storeTo(C.buf, C.idx, el.wrap(acc), s);
               return Value::none();
           }));
    T->set("call_extern", Value::builtin("T.call_extern", [](Interp& i, CallArgs& a) -> Value {
               auto& el = dynamic_cast<Elaborator&>(i);
               el.requireKernel(a.span, "T.call_extern");
               if (a.pos.empty() || !a.pos[0].is(ValueKind::Str))
                   throw CompileError(a.argSpan(0), "T.call_extern: the first argument must be "
                                                    "the function name (a string)");
               for (size_t k = 0; k < a.kw.size(); ++k)
                   if (a.kw[k].first != "dtype")
                       throw CompileError(a.kwSpans[k], "T.call_extern: unexpected keyword '" +
                                                            a.kw[k].first + "'");
               // TVM's signature is call_extern(dtype, func_name, *args); `dtype=` as a keyword
               // moves it in front (tilelang.language.tir.ir._dtype_forward). Without the
               // keyword the function name is the second argument ("handle", "decode_...").
               size_t at = 0;
               bool dtypeKw = false;
               for (auto& kv : a.kw) dtypeKw |= kv.first == "dtype";
               if (!dtypeKw && a.pos.size() > 1 && a.pos[1].is(ValueKind::Str)) at = 1;
               const std::string fn = a.pos[at].asStr();
               bool fp4 = fn == "decode_fp4_to_bf16_twiddling";
               bool i4 = fn == "decode_i4u_to_f16" || fn == "decode_i4s_to_f16";
               bool i2 = fn == "decode_i2u_to_i8s" || fn == "decode_i2s_to_i8s";
               if (!fp4 && !i4 && !i2)
                   throw CompileError(a.argSpan(at), "T.call_extern: '" + fn +
                                                        "' is not a function TileScope models",
                                      "known: " + knownList());
               if (a.pos.size() < at + 3 || a.pos.size() > at + 4)
                   throw CompileError(a.span, "T.call_extern: " + fn +
                                                  " takes (src_ptr, dst_ptr[, N])");
               const AccessPtr& src = pointerArg(a, at + 1, fn, "source");
               const AccessPtr& dst = pointerArg(a, at + 2, fn, "destination");
               int64_t n = i2 ? 16 : 8;
               if (a.pos.size() == at + 4) {
                   if (!a.pos[at + 3].isIntLike() || a.pos[at + 3].asInt() < 1)
                       throw CompileError(a.argSpan(at + 3), "T.call_extern: " + fn +
                                                                 "'s N must be a positive constant");
                   n = a.pos[at + 3].asInt();
               }
               requireBits(src, 8, false, fn, "source", a.argSpan(at + 1));
               if (i2) {
                   requireBits(dst, 8, false, fn, "destination", a.argSpan(at + 2));
                   if (n > 16 || n % 4)
                       throw CompileError(a.argSpan(at + 3), "T.call_extern: " + fn +
                                                                 " decodes one 32-bit word: N must be "
                                                                 "4, 8, 12 or 16");
                   decodeI2ToI8(el, src, dst, n, fn == "decode_i2s_to_i8s", a.span);
               } else if (fp4) {
                   requireBits(dst, 16, true, fn, "destination", a.argSpan(at + 2));
                   if (dst.buffer->dtype != ir::DType::BFloat16)
                       throw CompileError(a.argSpan(at + 2), "T.call_extern: " + fn +
                                                            " writes bfloat16");
                   decodeFp4Twiddling(el, src, dst, n, a.span);
               } else {
                   if (dst.buffer->dtype != ir::DType::Float16)
                       throw CompileError(a.argSpan(at + 2), "T.call_extern: " + fn + " writes float16");
                   if (n > 8 || n % 2)
                       throw CompileError(a.argSpan(at + 3), "T.call_extern: " + fn +
                                                            " decodes one 32-bit word: N must be "
                                                            "2, 4, 6 or 8");
                   decodeI4ToF16(el, src, dst, n, fn == "decode_i4s_to_f16", a.span);
               }
               return Value::none();
           }));
}

}  // namespace ts::fe::elab
