#pragma once

#include <memory>

#include "core/engine/communicator.h"
#include "core/engine/engine.h"
#include "core/pipeline/imaging_pipeline.h"
#include "core/project/project_settings.h"

namespace apertura::testing {

// How a whole imaging run ended, with what it produced (images, sample counts).
struct PipelineRun {
  engine::RunOutcome outcome;
  std::shared_ptr<pipeline::ImagingProducts> products;

  bool finished() const { return outcome.state == engine::RunState::Finished; }
};

// Runs the imaging pipeline for `s` in an Engine and waits for its end. `observer` sees its
// events (a plain RunObserver when null); `comm` distributes it (one process by default).
PipelineRun runImagingPipeline(const project::ProjectSettings& s,
                               std::shared_ptr<engine::RunObserver> observer = nullptr,
                               engine::Communicator& comm = engine::singleProcessCommunicator());

}  // namespace apertura::testing
