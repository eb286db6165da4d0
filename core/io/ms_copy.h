#pragma once

#include <functional>
#include <string>

namespace apertura {

// Writes a modified copy of the Measurement Set (or UVFITS file) at `input` to `output`: the input
// is copied to a temporary sibling of the output, `write` changes that copy, and the copy is
// renamed to `output`, so the input is never modified and no half-written output appears. An
// existing output is refused unless `replace_existing` (then it is removed once the copy is
// complete). `what` says what is being written, for messages. Errors are InputErrors naming the
// output.
void writeIntoCopy(const std::string& input, const std::string& output, bool replace_existing,
                   const std::string& what, const std::function<void(const std::string&)>& write);

}  // namespace apertura
