//===- cli/HugePages.cpp - The heap in transparent huge pages -------------===//

#include "cli/HugePages.h"

#ifdef DLAYOUT_HUGE_PAGES
#include <gperftools/malloc_extension.h>
#include <sys/mman.h>

#include <cstddef>

namespace {

constexpr size_t kHugePage = size_t(2) << 20;

/// tcmalloc's own system allocator, asked for whole, aligned huge pages.
class HugePageAllocator : public SysAllocator {
public:
  explicit HugePageAllocator(SysAllocator *inner) : inner_(inner) {}
  void *Alloc(size_t size, size_t *actualSize, size_t alignment) override {
    size = (size + kHugePage - 1) / kHugePage * kHugePage;
    void *p = inner_->Alloc(size, actualSize, alignment < kHugePage ? kHugePage : alignment);
    if (p)
      madvise(p, actualSize ? *actualSize : size, MADV_HUGEPAGE); // advice: may fail
    return p;
  }

private:
  SysAllocator *inner_;
};

} // namespace

void dlayout::cli::useHugePages() {
  MallocExtension *m = MallocExtension::instance();
  SysAllocator *inner = m->GetSystemAllocator();
  if (!inner)
    return;
  static HugePageAllocator huge(inner); // tcmalloc may not allocate to make it
  m->SetSystemAllocator(&huge);
}

#else

void dlayout::cli::useHugePages() {}

#endif
