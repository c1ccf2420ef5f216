#pragma once
// Where the parts of the terminal UI go for a given terminal size. Pure.
#include <algorithm>

namespace hqt::tui {

struct Rect {
  int y = 0, x = 0, h = 0, w = 0;
  bool empty() const { return h <= 0 || w <= 0; }
  // The inside of a box drawn on this rectangle's edge.
  Rect inner() const { return {y + 1, x + 1, std::max(0, h - 2), std::max(0, w - 2)}; }
  bool operator==(const Rect&) const = default;
};

// The main screen: a title row, the projects list on the left, the sessions list above the
// preview on the right, then the key-hint row and the notification row at the bottom.
struct Layout {
  bool too_small = false;  // only the notification row is usable
  Rect title, projects, sessions, preview, hints, notice;
};

constexpr int kMinRows = 12;
constexpr int kMinCols = 50;

Layout main_layout(int rows, int cols);

// A `h` x `w` box in the middle of the screen, shrunk to fit it.
Rect centered(int rows, int cols, int h, int w);

// The first visible row of a list of `count` rows shown `height` at a time, so that `selected`
// stays visible, with `previous` (the last first row) kept when it still works, so the list
// does not jump.
int scroll_top(int selected, int count, int height, int previous = 0);

}  // namespace hqt::tui
