#pragma once
// The terminal UI's loop: reads keys, runs actions through the Context (store, sessions,
// plugins), refreshes the status about once a second and draws when something changed.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "app/context.h"
#include "core/tui_browser.h"
#include "core/tui_dialog.h"
#include "tui/terminal.h"
#include "tui/view.h"

namespace hqt::tui {

class App {
 public:
  App(Context& ctx, Terminal& term);
  ~App();
  // Runs until the user quits; sessions keep running.
  void run();

 private:
  using Clock = std::chrono::steady_clock;
  enum class Mode { main, add_project, rename, confirm_delete, new_session, help };

  // Reloads projects, the selected project's sessions and the preview; marks the screen dirty
  // only when something on it changed.
  void refresh();
  void load_sessions();
  void load_preview();
  void draw();
  // Draws and marks the screen clean.
  void frame();
  // The reading a key asked for (the selected session's screen, another project's sessions),
  // done after the key's frame is drawn.
  void run_deferred();
  // Writes the traced key's line (HQT_TUI_TRACE) once its frame is drawn.
  void trace_key(Clock::time_point draw_start);

  void on_key(const Key& key);
  void on_main_key(const Key& key);
  void on_dialog_key(const Key& key);

  void open_add_project();
  void open_new_session();
  void open_rename();
  void open_delete();
  void add_project(const std::string& path);
  void create_session(const NewSessionChoice& choice);
  void attach();
  void stop();
  void remove();
  void rename(const std::string& nickname);

  const SessionRow* selected_session(const char* verb);
  void notify(std::string text, bool error = false);
  // Runs an action; an error becomes a notice instead of ending the UI.
  template <typename Fn>
  void guarded(Fn&& fn);

  Context& ctx_;
  Terminal& term_;
  View view_;
  Browser browser_;
  std::string preview_;
  Notice notice_;
  Clock::time_point notice_until_ = Clock::time_point::max();
  std::string refresh_error_;  // the notice a failing refresh put up, cleared when it works
  Clock::time_point last_refresh_{};
  bool dirty_ = true;
  bool refresh_due_ = false;  // after the key's frame: refresh()
  bool preview_due_ = false;  // after the key's frame: load_preview()
  bool quit_ = false;

  // HQT_TUI_TRACE=<file>: one line per key, how long its action and the next frame took.
  std::FILE* trace_ = nullptr;
  std::optional<Key> traced_key_;
  Clock::time_point key_read_{};
  int64_t handle_us_ = 0;

  Mode mode_ = Mode::main;
  std::optional<PromptDialog> prompt_;
  std::optional<ConfirmDialog> confirm_;
  std::optional<NewSessionDialog> new_session_;
  // What the open delete dialog deletes: a session, else the project.
  std::optional<int64_t> delete_session_, delete_project_;
  int64_t rename_session_ = 0;  // what the open rename dialog renames
};

}  // namespace hqt::tui
