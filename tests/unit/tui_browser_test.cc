#include "core/tui_browser.h"

#include <gtest/gtest.h>

namespace hqt::tui {
namespace {

std::vector<Project> projects(std::initializer_list<int64_t> ids) {
  std::vector<Project> out;
  for (int64_t id : ids) out.push_back({id, "p" + std::to_string(id), "/p", 0});
  return out;
}

std::vector<SessionRow> sessions(std::initializer_list<int64_t> ids) {
  std::vector<SessionRow> out;
  for (int64_t id : ids) {
    SessionRow row;
    row.session.id = id;
    row.status = Status::idle;
    out.push_back(row);
  }
  return out;
}

TEST(Browser, EmptyHasNothingSelected) {
  Browser b;
  EXPECT_EQ(b.project(), nullptr);
  EXPECT_EQ(b.session(), nullptr);
  EXPECT_FALSE(b.move(1));
  b.set_focus(Pane::sessions);
  EXPECT_FALSE(b.move(1));
}

TEST(Browser, FirstProjectsSelectTheFirstAndAskForItsSessions) {
  Browser b;
  EXPECT_TRUE(b.set_projects(projects({4, 7})));
  EXPECT_EQ(b.project()->id, 4);
  EXPECT_FALSE(b.set_projects(projects({4, 7})));
}

TEST(Browser, MovingInTheProjectsChangesTheProject) {
  Browser b;
  b.set_projects(projects({1, 2, 3}));
  b.set_sessions(sessions({10, 11}));
  EXPECT_TRUE(b.move(1));
  EXPECT_EQ(b.project()->id, 2);
  EXPECT_TRUE(b.sessions().empty());  // stale rows of the old project are gone
  EXPECT_FALSE(b.move(5) && b.move(1));
  EXPECT_EQ(b.project()->id, 3);
  EXPECT_FALSE(b.move(1));  // at the end already
  EXPECT_TRUE(b.move_to(false));
  EXPECT_EQ(b.project()->id, 1);
}

TEST(Browser, MovingInTheSessionsKeepsTheProject) {
  Browser b;
  b.set_projects(projects({1, 2}));
  b.set_sessions(sessions({10, 11, 12}));
  b.switch_focus();
  EXPECT_EQ(b.focus(), Pane::sessions);
  EXPECT_FALSE(b.move(1));
  EXPECT_EQ(b.session()->session.id, 11);
  EXPECT_FALSE(b.move_to(true));
  EXPECT_EQ(b.session()->session.id, 12);
  EXPECT_EQ(b.project()->id, 1);
}

TEST(Browser, RefreshKeepsTheSelectionById) {
  Browser b;
  b.set_projects(projects({1, 2, 3}));
  b.move(1);
  EXPECT_FALSE(b.set_projects(projects({0, 1, 2, 3})));  // a new project sorted first
  EXPECT_EQ(b.project()->id, 2);
  b.set_sessions(sessions({10, 11, 12}));
  b.select_session(12);
  b.set_sessions(sessions({11, 12}));
  EXPECT_EQ(b.session()->session.id, 12);
}

TEST(Browser, RemovedSelectionFallsToTheRowAtTheSamePlace) {
  Browser b;
  b.set_projects(projects({1, 2, 3}));
  b.move(2);
  EXPECT_TRUE(b.set_projects(projects({1, 2})));
  EXPECT_EQ(b.project()->id, 2);
  b.set_sessions(sessions({10, 11}));
  b.select_session(11);
  b.set_sessions(sessions({10}));
  EXPECT_EQ(b.session()->session.id, 10);
  b.set_sessions({});
  EXPECT_EQ(b.session(), nullptr);
}

TEST(Browser, SelectProjectById) {
  Browser b;
  b.set_projects(projects({1, 2}));
  EXPECT_TRUE(b.select_project(2));
  EXPECT_FALSE(b.select_project(2));
  EXPECT_FALSE(b.select_project(9));
  EXPECT_EQ(b.project()->id, 2);
}

TEST(Browser, RowsCompareByEverythingShown) {
  auto a = sessions({1});
  auto b = a;
  EXPECT_EQ(a, b);
  b[0].status = Status::working;
  EXPECT_NE(a, b);
  b = a;
  b[0].session.sandbox = SandboxPolicy{};
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace hqt::tui
