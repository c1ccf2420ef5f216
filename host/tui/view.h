#pragma once
// Draws the main screen and the dialogs on a Terminal. Keeps only the lists' scroll positions.
#include <string>
#include <string_view>

#include "core/tui_browser.h"
#include "core/tui_dialog.h"
#include "tui/terminal.h"

namespace hqt::tui {

struct Notice {
  std::string text;
  bool error = false;
  bool operator==(const Notice&) const = default;
};

class View {
 public:
  // The projects, the selected project's sessions, the preview of the selected session's pane
  // (`preview`), the key hints and the notice.
  void main(Terminal& term, const Browser& browser, std::string_view preview, const Notice& notice);
  void prompt(Terminal& term, const PromptDialog& dialog);
  void confirm(Terminal& term, const ConfirmDialog& dialog);
  void new_session(Terminal& term, const NewSessionDialog& dialog);
  void help(Terminal& term);

 private:
  void projects(Terminal& term, const Rect& rect, const Browser& browser);
  void sessions(Terminal& term, const Rect& rect, const Browser& browser);
  void preview(Terminal& term, const Rect& rect, const Browser& browser, std::string_view text);

  int project_top_ = 0;
  int session_top_ = 0;
};

}  // namespace hqt::tui
