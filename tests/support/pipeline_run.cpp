#include "tests/support/pipeline_run.h"

#include <utility>

namespace apertura::testing {

PipelineRun runImagingPipeline(const project::ProjectSettings& s,
                               std::shared_ptr<engine::RunObserver> observer,
                               engine::Communicator& comm) {
  PipelineRun run;
  run.products = std::make_shared<pipeline::ImagingProducts>();
  if (!observer)
    observer = std::make_shared<engine::RunObserver>();
  engine::Engine engine;
  engine.start(s, pipeline::makeImagingPipeline(run.products, comm), std::move(observer));
  run.outcome = engine.wait();
  return run;
}

}  // namespace apertura::testing
