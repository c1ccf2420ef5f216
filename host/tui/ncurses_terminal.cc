// The Terminal on ncurses (the wide-character library, so UTF-8 text shows as text).
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <langinfo.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <clocale>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/error.h"
#include "core/tui_text.h"
#include "tui/terminal.h"

namespace hqt::tui {
namespace {

// Colour pairs; 0 is the terminal's own.
enum Pair : short { kGreen = 1, kYellow, kCyan, kRed, kMagenta };

// Stands in for the non-ASCII characters hqt itself prints when the locale cannot show UTF-8.
std::string to_ascii(std::string_view utf8) {
  std::string out;
  for (size_t i = 0; i < utf8.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(utf8[i]);
    if (c < 0x80) {
      out += static_cast<char>(c);
      continue;
    }
    size_t extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    std::string_view seq = utf8.substr(i, extra + 1);
    i += extra;
    if (seq == "—" || seq == "–" || seq == "─")
      out += '-';
    else if (seq == "…")
      out += "...";
    else if (seq == "·" || seq == "•" || seq == "●")
      out += '*';
    else
      out += '?';
  }
  return out;
}

volatile std::sig_atomic_t stop_signal = 0;

extern "C" void on_stop_signal(int signal) { stop_signal = signal; }

class NcursesTerminal : public Terminal {
 public:
  NcursesTerminal() {
    std::setlocale(LC_ALL, "");
    utf8_ = std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    screen_ = newterm(nullptr, stdout, stdin);
    if (!screen_) {
      const char* term = std::getenv("TERM");
      throw Error(std::string("cannot start the terminal UI on terminal type '") +
                  (term ? term : "") + "'");
    }
    set_term(screen_);
    // A kill or a closed terminal (SIGHUP, which ncurses does not catch) must not leave the
    // terminal in raw mode: the main loop sees the flag (getch returns early on a signal) and
    // leaves through endwin(), closing the store as on `q`.
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGTERM, &action, nullptr);
    ::sigaction(SIGHUP, &action, nullptr);
    // Esc alone must cancel a dialog at once, not after a second.
    set_escdelay(25);
    raw();  // Ctrl-C and Ctrl-Z come as keys: hqt must leave through endwin()
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    if (has_colors()) {
      start_color();
      use_default_colors();
      init_pair(kGreen, COLOR_GREEN, -1);
      init_pair(kYellow, COLOR_YELLOW, -1);
      init_pair(kCyan, COLOR_CYAN, -1);
      init_pair(kRed, COLOR_RED, -1);
      init_pair(kMagenta, COLOR_MAGENTA, -1);
      colors_ = true;
    }
  }

  ~NcursesTerminal() override {
    if (!screen_) return;
    endwin();
    delscreen(screen_);
  }

  int rows() const override { return LINES; }
  int cols() const override { return COLS; }

  void clear() override {
    attrset(A_NORMAL);
    erase();
    cursor_y_ = -1;
  }

  void text(int y, int x, std::string_view utf8, Style style) override {
    if (y < 0 || y >= LINES || x < 0 || x >= COLS) return;
    std::string shown = fit(utf8, COLS - x);
    if (!utf8_) shown = to_ascii(shown);
    attrset(attr(style));
    mvaddstr(y, x, shown.c_str());
  }

  void fill(const Rect& rect, Style style) override {
    attrset(attr(style));
    for (int y = rect.y; y < rect.y + rect.h; ++y) {
      if (y < 0 || y >= LINES) continue;
      mvhline(y, rect.x, ' ', std::min(rect.w, COLS - rect.x));
    }
  }

  void box(const Rect& r, std::string_view title, Style style) override {
    if (r.h < 2 || r.w < 2) return;
    attrset(attr(style));
    mvhline(r.y, r.x + 1, ACS_HLINE, r.w - 2);
    mvhline(r.y + r.h - 1, r.x + 1, ACS_HLINE, r.w - 2);
    mvvline(r.y + 1, r.x, ACS_VLINE, r.h - 2);
    mvvline(r.y + 1, r.x + r.w - 1, ACS_VLINE, r.h - 2);
    mvaddch(r.y, r.x, ACS_ULCORNER);
    mvaddch(r.y, r.x + r.w - 1, ACS_URCORNER);
    mvaddch(r.y + r.h - 1, r.x, ACS_LLCORNER);
    mvaddch(r.y + r.h - 1, r.x + r.w - 1, ACS_LRCORNER);
    if (!title.empty() && r.w > 4) {
      std::string shown = fit(std::string(" ") + std::string(title) + " ", r.w - 4, false, true);
      if (!utf8_) shown = to_ascii(shown);
      mvaddstr(r.y, r.x + 2, shown.c_str());
    }
  }

