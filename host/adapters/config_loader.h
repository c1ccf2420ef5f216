#pragma once
#include <string>

#include "core/config.h"

namespace hqt {

// Loads the YAML config at `path`. A missing file gives the defaults (with Config::path = "").
// Throws UsageError naming the file, the line and the key for syntax errors, unknown keys and
// wrong types.
Config load_config(const std::string& path);

}  // namespace hqt
