//===- validate/runtime/ProcessorMesh.cpp - Processors as a Cartesian mesh -------===//
#include "validate/runtime/ProcessorMesh.h"

#include <string>
#include <utility>

namespace dlayout::rt {

namespace {
int log2Exact(int64_t n) {
  if (n < 1 || (n & (n - 1))) return -1;
  int b = 0;
  while ((int64_t{1} << b) < n) ++b;
  return b;
}

std::string shapeStr(std::span<const int64_t> shape) {
  std::string s;
  for (size_t m = 0; m < shape.size(); ++m)
    s += (m ? "x" : "") + std::to_string(shape[m]);
  return s.empty() ? "[]" : s;
}
} // namespace

Result<int64_t> grayNode(std::span<const int64_t> shape,
                         std::span<const int64_t> coords) {
  int64_t node = 0;
  for (size_t m = 0; m < shape.size(); ++m) {
    int b = log2Exact(shape[m]);
    if (b < 0)
      return makeError("Gray-code embedding needs powers of two, mesh " +
                       shapeStr(shape) + " has " + std::to_string(shape[m]) +
                       " along dimension " + std::to_string(m));
    node = (node << b) | static_cast<int64_t>(grayCode(coords[m]));
  }
  return node;
}

Result<std::vector<int64_t>> grayCoords(std::span<const int64_t> shape,
                                        int64_t node) {
  std::vector<int64_t> c(shape.size());
  for (size_t j = shape.size(); j-- > 0;) {
    int b = log2Exact(shape[j]);
    if (b < 0)
      return makeError("Gray-code embedding needs powers of two, mesh " +
                       shapeStr(shape) + " has " + std::to_string(shape[j]) +
                       " along dimension " + std::to_string(j));
    uint64_t field = static_cast<uint64_t>(node) & ((uint64_t{1} << b) - 1);
    c[j] = static_cast<int64_t>(grayDecode(field));
    node >>= b;
  }
  return c;
}

Result<ProcessorMesh> ProcessorMesh::create(MPI_Comm parent,
                                            std::vector<int64_t> shape,
                                            Embedding embedding) {
  int size = 0, prank = 0;
  MPI_Comm_size(parent, &size);
  MPI_Comm_rank(parent, &prank);
  if (shape.empty()) shape.push_back(0);
  std::vector<int> dims(shape.size());
  for (size_t m = 0; m < shape.size(); ++m) {
    if (shape[m] < 0)
      return makeError("processor mesh " + shapeStr(shape) +
                       ": negative extent along dimension " + std::to_string(m));
    dims[m] = static_cast<int>(shape[m]);
  }
  int64_t fixed = 1;
  bool free = false;
  for (auto n : shape) n ? (void)(fixed *= n) : (void)(free = true);
  if (free) {
    if (fixed == 0 || size % fixed != 0)
      return makeError("processor mesh " + shapeStr(shape) + " cannot be completed for " +
                       std::to_string(size) + " processes");
    MPI_Dims_create(size, static_cast<int>(dims.size()), dims.data());
    for (size_t m = 0; m < shape.size(); ++m) shape[m] = dims[m];
  }
  int64_t product = 1;
  for (auto n : shape) product *= n;
  if (product != size)
    return makeError("the layout's processor mesh " + shapeStr(shape) + " has " +
                     std::to_string(product) + " processors, but the job has " +
                     std::to_string(size) + " MPI processes");

  ProcessorMesh mesh;
  mesh.shape_ = shape;
  mesh.embedding_ = embedding;
  mesh.size_ = size;
  std::vector<int> periods(shape.size(), 0);
  MPI_Comm base = parent;
  MPI_Comm split = MPI_COMM_NULL;
  if (embedding == Embedding::GrayCode) {
    auto c = grayCoords(shape, prank);
    if (!c) return c.error();
    // Order the ranks by their mesh coordinates, then a Cartesian
    // communicator without reordering numbers them row-major.
    int key = static_cast<int>(mesh.procOf(*c));
    MPI_Comm_split(parent, 0, key, &split);
    base = split;
  }
  MPI_Cart_create(base, static_cast<int>(dims.size()), dims.data(), periods.data(),
                  0, &mesh.cart_);
  if (split != MPI_COMM_NULL) MPI_Comm_free(&split);
  MPI_Comm_rank(mesh.cart_, &mesh.rank_);
  mesh.coords_ = mesh.coordsOf(mesh.rank_);
  mesh.lines_.resize(shape.size(), MPI_COMM_NULL);
  for (size_t m = 0; m < shape.size(); ++m) {
    std::vector<int> remain(shape.size(), 0);
    remain[m] = 1;
    MPI_Cart_sub(mesh.cart_, remain.data(), &mesh.lines_[m]);
  }
  // MPI: a new communicator inherits its parent's error handler. SMPI
  // (SimGrid 3.32) gives MPI_Comm_split / MPI_Cart_create / MPI_Cart_sub
  // results MPI_ERRORS_ARE_FATAL instead, so the handler is passed on here
  // (the executor's, which reports an erroneous call and ends the job).
  MPI_Errhandler handler;
  MPI_Comm_get_errhandler(parent, &handler);
  MPI_Comm_set_errhandler(mesh.cart_, handler);
  for (auto &c : mesh.lines_) MPI_Comm_set_errhandler(c, handler);
  MPI_Errhandler_free(&handler);
  return mesh;
}

ProcessorMesh::ProcessorMesh(ProcessorMesh &&o) noexcept { *this = std::move(o); }

ProcessorMesh &ProcessorMesh::operator=(ProcessorMesh &&o) noexcept {
  if (this != &o) {
    release();
    cart_ = std::exchange(o.cart_, MPI_COMM_NULL);
    lines_ = std::move(o.lines_);
    o.lines_.clear();
    rank_ = o.rank_;
    size_ = o.size_;
    shape_ = std::move(o.shape_);
    coords_ = std::move(o.coords_);
    embedding_ = o.embedding_;
    counters_ = o.counters_;
    tagSeq_ = o.tagSeq_;
  }
  return *this;
}

ProcessorMesh::~ProcessorMesh() { release(); }

void ProcessorMesh::release() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    for (auto &c : lines_)
      if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
    if (cart_ != MPI_COMM_NULL) MPI_Comm_free(&cart_);
  }
  lines_.clear();
  cart_ = MPI_COMM_NULL;
}

std::vector<int64_t> ProcessorMesh::coordsOf(int64_t proc) const {
  std::vector<int64_t> c(shape_.size());
  for (size_t j = shape_.size(); j-- > 0;) {
    c[j] = proc % shape_[j];
    proc /= shape_[j];
  }
  return c;
}

int64_t ProcessorMesh::procOf(std::span<const int64_t> coords) const {
  int64_t p = 0;
  for (size_t m = 0; m < shape_.size(); ++m) p = p * shape_[m] + coords[m];
  return p;
}

int64_t ProcessorMesh::neighbour(int m, int64_t disp) const {
  auto c = coords_;
  c[m] += disp;
  if (c[m] < 0 || c[m] >= shape_[m]) return -1;
  return procOf(c);
}

int64_t ProcessorMesh::parentRank(int64_t proc) const {
  if (embedding_ == Embedding::Natural) return proc;
  auto n = grayNode(shape_, coordsOf(proc));
  return n ? *n : -1;
}

} // namespace dlayout::rt
