// Whether a source file's bytes are text a tile program can be: UTF-8 without NUL bytes. The
// compiler reports the first offending byte as an error (a binary file gets one clear error
// instead of hundreds of lexer errors); the IDE refuses to open such a file, since its editor
// would replace the byte with U+FFFD and a save would silently lose it.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "compiler/support/Source.h"

namespace ts {

/// The first NUL byte or malformed UTF-8 sequence of a file's bytes.
struct NonTextByte {
    Span at;              ///< line and column (columns in code points, as diagnostics count them)
    size_t offset = 0;    ///< byte offset in the file
    unsigned char byte = 0;
};

/// The first byte that is NUL or starts no valid UTF-8 character, if any.
std::optional<NonTextByte> firstNonTextByte(const std::string& bytes);

}  // namespace ts
