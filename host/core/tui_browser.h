#pragma once
// The main screen's state: the projects, the selected project's sessions, which list has the
// focus and what is selected in each. Selections follow ids, so a refresh that adds or removes
// rows keeps the same project and session selected. Pure.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tui_keys.h"
#include "core/types.h"

namespace hqt::tui {

struct SessionRow {
  Session session;
  std::optional<Status> status;  // nullopt when it could not be read
  bool operator==(const SessionRow& other) const;
};

class Browser {
 public:
  // Both keep the selected row (by id) when it is still there, else the row at the same place.
  // set_projects returns true when that makes another project selected (its sessions are
  // cleared then: the caller loads them).
  bool set_projects(std::vector<Project> projects);
  void set_sessions(std::vector<SessionRow> rows);

  const std::vector<Project>& projects() const { return projects_; }
  const std::vector<SessionRow>& sessions() const { return sessions_; }
  const Project* project() const;     // nullptr when there is none
  const SessionRow* session() const;  // nullptr when there is none
  int project_index() const { return project_index_; }
  int session_index() const { return session_index_; }

  Pane focus() const { return focus_; }
  void set_focus(Pane pane) { focus_ = pane; }
  void switch_focus() { focus_ = focus_ == Pane::projects ? Pane::sessions : Pane::projects; }

  // Moves the selection of the focused list by `delta` rows (clamped), or to its first / last
  // row. Returns true when the selected project changed: its sessions must be loaded.
  bool move(int delta);
  bool move_to(bool last);

  // Selects the project / session with this id when it is listed. The caller loads the
  // sessions of a newly selected project.
  bool select_project(int64_t id);
  void select_session(int64_t id);

 private:
  std::vector<Project> projects_;
  std::vector<SessionRow> sessions_;
  int project_index_ = 0;
  int session_index_ = 0;
  Pane focus_ = Pane::projects;
};

}  // namespace hqt::tui
