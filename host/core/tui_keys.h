#pragma once
// Keys as the terminal UI sees them, and what a key does on the main screen. The ncurses adapter
// turns its key codes into Key; everything after that is pure.
#include <string>
#include <string_view>

namespace hqt::tui {

enum class KeyCode {
  none,  // no key within the timeout
  character,
  enter,
  escape,
  tab,
  backtab,
  up,
  down,
  left,
  right,
  home,
  end,
  page_up,
  page_down,
  backspace,
  del,
  resize,
};

struct Key {
  KeyCode code = KeyCode::none;
  char32_t ch = 0;  // the code point when code == character

  static Key of(KeyCode code) { return {code, 0}; }
  static Key character(char32_t ch) { return {KeyCode::character, ch}; }
  bool is(char32_t c) const { return code == KeyCode::character && ch == c; }
  bool operator==(const Key&) const = default;
};

// Control characters arrive as characters: ctrl('u') == 0x15.
constexpr char32_t ctrl(char c) { return static_cast<char32_t>(c) & 0x1f; }

// Appends `ch` to `out` as UTF-8.
void append_utf8(std::string& out, char32_t ch);

// The two lists of the main screen.
enum class Pane { projects, sessions };

enum class Action {
  none,
  up,
  down,
  top,
  bottom,
  switch_focus,    // Tab
  focus_projects,  // left, h
  focus_sessions,  // right, l, Enter on a project
  add_project,
  new_session,
  attach,
  stop,
  remove,
  rename,
  help,
  quit,
  redraw,  // Ctrl-L, or the terminal was resized
};

// What `key` does on the main screen while `focus` has the focus.
Action main_action(const Key& key, Pane focus);

// One line per key for the help overlay: {"keys", "what they do"}.
struct KeyHelp {
  std::string_view keys;
  std::string_view text;
};
const KeyHelp* main_key_help(size_t* count);

}  // namespace hqt::tui
