#include "core/tui_layout.h"

namespace hqt::tui {

Layout main_layout(int rows, int cols) {
  Layout out;
  rows = std::max(rows, 0);
  cols = std::max(cols, 0);
  out.notice = {std::max(rows - 1, 0), 0, rows > 0 ? 1 : 0, cols};
  if (rows < kMinRows || cols < kMinCols) {
    out.too_small = true;
    return out;
  }
  out.title = {0, 0, 1, cols};
  out.hints = {rows - 2, 0, 1, cols};
  int body_y = 1, body_h = rows - 3;
  int left_w = std::clamp(cols / 4, 20, 36);
  out.projects = {body_y, 0, body_h, left_w};
  int right_x = left_w, right_w = cols - left_w;
  int sessions_h = std::clamp(body_h * 2 / 5, 5, body_h - 4);
  out.sessions = {body_y, right_x, sessions_h, right_w};
  out.preview = {body_y + sessions_h, right_x, body_h - sessions_h, right_w};
  return out;
}

Rect centered(int rows, int cols, int h, int w) {
  h = std::clamp(h, 0, std::max(rows, 0));
  w = std::clamp(w, 0, std::max(cols, 0));
  return {(rows - h) / 2, (cols - w) / 2, h, w};
}

int scroll_top(int selected, int count, int height, int previous) {
  if (height <= 0 || count <= height) return 0;
  selected = std::clamp(selected, 0, count - 1);
  int top = std::clamp(previous, 0, count - height);
  if (selected < top) top = selected;
  if (selected >= top + height) top = selected - height + 1;
  return top;
}

}  // namespace hqt::tui
