// Moved to compiler/target/Target.h (the target is the instruction selector, DESIGN.md §2a);
// this shim keeps older includes building.
#pragma once
#include "compiler/target/Target.h"
