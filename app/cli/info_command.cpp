#include "app/cli/info_command.h"

#include <iostream>

#include "core/data/dataset_summary_json.h"
#include "core/data/dataset_summary_text.h"
#include "core/io/dataset_summary_reader.h"
#include "core/util/input_error.h"

namespace apertura::cli {

int runInfo(const InfoOptions& options) {
  try {
    const DatasetSummary s = summarizeDataset(options.path);
    std::cout << (options.json ? summaryToJson(s) + "\n" : formatSummaryText(s));
    return 0;
  } catch (const InputError& e) {
    std::cerr << "apertura-cli info: error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace apertura::cli
