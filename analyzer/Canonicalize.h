//===- analyzer/Canonicalize.h - IR in the form the analysis reads -*- C++ -*-===//
//
// Compilers at -O0 keep every variable in memory. canonicalize() promotes
// scalars to SSA (debug info follows them as dbg.value), simplifies the
// arithmetic and the control flow, and puts loops in simplified LCSSA form,
// so that ScalarEvolution sees induction variables, bounds and addresses.
// It does not unroll, vectorise or interchange: the loops stay the source's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"

#include "llvm/IR/Module.h"

namespace dlayout {

Status canonicalize(llvm::Module &M);

} // namespace dlayout
