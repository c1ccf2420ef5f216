#include "core/tui_keys.h"

#include <iterator>

namespace hqt::tui {

void append_utf8(std::string& out, char32_t ch) {
  if (ch < 0x80) {
    out += static_cast<char>(ch);
  } else if (ch < 0x800) {
    out += static_cast<char>(0xc0 | (ch >> 6));
    out += static_cast<char>(0x80 | (ch & 0x3f));
  } else if (ch < 0x10000) {
    out += static_cast<char>(0xe0 | (ch >> 12));
    out += static_cast<char>(0x80 | ((ch >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (ch & 0x3f));
  } else if (ch < 0x110000) {
    out += static_cast<char>(0xf0 | (ch >> 18));
    out += static_cast<char>(0x80 | ((ch >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((ch >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (ch & 0x3f));
  }
}

Action main_action(const Key& key, Pane focus) {
  switch (key.code) {
    case KeyCode::up:
      return Action::up;
    case KeyCode::down:
      return Action::down;
    case KeyCode::home:
    case KeyCode::page_up:
      return Action::top;
    case KeyCode::end:
    case KeyCode::page_down:
      return Action::bottom;
    case KeyCode::tab:
    case KeyCode::backtab:
      return Action::switch_focus;
    case KeyCode::left:
      return Action::focus_projects;
    case KeyCode::right:
      return Action::focus_sessions;
    case KeyCode::enter:
      return focus == Pane::projects ? Action::focus_sessions : Action::attach;
    case KeyCode::resize:
      return Action::redraw;
    case KeyCode::character:
      break;
    default:
      return Action::none;
  }
  switch (key.ch) {
    case 'k':
      return Action::up;
    case 'j':
      return Action::down;
    case 'g':
      return Action::top;
    case 'G':
      return Action::bottom;
    case 'h':
      return Action::focus_projects;
    case 'l':
      return Action::focus_sessions;
    case 'a':
      return Action::add_project;
    case 'n':
      return Action::new_session;
    case 's':
      return Action::stop;
    case 'd':
      return Action::remove;
    case 'r':
      return Action::rename;
    case '?':
      return Action::help;
    case 'q':
      return Action::quit;
    case ctrl('l'):
      return Action::redraw;
    default:
      return Action::none;
  }
}

const KeyHelp* main_key_help(size_t* count) {
  static const KeyHelp kHelp[] = {
      {"Up/Down, j/k", "move in the focused list"},
      {"Tab, Left/Right", "switch between projects and sessions"},
      {"Enter", "attach the selected session (resumes it when stopped)"},
      {"a", "add a project (a directory)"},
      {"n", "new session in the selected project"},
      {"s", "stop the selected session (its conversation is kept)"},
      {"d", "delete the selected session (or an empty project)"},
      {"r", "rename the selected session"},
      {"Ctrl-L", "redraw the screen"},
      {"?", "this help"},
      {"q", "quit (sessions keep running)"},
      {"", ""},
      {"In a dialog", "Tab/Shift-Tab move, Space toggles, Enter OK, Esc cancels"},
      {"Detach", "tmux prefix, then d, comes back here"},
  };
  *count = std::size(kHelp);
  return kHelp;
}

}  // namespace hqt::tui
