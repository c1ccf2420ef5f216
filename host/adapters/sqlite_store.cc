#include "adapters/sqlite_store.h"

#include "core/error.h"

namespace hqt {
std::unique_ptr<Store> open_sqlite_store(const std::string& path) {
  throw Error("store not built yet: " + path);
}
}  // namespace hqt