  void cursor(int y, int x) override {
    cursor_y_ = y;
    cursor_x_ = x;
  }

  void present() override {
    if (cursor_y_ >= 0 && cursor_y_ < LINES && cursor_x_ >= 0 && cursor_x_ < COLS) {
      move(cursor_y_, cursor_x_);
      curs_set(1);
    } else {
      curs_set(0);
    }
    refresh();
  }

  void repaint() override { clearok(curscr, TRUE); }

  Key read_key(int timeout_ms) override {
    timeout(timeout_ms);
    wint_t ch = 0;
    int kind = get_wch(&ch);
    if (kind == ERR) return Key::of(KeyCode::none);
    if (kind == KEY_CODE_YES) {
      switch (ch) {
        case KEY_UP:
          return Key::of(KeyCode::up);
        case KEY_DOWN:
          return Key::of(KeyCode::down);
        case KEY_LEFT:
          return Key::of(KeyCode::left);
        case KEY_RIGHT:
          return Key::of(KeyCode::right);
        case KEY_HOME:
          return Key::of(KeyCode::home);
        case KEY_END:
          return Key::of(KeyCode::end);
        case KEY_PPAGE:
          return Key::of(KeyCode::page_up);
        case KEY_NPAGE:
          return Key::of(KeyCode::page_down);
        case KEY_BACKSPACE:
          return Key::of(KeyCode::backspace);
        case KEY_DC:
          return Key::of(KeyCode::del);
        case KEY_ENTER:
          return Key::of(KeyCode::enter);
        case KEY_BTAB:
          return Key::of(KeyCode::backtab);
        case KEY_RESIZE:
          return Key::of(KeyCode::resize);
        default:
          return Key::of(KeyCode::none);
      }
    }
    switch (ch) {
      case '\r':
      case '\n':
        return Key::of(KeyCode::enter);
      case '\t':
        return Key::of(KeyCode::tab);
      case 27:
        return Key::of(KeyCode::escape);
      case 8:
      case 127:
        return Key::of(KeyCode::backspace);
      default:
        return Key::character(static_cast<char32_t>(ch));
    }
  }

  bool stop_requested() const override { return stop_signal != 0; }

  void suspend() override {
    def_prog_mode();
    endwin();
    std::fflush(stdout);
  }

  void resume() override {
    reset_prog_mode();
    // The size may have changed while another program had the terminal.
    struct winsize size {};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 && size.ws_col > 0 &&
        (size.ws_row != LINES || size.ws_col != COLS))
      resizeterm(size.ws_row, size.ws_col);
    clearok(curscr, TRUE);
  }

 private:
  attr_t attr(Style style) const {
    auto pair = [&](short p) -> attr_t { return colors_ ? COLOR_PAIR(p) : A_NORMAL; };
    switch (style) {
      case Style::normal:
      case Style::info:
      case Style::border:
        return A_NORMAL;
      case Style::dim:
      case Style::hint:
      case Style::disabled:
        return A_DIM;
      case Style::bold:
        return A_BOLD;
      case Style::title:
        return A_REVERSE | A_BOLD;
      case Style::selected:
      case Style::field_focused:
        return A_REVERSE;
      case Style::marked:
        return A_BOLD | A_UNDERLINE;
      case Style::border_focused:
        return pair(kCyan) | A_BOLD;
      case Style::working:
        return pair(kGreen) | A_BOLD;
      case Style::waiting:
        return pair(kYellow) | A_BOLD;
      case Style::idle:
        return pair(kCyan);
      case Style::stopped:
        return pair(kRed);
      case Style::unknown:
        return pair(kMagenta);
      case Style::badge:
        return pair(kMagenta);
      case Style::error:
        return pair(kRed) | A_BOLD;
      case Style::warning:
        return pair(kYellow) | A_BOLD;
      case Style::field:
        return A_UNDERLINE;
    }
    return A_NORMAL;
  }

  SCREEN* screen_ = nullptr;
  bool utf8_ = false;
  bool colors_ = false;
  int cursor_y_ = -1, cursor_x_ = 0;
};

}  // namespace

std::unique_ptr<Terminal> open_ncurses_terminal() { return std::make_unique<NcursesTerminal>(); }

}  // namespace hqt::tui
