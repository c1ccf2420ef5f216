#pragma once
// Text for the terminal UI: display widths of UTF-8, fitting text into columns, the labels the
// screen shows, and a one-line text input. Pure.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tui_keys.h"
#include "core/types.h"

namespace hqt::tui {

// Columns `ch` takes on a terminal: 0 (combining), 1 or 2 (wide East Asian, emoji).
int char_width(char32_t ch);
// Columns of a UTF-8 string; control characters count as one (fit() shows them as spaces).
int text_width(std::string_view utf8);

// `utf8` cut to at most `width` columns, control characters shown as spaces. With `pad`, spaces
// fill it up to exactly `width` columns. A cut is marked with "…" in the last column when
// `ellipsis` is set.
std::string fit(std::string_view utf8, int width, bool pad = false, bool ellipsis = false);

// "[ro,net]", "[rw,no-net]"; "" for an unsandboxed session.
std::string sandbox_badge(const std::optional<SandboxPolicy>& sandbox);
// "working", "waiting", "idle", "stopped"; "?" when the status could not be read.
std::string status_label(const std::optional<Status>& status);

// The last `height` lines of a pane's text, trailing blank lines dropped first and runs of
// blank lines cut to two.
std::vector<std::string> preview_lines(std::string_view pane_text, int height);

// The first non-blank line of a message (errors may carry a whole tool output).
std::string first_line(std::string_view message);

// A one-line text input: UTF-8 text and a cursor between code points.
class LineEdit {
 public:
  LineEdit() = default;
  explicit LineEdit(std::string text) : text_(std::move(text)), cursor_(text_.size()) {}

  const std::string& text() const { return text_; }
  void set_text(std::string text);
  size_t cursor() const { return cursor_; }  // a byte offset

  // Edits for printable characters, Backspace, Delete, Left/Right, Home/End (Ctrl-A/Ctrl-E),
  // Ctrl-U (clear before the cursor) and Ctrl-K (clear after it). Returns whether it used the key.
  bool handle(const Key& key);

  // What to show in `width` columns, scrolled so the cursor stays visible, and the cursor's
  // column in it.
  struct View {
    std::string text;
    int cursor_column = 0;
  };
  View view(int width) const;

 private:
  size_t previous(size_t at) const;
  size_t next(size_t at) const;

  std::string text_;
  size_t cursor_ = 0;
};

}  // namespace hqt::tui
