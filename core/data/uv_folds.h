#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/data/chunk_sequence.h"

namespace apertura {

// Cross-validation folds made of uv cells. The uv plane (in wavelengths) is cut into square cells
// and each cell goes, by a hash of its index, to one of `folds` folds: every sample of a cell is
// in the same fold, so a held-out sample has no neighbour within a cell in the training set that
// would see the same Fourier component. (u, v) and (-u, -v) are one component of a real sky and
// fall in the same cell. The assignment depends only on (u, v), so every process of a distributed
// run and every cube plane agrees on it.
class UvFolds {
 public:
  UvFolds(int folds, double cell_wavelengths);
  int folds() const { return folds_; }
  double cellWavelengths() const { return cell_; }
  int foldOf(double u_wavelengths, double v_wavelengths) const;
  // The fold of every sample of `c` (row-major, as its weights).
  void assign(const VisibilityChunk& c, std::vector<std::uint8_t>& fold) const;

 private:
  int folds_;
  double cell_;
};

// The samples of one fold of another sequence (`held_out`: the validation set), or those of every
// other fold (the training set): the other samples' weights are zero, everything else is the
// base's. A held base's training set is copied once and is held itself (a data term plans it
// once); otherwise each pass copies the base's chunk and zeroes its weights.
class FoldSelection final : public ChunkSequence {
 public:
  FoldSelection(ChunkSequence& base, const UvFolds& folds, int fold, bool held_out);
  void forEach(const Visitor& visit) override;
  bool held() const override { return !copies_.empty(); }

 private:
  void select(const VisibilityChunk& from, VisibilityChunk& into);

  ChunkSequence& base_;
  const UvFolds& folds_;
  int fold_;
  bool held_out_;
  std::vector<VisibilityChunk> copies_;  // a held base's training set
  VisibilityChunk scratch_;              // the chunk of the pass in progress
  std::vector<std::uint8_t> fold_of_;    // its samples' folds
};

}  // namespace apertura
