//===- cli/HugePages.h - The heap in transparent huge pages -----*- C++ -*-===//
//
// A run of dlayout touches tens of megabytes of fresh heap -- each Z3
// context two 8 MB tables, the optimiser's threads and the estimator's
// tables the rest -- and a page fault for every 4 KiB of it, which is dear
// on a virtual machine (advise of samples/c/lu.c: some 8,000 faults, a
// third of its time). useHugePages() has tcmalloc's heap grow in 2 MiB
// steps the kernel is asked to back with transparent huge pages
// (madvise MADV_HUGEPAGE, which the kernel's default THP mode, "madvise",
// honours; under "never" nothing changes): a fault per 2 MiB. Without
// tcmalloc (the sanitizers' builds) it does nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace dlayout::cli {

/// Call first thing in main(): what was allocated before stays as it is.
void useHugePages();

} // namespace dlayout::cli
