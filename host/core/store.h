#pragma once
// Persistence of projects and sessions. The SQLite adapter implements it; the core only sees this.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace hqt {

class Store {
 public:
  virtual ~Store() = default;

  // Throws UsageError naming the clash when the name or the path is already registered.
  virtual Project add_project(const std::string& name, const std::string& canonical_path) = 0;
  virtual std::vector<Project> projects() = 0;
  // Looks a project up by name, else by numeric id.
  virtual std::optional<Project> find_project(std::string_view name_or_id) = 0;
  virtual void remove_project(int64_t project_id) = 0;

  // Inserts the row and assigns id, tmux_session ("hqt-<id>"), created_at and, when it has none,
  // the nickname "<harness>-<id>"; returns the row.
  virtual Session add_session(const Session& session) = 0;
  virtual std::vector<Session> sessions(std::optional<int64_t> project_id = std::nullopt) = 0;
  virtual std::optional<Session> find_session(int64_t session_id) = 0;
  virtual void set_harness_session_id(int64_t session_id,
                                      const std::string& harness_session_id) = 0;
  virtual void rename_session(int64_t session_id, const std::string& nickname) = 0;
  virtual void remove_session(int64_t session_id) = 0;

  // Moves what was committed into the database file now rather than when the store closes (a
  // short-lived process then exits sooner). Best effort, never throws: what it leaves, closing
  // does. May run on another thread as long as no other call is made meanwhile.
  virtual void flush() = 0;
};

}  // namespace hqt
