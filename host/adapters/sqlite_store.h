#pragma once
#include <memory>
#include <string>

#include "core/store.h"

namespace hqt {

// Opens (creating and migrating when needed) the SQLite database at `path`. Throws Error naming
// the file when it is newer than this program, not SQLite, or corrupted; the file is untouched.
std::unique_ptr<Store> open_sqlite_store(const std::string& path);

}  // namespace hqt
