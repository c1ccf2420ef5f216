#include "core/tui_layout.h"

#include <gtest/gtest.h>

namespace hqt::tui {
namespace {

bool inside(const Rect& r, int rows, int cols) {
  return r.y >= 0 && r.x >= 0 && r.y + r.h <= rows && r.x + r.w <= cols;
}

bool overlap(const Rect& a, const Rect& b) {
  return a.y < b.y + b.h && b.y < a.y + a.h && a.x < b.x + b.w && b.x < a.x + a.w;
}

TEST(Layout, PartsTileTheScreenWithoutOverlap) {
  for (auto [rows, cols] : {std::pair{40, 120}, {24, 80}, {12, 50}, {100, 300}}) {
    Layout l = main_layout(rows, cols);
    ASSERT_FALSE(l.too_small) << rows << "x" << cols;
    std::vector<Rect> parts{l.title, l.projects, l.sessions, l.preview, l.hints, l.notice};
    int area = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
      EXPECT_TRUE(inside(parts[i], rows, cols)) << i;
      EXPECT_FALSE(parts[i].empty()) << i;
      area += parts[i].h * parts[i].w;
      for (size_t j = i + 1; j < parts.size(); ++j) EXPECT_FALSE(overlap(parts[i], parts[j]));
    }
    EXPECT_EQ(area, rows * cols);
    EXPECT_EQ(l.notice.y, rows - 1);
    EXPECT_EQ(l.hints.y, rows - 2);
    EXPECT_GE(l.sessions.inner().h, 3);
    EXPECT_GE(l.preview.inner().h, 2);
  }
}

TEST(Layout, ProjectsColumnStaysReadable) {
  EXPECT_EQ(main_layout(40, 60).projects.w, 20);
  EXPECT_EQ(main_layout(40, 400).projects.w, 36);
}

TEST(Layout, TooSmallKeepsOnlyTheNotice) {
  Layout l = main_layout(5, 30);
  EXPECT_TRUE(l.too_small);
  EXPECT_EQ(l.notice, (Rect{4, 0, 1, 30}));
  EXPECT_TRUE(main_layout(0, 0).notice.empty());
}

TEST(Layout, CenteredBoxShrinksToTheScreen) {
  EXPECT_EQ(centered(40, 120, 10, 60), (Rect{15, 30, 10, 60}));
  EXPECT_EQ(centered(8, 30, 10, 60), (Rect{0, 0, 8, 30}));
}

TEST(Layout, ScrollKeepsTheSelectionVisibleWithoutJumping) {
  EXPECT_EQ(scroll_top(3, 10, 20), 0);
  EXPECT_EQ(scroll_top(4, 10, 5), 0);
  EXPECT_EQ(scroll_top(5, 10, 5), 1);
  EXPECT_EQ(scroll_top(9, 10, 5), 5);
  EXPECT_EQ(scroll_top(6, 10, 5, 5), 5);  // still visible: no jump
  EXPECT_EQ(scroll_top(2, 10, 5, 5), 2);
  EXPECT_EQ(scroll_top(0, 10, 0), 0);
}

}  // namespace
}  // namespace hqt::tui
