/* A damaged plugin: its description points at memory that is not there. Reading it crashes, so
 * Apertura must find that out in a test process and refuse the library, not crash itself. */
#include <stdint.h>

#include "core/plugin/plugin_api.h"

static AperturaPluginV2 kPlugin;

APERTURA_PLUGIN_EXPORT const AperturaPluginV2* apertura_plugin_entry(void) {
  kPlugin.abi_version = APERTURA_PLUGIN_ABI_VERSION;
  kPlugin.descriptor_size = sizeof(AperturaPluginV2);
  kPlugin.magic = APERTURA_PLUGIN_MAGIC;
  kPlugin.name = (const char*)(uintptr_t)16; /* an address no process maps */
  return &kPlugin;
}
