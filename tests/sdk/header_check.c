/* Compiled as C11 and as C++17 with -pedantic -Werror by ctest (sdk.header_*). */
#include <hqt/plugin.h>
#include <string.h>

static const hqt_version kVersion = HQT_ABI_VERSION;

int hqt_header_check(void);
int hqt_header_check(void) {
  hqt_harness harness;
  hqt_plugin_entry entry = {kVersion, "x", "1", 0, 0, 0};
  memset(&harness, 0, sizeof harness);
  return (int)(harness.struct_size + entry.abi.major) + HQT_STATUS_IDLE;
}
