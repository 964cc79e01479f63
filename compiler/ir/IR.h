// Umbrella header of the Tile IR: nodes (Expr.h, Buffer.h, Stmt.h, Layout.h), constructors with
// folding (Builder.h), rewriting/visiting (Functor.h), printing (Printer.h), verification
// (Verifier.h). Elaboration builds PrimFuncs with the Builder helpers; passes rewrite them with
// Mutator and must return the same pointer when they change nothing.
#pragma once
#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Layout.h"
#include "compiler/ir/Printer.h"
#include "compiler/ir/Stmt.h"
