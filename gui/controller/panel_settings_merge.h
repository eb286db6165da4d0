#pragma once

#include "core/project/project_settings.h"

namespace apertura::gui {

// The run settings panel edits only some fields of a project, and some of them with less range or
// precision than the file holds (one image size for nx and ny, two decimals for robust, four
// regularizer types without their parameters). To keep a loaded project intact, a field takes the
// panel's value only when the user changed it:
//   base   - the project as loaded or last saved,
//   shown  - what the panel returned for `base` right after showing it,
//   edited - what the panel returns now.
// Regularizers the panel cannot show (other types, parameters, use_mask) are kept from `base`.
apertura::project::ProjectSettings mergePanelEdits(
    const apertura::project::ProjectSettings& base, const apertura::project::ProjectSettings& shown,
    const apertura::project::ProjectSettings& edited);

}  // namespace apertura::gui
