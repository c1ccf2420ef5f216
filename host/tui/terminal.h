#pragma once
// The screen as the terminal UI draws on it. The ncurses adapter implements it; the view and the
// app only see this.
#include <memory>
#include <string_view>

#include "core/tui_keys.h"
#include "core/tui_layout.h"

namespace hqt::tui {

enum class Style {
  normal,
  dim,
  bold,
  title,     // the top row
  hint,      // the key-hint row
  selected,  // the selected row of the focused list
  marked,    // the selected row of the other list
  border,
  border_focused,
  working,
  waiting,
  idle,
  stopped,
  unknown,
  badge,
  info,
  error,
  warning,
  field,          // a dialog value
  field_focused,  // the dialog value with the focus
  disabled,
};

class Terminal {
 public:
  virtual ~Terminal() = default;
  virtual int rows() const = 0;
  virtual int cols() const = 0;

  // Starts a frame on a blank screen.
  virtual void clear() = 0;
  // Writes UTF-8 text at (y, x), cut at the right edge of the screen.
  virtual void text(int y, int x, std::string_view utf8, Style style) = 0;
  // Blanks the rectangle with the style's background.
  virtual void fill(const Rect& rect, Style style) = 0;
  // A line-drawn frame on the rectangle's edge with `title` in the top edge.
  virtual void box(const Rect& rect, std::string_view title, Style style) = 0;
  // Where the text cursor shows at the end of the frame (a text field); hidden without a call.
  virtual void cursor(int y, int x) = 0;
  // Puts the frame on the terminal, sending only what changed.
  virtual void present() = 0;
  // Makes the next present() rewrite every cell (Ctrl-L).
  virtual void repaint() = 0;

  // The next key, waiting at most `timeout_ms`; Key::none when none came.
  virtual Key read_key(int timeout_ms) = 0;

  // True once the process was asked to end (SIGTERM, SIGHUP): leave the loop, restore the
  // terminal, exit.
  virtual bool stop_requested() const = 0;

  // Hands the terminal back to the shell state, so another program (tmux attach) can use it,
  // and takes it back; the next frame repaints every cell.
  virtual void suspend() = 0;
  virtual void resume() = 0;
};

// The terminal on stdin/stdout through ncurses. Throws Error when the terminal type is unknown.
std::unique_ptr<Terminal> open_ncurses_terminal();

}  // namespace hqt::tui
