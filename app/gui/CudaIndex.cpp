// libclang outline and go-to-definition over generated CUDA (CudaIndex.h).
#include "app/gui/CudaIndex.h"

#if TS_HAVE_LIBCLANG
#include <clang-c/Index.h>
#endif

#include <cstring>
#include <filesystem>

namespace ts::gui {

#if TS_HAVE_LIBCLANG

namespace {

// Virtual paths: the files exist only as libclang "unsaved files".
constexpr const char* kDir = "/tilescope-virtual";
const std::string kKernel = std::string(kDir) + "/kernel.cu";
const std::string kHeader = std::string(kDir) + "/ts_device.cuh";
const std::string kPrelude = std::string(kDir) + "/ts_clang_prelude.h";

const char* kPreludeText =
    "#define __CUDACC__ 1\n"
    "#define __host__ __attribute__((host))\n"
    "#define __device__ __attribute__((device))\n"
    "#define __global__ __attribute__((global))\n"
    "#define __shared__ __attribute__((shared))\n"
    "#define __constant__ __attribute__((constant))\n"
    "#define __forceinline__ __inline__ __attribute__((always_inline))\n"
    "#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))\n"
    "#include \"__clang_cuda_builtin_vars.h\"\n";

std::string str(CXString s) {
    const char* c = clang_getCString(s);
    std::string out = c ? c : "";
    clang_disposeString(s);
    return out;
}

std::string fileOf(CXSourceLocation loc, unsigned* line, unsigned* col) {
    CXFile f;
    clang_getSpellingLocation(loc, &f, line, col, nullptr);
    std::string name = f ? str(clang_getFileName(f)) : std::string();
    return std::filesystem::path(name).filename().string();
}

struct OutlineCtx {
    std::vector<OutlineItem>* out;
    int depth;
};

CXChildVisitResult outlineVisit(CXCursor c, CXCursor, CXClientData data) {
    auto* ctx = static_cast<OutlineCtx*>(data);
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    CXCursorKind k = clang_getCursorKind(c);
    unsigned line = 0, col = 0;
    fileOf(clang_getCursorLocation(c), &line, &col);
    if (k == CXCursor_LinkageSpec || k == CXCursor_Namespace || k == CXCursor_UnexposedDecl) {
        clang_visitChildren(c, outlineVisit, ctx);  // extern "C" { ... }
        return CXChildVisit_Continue;
    }
    if (ctx->depth == 0 && (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate)) {
        bool kernel = false;
        clang_visitChildren(
            c,
            [](CXCursor a, CXCursor, CXClientData d) {
                if (clang_getCursorKind(a) == CXCursor_CUDAGlobalAttr)
                    *static_cast<bool*>(d) = true;
                return CXChildVisit_Continue;
            },
            &kernel);
        ctx->out->push_back({str(clang_getCursorSpelling(c)),
                             kernel                           ? "kernel"
                             : k == CXCursor_FunctionTemplate ? "template"
                                                              : "function",
                             int(line), 0});
        if (kernel && clang_isCursorDefinition(c)) {
            // The kernel's top-level declarations (shared tiles, fragments): its "members".
            OutlineCtx inner{ctx->out, 1};
            clang_visitChildren(
                c,
                [](CXCursor b, CXCursor, CXClientData d) {
                    if (clang_getCursorKind(b) != CXCursor_CompoundStmt)
                        return CXChildVisit_Continue;
                    clang_visitChildren(
                        b,
                        [](CXCursor s, CXCursor, CXClientData d2) {
                            if (clang_getCursorKind(s) != CXCursor_DeclStmt)
                                return CXChildVisit_Continue;
                            clang_visitChildren(
                                s,
                                [](CXCursor v, CXCursor, CXClientData d3) {
                                    if (clang_getCursorKind(v) == CXCursor_VarDecl) {
                                        auto* o = static_cast<OutlineCtx*>(d3);
                                        unsigned l = 0, cc = 0;
                                        fileOf(clang_getCursorLocation(v), &l, &cc);
                                        o->out->push_back({str(clang_getCursorSpelling(v)),
                                                           "variable", int(l), 1});
                                    }
                                    return CXChildVisit_Continue;
                                },
                                d2);
                            return CXChildVisit_Continue;
                        },
                        d);
                    return CXChildVisit_Continue;
                },
                &inner);
        }
    }
    return CXChildVisit_Continue;
}

}  // namespace

struct CudaIndex::Impl {
    CXIndex index = nullptr;
    CXTranslationUnit tu = nullptr;
    std::string cuda, header;  // kept alive: libclang references unsaved-file buffers
    ~Impl() {
        if (tu) clang_disposeTranslationUnit(tu);
        if (index) clang_disposeIndex(index);
    }
};

bool CudaIndex::available() { return true; }

std::unique_ptr<CudaIndex> CudaIndex::parse(const std::string& cuda,
                                            const std::string& deviceHeader, std::string* error) {
    std::unique_ptr<CudaIndex> self(new CudaIndex);
    self->m_impl = std::make_unique<Impl>();
    Impl& im = *self->m_impl;
    im.cuda = cuda;
    im.header = deviceHeader;
    im.index = clang_createIndex(/*excludeDeclarationsFromPCH=*/0, /*displayDiagnostics=*/0);
    std::string inc = std::string("-I") + kDir;
    std::string preludeArg = kPrelude;
    const char* args[] = {"-x",
                          "cuda",
                          "--cuda-device-only",
                          "-nocudainc",
                          "-nocudalib",
                          "--cuda-gpu-arch=sm_80",
                          "-std=c++17",
                          "-Wno-unknown-cuda-version",
                          inc.c_str(),
                          "-include",
                          preludeArg.c_str()};
    CXUnsavedFile files[3] = {
        {kKernel.c_str(), im.cuda.c_str(), static_cast<unsigned long>(im.cuda.size())},
        {kHeader.c_str(), im.header.c_str(), static_cast<unsigned long>(im.header.size())},
        {kPrelude.c_str(), kPreludeText, static_cast<unsigned long>(std::strlen(kPreludeText))},
    };
    CXErrorCode rc = clang_parseTranslationUnit2(im.index, kKernel.c_str(), args,
                                                 int(sizeof(args) / sizeof(args[0])), files, 3,
                                                 CXTranslationUnit_KeepGoing, &im.tu);
    if (rc != CXError_Success || !im.tu) {
        if (error)
            *error = "libclang could not parse the generated code (error " +
                     std::to_string(int(rc)) + ")";
        return nullptr;
    }
    OutlineCtx ctx{&self->m_outline, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(im.tu), outlineVisit, &ctx);
    return self;
}

CudaIndex::~CudaIndex() = default;

std::optional<CodeLocation> CudaIndex::definitionAt(const std::string& file, int line,
                                                    int col) const {
    const std::string& path = file == "ts_device.cuh" ? kHeader : kKernel;
    CXFile f = clang_getFile(m_impl->tu, path.c_str());
    if (!f) return std::nullopt;
    CXSourceLocation loc = clang_getLocation(m_impl->tu, f, unsigned(line), unsigned(col));
    CXCursor c = clang_getCursor(m_impl->tu, loc);
    if (clang_Cursor_isNull(c)) return std::nullopt;
    CXCursor target = clang_getCursorDefinition(c);
    if (clang_Cursor_isNull(target)) target = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(target) || clang_isInvalid(clang_getCursorKind(target)))
        return std::nullopt;
    unsigned l = 0, cc = 0;
    std::string name = fileOf(clang_getCursorLocation(target), &l, &cc);
    if (name != "kernel.cu" && name != "ts_device.cuh") return std::nullopt;  // builtins
    return CodeLocation{name, int(l), int(cc)};
}

#else  // !TS_HAVE_LIBCLANG

struct CudaIndex::Impl {};
bool CudaIndex::available() { return false; }
std::unique_ptr<CudaIndex> CudaIndex::parse(const std::string&, const std::string&,
                                            std::string* error) {
    if (error) *error = "this build has no libclang (Debian: apt-get install libclang-dev)";
    return nullptr;
}
CudaIndex::~CudaIndex() = default;
std::optional<CodeLocation> CudaIndex::definitionAt(const std::string&, int, int) const {
    return std::nullopt;
}

#endif

}  // namespace ts::gui
