#pragma once

// Internal to core/pipeline: how a cube run (imaging.spectral_mode cube) cuts the selected
// channels into image planes and gives each plane its own chunk sequence.
#include <memory>
#include <vector>

#include "core/data/chunk_sequence.h"
#include "core/data/visibility_chunk.h"
#include "core/engine/communicator.h"
#include "core/rml/chunk_chi2_term.h"

namespace apertura::pipeline {

struct RunData;

// One image plane: channels [first_channel, first_channel + num_channels) of the selected
// channels of one spectral window (indices into VisibilityChunk::frequencies_hz).
struct CubePlane {
  int spectral_window = 0;
  std::size_t first_channel = 0;
  std::size_t num_channels = 0;
  double frequency_hz = 0.0;  // mean of the plane's channels
  // From the lowest channel's lower edge to the highest channel's upper edge (channel centres
  // -/+ half the window's channel width; without a width, highest minus lowest centre).
  double bandwidth_hz = 0.0;
};

// The selected channel frequencies of each spectral window, as the chunks show them.
struct SpectralWindowChannels {
  int spectral_window = 0;
  std::vector<double> frequencies_hz;
  double channel_width_hz = 0.0;  // |CHAN_WIDTH| (0: not known)
};

// Every spectral window of the sequence, in order of first appearance. Throws InputError when two
// chunks of one spectral window disagree about its channels.
std::vector<SpectralWindowChannels> spectralWindowsOf(ChunkSequence& chunks);

// A distributed run: the windows of every rank's chunks, the same list on every rank (in rank
// order, which is the order of first appearance in one process: the ranks hold consecutive rows).
// Throws InputError on every rank when two ranks disagree about a window's channels.
std::vector<SpectralWindowChannels> windowsOfEveryRank(
    const std::vector<SpectralWindowChannels>& own, engine::Communicator& comm);

// Groups `channels_per_plane` adjacent channels of each window into a plane (the last plane of a
// window may hold fewer); planes never mix windows and are ordered by frequency.
std::vector<CubePlane> cubePlanes(const std::vector<SpectralWindowChannels>& windows,
                                  int channels_per_plane);

// The rows of `chunk` with only the plane's channels.
VisibilityChunk sliceChannels(const VisibilityChunk& chunk, const CubePlane& plane);

// A plane's chunks cut on the fly from another sequence (streamed data: one read per pass).
class PlaneChunks final : public ChunkSequence {
 public:
  PlaneChunks(ChunkSequence& all, CubePlane plane) : all_(all), plane_(plane) {}
  void forEach(const Visitor& visit) override;
  bool held() const override { return false; }

 private:
  ChunkSequence& all_;
  CubePlane plane_;
};

// The planes of a run and their visibilities: held per plane (resident data, cut once; the run's
// own chunks are released while they are cut) or cut on every pass (streaming). In a distributed
// run every rank has every plane (some perhaps without samples) and the totals of all ranks.
struct CubeData {
  std::vector<CubePlane> planes;
  std::vector<std::vector<VisibilityChunk>> held;         // per plane, resident only
  std::vector<std::unique_ptr<ChunkSequence>> sequences;  // per plane
  std::vector<rml::DataTotals> totals;                    // per plane
};

CubeData splitIntoPlanes(RunData& data, int channels_per_plane);

}  // namespace apertura::pipeline
