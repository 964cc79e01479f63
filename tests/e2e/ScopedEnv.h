// An environment variable set for one scope: the measurement switches of the Hopper path
// (TILESCOPE_HOPPER_WS, TILESCOPE_HOPPER_NO_FRAGMENT_TMA, TILESCOPE_HOPPER_PINGPONG) that the
// compiler reads at compile time.
#pragma once
#include <cstdlib>
#include <string>

namespace ts::e2e {

/// Sets `n` to `v` now and unsets it at the end of the scope.
struct ScopedEnv {
    std::string name;
    ScopedEnv(const char* n, const char* v) : name(n) { setenv(n, v, 1); }
    ~ScopedEnv() { unsetenv(name.c_str()); }
};

}  // namespace ts::e2e
