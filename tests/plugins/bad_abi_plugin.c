/* A test plugin with a future interface version: Apertura must refuse it before reading on. */
#include "core/plugin/plugin_api.h"

static const AperturaPluginV2 kPlugin = {99, 0, 0, "future", "9.9", "from the future", 0, 0,
                                         0,  0, 0, 0,        0};

APERTURA_PLUGIN_EXPORT const AperturaPluginV2* apertura_plugin_entry(void) {
  return &kPlugin;
}
