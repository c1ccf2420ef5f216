#include "core/tui_browser.h"

#include <algorithm>

namespace hqt::tui {
namespace {

template <typename Row, typename IdOf>
int keep_selection(const std::vector<Row>& old_rows, int old_index,
                   const std::vector<Row>& new_rows, IdOf id_of) {
  if (new_rows.empty()) return 0;
  if (old_index >= 0 && old_index < static_cast<int>(old_rows.size())) {
    int64_t id = id_of(old_rows[old_index]);
    for (size_t i = 0; i < new_rows.size(); ++i)
      if (id_of(new_rows[i]) == id) return static_cast<int>(i);
  }
  return std::clamp(old_index, 0, static_cast<int>(new_rows.size()) - 1);
}

}  // namespace

bool SessionRow::operator==(const SessionRow& other) const {
  const Session& a = session;
  const Session& b = other.session;
  return status == other.status && a.id == b.id && a.project_id == b.project_id &&
         a.project == b.project && a.harness == b.harness && a.nickname == b.nickname &&
         a.model == b.model && a.sandbox == b.sandbox && a.tmux_session == b.tmux_session &&
         a.harness_session_id == b.harness_session_id && a.created_at == b.created_at;
}

bool Browser::set_projects(std::vector<Project> projects) {
  std::optional<int64_t> before;
  if (const Project* p = project()) before = p->id;
  project_index_ =
      keep_selection(projects_, project_index_, projects, [](const Project& p) { return p.id; });
  projects_ = std::move(projects);
  std::optional<int64_t> after;
  if (const Project* p = project()) after = p->id;
  if (before == after) return false;
  sessions_.clear();
  session_index_ = 0;
  return true;
}

void Browser::set_sessions(std::vector<SessionRow> rows) {
  session_index_ = keep_selection(sessions_, session_index_, rows,
                                  [](const SessionRow& r) { return r.session.id; });
  sessions_ = std::move(rows);
}

const Project* Browser::project() const {
  if (projects_.empty()) return nullptr;
  return &projects_[project_index_];
}

const SessionRow* Browser::session() const {
  if (sessions_.empty()) return nullptr;
  return &sessions_[session_index_];
}

bool Browser::move(int delta) {
  if (focus_ == Pane::sessions) {
    if (!sessions_.empty())
      session_index_ =
          std::clamp(session_index_ + delta, 0, static_cast<int>(sessions_.size()) - 1);
    return false;
  }
  if (projects_.empty()) return false;
  int before = project_index_;
  project_index_ = std::clamp(project_index_ + delta, 0, static_cast<int>(projects_.size()) - 1);
  if (project_index_ == before) return false;
  sessions_.clear();
  session_index_ = 0;
  return true;
}

bool Browser::move_to(bool last) {
  int size = static_cast<int>(focus_ == Pane::sessions ? sessions_.size() : projects_.size());
  return move(last ? size : -size);
}

bool Browser::select_project(int64_t id) {
  for (size_t i = 0; i < projects_.size(); ++i) {
    if (projects_[i].id != id) continue;
    if (static_cast<int>(i) == project_index_) return false;
    project_index_ = static_cast<int>(i);
    sessions_.clear();
    session_index_ = 0;
    return true;
  }
  return false;
}

void Browser::select_session(int64_t id) {
  for (size_t i = 0; i < sessions_.size(); ++i)
    if (sessions_[i].session.id == id) session_index_ = static_cast<int>(i);
}

}  // namespace hqt::tui
