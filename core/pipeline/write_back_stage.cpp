#include "core/engine/rank_agreement.h"
#include "core/io/ms_model_writer.h"
#include "core/io/selection.h"
#include "core/pipeline/pipeline_stages.h"

namespace apertura::pipeline {
namespace {

std::string writeBackTarget(const project::ProjectSettings& s) {
  const auto& o = s.output;
  return o.model_in_place ? s.data.path
                          : (o.model_ms.empty() ? o.prefix + "-model.ms" : o.model_ms);
}

// Writes per-chunk values (model or residual visibilities) into one column of `ms`.
void writeColumn(const project::ProjectSettings& s, const RunData& data, const std::string& ms,
                 const std::string& output, bool in_place, const std::string& column,
                 std::vector<std::vector<std::complex<float>>>& values) {
  ModelWriteRequest r;
  r.input_path = ms;
  r.output_path = output;
  r.in_place = in_place;
  r.column = column;
  r.product = parseProduct(s.data.product).value_or(Product::I);
  const std::size_t chunks = data.streaming ? data.streamed_rows.size() : data.chunks.size();
  for (std::size_t b = 0; b < chunks && b < values.size(); ++b) {
    ModelBlock block;
    block.source_rows =
        data.streaming ? data.streamed_rows[b].source_rows : data.chunks[b].source_rows;
    block.channel_start = static_cast<std::size_t>(s.data.channel_start);
    block.frequencies_hz =
        data.streaming ? data.streamed_rows[b].frequencies_hz : data.chunks[b].frequencies_hz;
    block.values = std::move(values[b]);
    r.blocks.push_back(std::move(block));
  }
  values.clear();
  writeModelColumn(r);
}

// Model and residual visibilities go into a copy of the input (<prefix>-model.ms unless named),
// or into the input itself only when the project says so. `copy_made`: an earlier process has
// made the copy already (and written its rows).
void writeVisibilitiesBack(const project::ProjectSettings& s, const RunData& data,
                           ImagingProducts& p, bool copy_made) {
  const auto& o = s.output;
  const std::string target = writeBackTarget(s);
  bool target_exists = o.model_in_place || copy_made;  // else the copy is made by the first write
  if (o.write_model_column) {
    writeColumn(s, data, target_exists ? target : s.data.path, target_exists ? "" : target,
                target_exists, o.model_column, p.model_visibilities);
    target_exists = true;
  }
  if (o.write_residual_column) {
    writeColumn(s, data, target_exists ? target : s.data.path, target_exists ? "" : target,
                target_exists, o.residual_column, p.residual_visibilities);
  }
  if (!copy_made)
    p.written_files.push_back(o.model_in_place ? s.data.path + " (columns)" : target);
}

}  // namespace

bool writesVisibilitiesBack(const project::ProjectSettings& s) {
  const auto& o = s.output;
  return (o.write_model_column || o.write_residual_column) &&
         (!o.prefix.empty() || o.model_in_place || !o.model_ms.empty());
}

void writeBackStage(engine::RunContext& ctx, const RunData& data, ImagingProducts& p) {
  const auto& s = ctx.settings();
  if (!writesVisibilitiesBack(s))
    return;
  engine::Communicator& comm = *data.comm;
  if (!data.distributed()) {
    writeVisibilitiesBack(s, data, p, false);
    return;
  }
  // Each rank holds the model of its own rows. A Measurement Set takes one writer at a time, so
  // the ranks write in turn: rank 0 makes the copy (rows of other ranks are zero in a new
  // column), the others then write their rows into it. A failure on any rank stops every rank
  // at the end of that turn, with that rank's message.
  for (int turn = 0; turn < comm.size(); ++turn) {
    engine::runOnEveryRank(comm, [&] {
      if (comm.rank() == turn)
        writeVisibilitiesBack(s, data, p, turn > 0);
    });
  }
}

}  // namespace apertura::pipeline
