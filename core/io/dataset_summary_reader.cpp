#include "core/io/dataset_summary_reader.h"

#include "core/io/dataset_format.h"
#include "core/io/ms_summary.h"
#include "core/io/uvfits_summary.h"

namespace apertura {

DatasetSummary summarizeDataset(const std::string& path) {
  return detectDatasetFormat(path) == DatasetFormat::kMeasurementSet ? summarizeMeasurementSet(path)
                                                                     : summarizeUvfits(path);
}

}  // namespace apertura
