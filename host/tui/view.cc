#include "tui/view.h"

#include <algorithm>

#include "core/tui_text.h"

namespace hqt::tui {
namespace {

Style status_style(const std::optional<Status>& status) {
  if (!status) return Style::unknown;
  switch (*status) {
    case Status::working:
      return Style::working;
    case Status::waiting:
      return Style::waiting;
    case Status::idle:
      return Style::idle;
    case Status::stopped:
      return Style::stopped;
  }
  return Style::unknown;
}

// Draws an empty framed dialog centred on the screen and returns its inside.
Rect dialog_frame(Terminal& term, int h, int w, std::string_view title) {
  Rect r = centered(term.rows(), term.cols(), h, w);
  term.fill(r, Style::normal);
  term.box(r, title, Style::border_focused);
  return r.inner();
}

constexpr std::string_view kHints =
    " a add project  n new session  Enter attach  s stop  d delete  r rename  Tab switch  ? help  "
    "q quit";

}  // namespace

void View::main(Terminal& term, const Browser& browser, std::string_view preview_text,
                const Notice& notice) {
  term.clear();
  Layout l = main_layout(term.rows(), term.cols());
  Style notice_style = notice.error ? Style::error : Style::info;
  if (l.too_small) {
    term.text(0, 0, "hqt: the terminal is too small", Style::bold);
    term.text(1, 0,
              "(needs " + std::to_string(kMinCols) + "x" + std::to_string(kMinRows) + ", has " +
                  std::to_string(term.cols()) + "x" + std::to_string(term.rows()) + ")",
              Style::normal);
    if (!notice.text.empty()) term.text(l.notice.y, 0, notice.text, notice_style);
    return;
  }
  term.fill(l.title, Style::title);
  std::string count = std::to_string(browser.projects().size()) +
                      (browser.projects().size() == 1 ? " project" : " projects");
  term.text(0, 1, "hqt · " + count, Style::title);
  std::string right = "? help ";
  term.text(0, l.title.w - text_width(right), right, Style::title);
  projects(term, l.projects, browser);
  sessions(term, l.sessions, browser);
  preview(term, l.preview, browser, preview_text);
  term.text(l.hints.y, 0, fit(kHints, l.hints.w, false, true), Style::hint);
  term.text(l.notice.y, 1, fit(notice.text, l.notice.w - 1, false, true), notice_style);
}

void View::projects(Terminal& term, const Rect& rect, const Browser& browser) {
  bool focused = browser.focus() == Pane::projects;
  term.box(rect, "Projects", focused ? Style::border_focused : Style::border);
  Rect in = rect.inner();
  const auto& rows = browser.projects();
  if (rows.empty()) {
    term.text(in.y, in.x + 1, fit("No projects yet.", in.w - 1), Style::normal);
    term.text(in.y + 2, in.x + 1, fit("a: add project", in.w - 1), Style::bold);
    return;
  }
  project_top_ =
      scroll_top(browser.project_index(), static_cast<int>(rows.size()), in.h, project_top_);
  for (int i = 0; i < in.h && project_top_ + i < static_cast<int>(rows.size()); ++i) {
    int index = project_top_ + i;
    bool selected = index == browser.project_index();
    Style style = !selected ? Style::normal : focused ? Style::selected : Style::marked;
    term.text(in.y + i, in.x, fit(" " + rows[index].name, in.w, selected, true), style);
  }
}

void View::sessions(Terminal& term, const Rect& rect, const Browser& browser) {
  bool focused = browser.focus() == Pane::sessions;
  const Project* project = browser.project();
  term.box(rect, project ? "Sessions · " + project->name : "Sessions",
           focused ? Style::border_focused : Style::border);
  Rect in = rect.inner();
  if (!project) return;
  const auto& rows = browser.sessions();
  if (rows.empty()) {
    term.text(in.y, in.x + 1, fit("No sessions in " + project->name + ".", in.w - 1),
              Style::normal);
    term.text(in.y + 1, in.x + 1, fit("n: new session", in.w - 1), Style::bold);
    return;
  }
  // Columns: id, nickname (what is left), harness, status, sandbox badge.
  const int id_w = 6, status_w = 9, badge_w = 12;
  int harness_w = std::clamp(in.w / 5, 6, 14);
  int nick_w = std::max(4, in.w - id_w - harness_w - status_w - badge_w);
  session_top_ =
      scroll_top(browser.session_index(), static_cast<int>(rows.size()), in.h, session_top_);
  for (int i = 0; i < in.h && session_top_ + i < static_cast<int>(rows.size()); ++i) {
    int index = session_top_ + i;
    const SessionRow& row = rows[index];
    bool selected = index == browser.session_index();
    Style style = !selected ? Style::normal : focused ? Style::selected : Style::marked;
    int y = in.y + i, x = in.x;
    if (selected) term.fill({y, x, 1, in.w}, style);
    term.text(y, x, fit(" #" + std::to_string(row.session.id), id_w, true), style);
    x += id_w;
    term.text(y, x, fit(row.session.nickname, nick_w - 1, true, true) + " ", style);
    x += nick_w;
    term.text(y, x, fit(row.session.harness, harness_w - 1, true, true) + " ", style);
    x += harness_w;
    term.text(y, x, fit(status_label(row.status), status_w), status_style(row.status));
    x += status_w;
    std::string badge = sandbox_badge(row.session.sandbox);
    if (!badge.empty() && x < in.x + in.w)
      term.text(y, x, fit(badge, in.x + in.w - x), Style::badge);
  }
}

void View::preview(Terminal& term, const Rect& rect, const Browser& browser,
                   std::string_view text) {
  const SessionRow* row = browser.session();
  term.box(rect, row ? "Preview · " + row->session.nickname : "Preview", Style::border);
  Rect in = rect.inner();
  if (!row) return;
  auto lines = preview_lines(text, in.h);
  if (lines.empty()) {
    std::string what = row->status == Status::stopped
                           ? "stopped — Enter brings it back (resumes its conversation)"
                           : "(nothing on its screen yet)";
    term.text(in.y, in.x + 1, fit(what, in.w - 1), Style::dim);
    return;
  }
  for (size_t i = 0; i < lines.size(); ++i)
    term.text(in.y + static_cast<int>(i), in.x + 1, fit(lines[i], in.w - 1), Style::normal);
}

void View::prompt(Terminal& term, const PromptDialog& dialog) {
  int w = std::min(term.cols() - 4, 72);
  Rect in = dialog_frame(term, 7, w, dialog.title());
  if (in.w < 4 || in.h < 4) return;
  term.text(in.y + 1, in.x + 2, fit(dialog.label(), in.w - 4), Style::bold);
  Rect field{in.y + 2, in.x + 2, 1, in.w - 4};
  term.fill(field, Style::field);
  auto view = dialog.input().view(field.w - 1);
  term.text(field.y, field.x, view.text, Style::field);
  term.cursor(field.y, field.x + view.cursor_column);
  term.text(in.y + 4, in.x + 2, fit("Enter: OK   Esc: cancel", in.w - 4), Style::hint);
}

void View::confirm(Terminal& term, const ConfirmDialog& dialog) {
  int w = std::min(term.cols() - 4, std::max(40, text_width(dialog.question()) + 6));
  Rect in = dialog_frame(term, 6, w, "Confirm");
  if (in.w < 4 || in.h < 3) return;
  term.text(in.y + 1, in.x + 2, fit(dialog.question(), in.w - 4, false, true), Style::bold);
  term.text(in.y + 3, in.x + 2, fit("y: yes   n: no", in.w - 4), Style::hint);
}

void View::new_session(Terminal& term, const NewSessionDialog& dialog) {
  using Field = NewSessionDialog::Field;
  auto fields = dialog.fields();
  bool warn = !dialog.warning().empty();
  bool net_note = dialog.sandboxed() && !dialog.network();
  // Border, blank, one row per field (buttons share one), warning / note rows, blank, hints.
  int h = 2 + 1 + static_cast<int>(fields.size()) - 1 + (warn ? 1 : 0) + (net_note ? 1 : 0) + 3;
  int w = std::min(term.cols() - 2, 66);
  Rect in = dialog_frame(term, h, w, "New session in " + dialog.project());
  if (in.w < 20 || in.h < 3) return;
  const int label_x = in.x + 2, value_x = in.x + 15;
  const int value_w = std::max(4, in.x + in.w - 2 - value_x);
  int y = in.y + 1;
  for (Field field : fields) {
    if (field == Field::cancel) continue;  // drawn next to OK
    bool focused = dialog.focus() == field;
    bool enabled = dialog.enabled(field);
    Style value_style = focused ? Style::field_focused : !enabled ? Style::disabled : Style::normal;
    if (field == Field::ok) {
      ++y;
      term.text(y, value_x, "[ OK ]", focused ? Style::field_focused : Style::bold);
      term.text(y, value_x + 9, "[ Cancel ]",
                dialog.focus() == Field::cancel ? Style::field_focused : Style::normal);
      ++y;
      continue;
    }
    Style label_style = !enabled ? Style::disabled : focused ? Style::bold : Style::normal;
    term.text(y, label_x, NewSessionDialog::label(field), label_style);
    switch (field) {
      case Field::harness: {
        std::string value = dialog.harnesses().empty()
                                ? "(none on PATH)"
                                : dialog.harnesses()[dialog.harness_index()].label;
        term.text(y, value_x, fit("< " + value + " >", value_w, false, true), value_style);
        break;
      }
      case Field::nickname:
      case Field::model: {
        const LineEdit& edit = field == Field::nickname ? dialog.nickname() : dialog.model();
        Rect box{y, value_x, 1, value_w};
        term.fill(box, focused ? Style::field_focused : Style::field);
        if (edit.text().empty() && !focused) {
          term.text(y, value_x, field == Field::model ? "(optional)" : "(default: <harness>-<id>)",
                    Style::disabled);
        } else {
          auto view = edit.view(value_w - 1);
          term.text(y, value_x, view.text, focused ? Style::field_focused : Style::field);
          if (focused) term.cursor(y, value_x + view.cursor_column);
        }
        break;
      }
      case Field::sandboxed:
        term.text(y, value_x, dialog.sandboxed() ? "[ on  ]" : "[ off ]", value_style);
        if (warn) {
          ++y;
          term.text(y, value_x, fit(dialog.warning(), value_w, false, true), Style::warning);
        }
        break;
      case Field::filesystem:
        term.text(y, value_x,
                  dialog.filesystem() == FsMode::rw ? "< Read-write >" : "< Read-only >",
                  value_style);
        break;
      case Field::network:
        term.text(y, value_x, dialog.network() ? "[ on  ]" : "[ off ]", value_style);
        if (net_note) {
          ++y;
          term.text(y, value_x, fit("no network at all: only local models answer", value_w),
                    Style::dim);
        }
        break;
      default:
        break;
    }
    ++y;
  }
  term.text(in.y + in.h - 1, label_x,
            fit("Tab move  Space toggle  Enter create  Esc cancel", in.w - 4, false, true),
            Style::hint);
}

void View::help(Terminal& term) {
  size_t count = 0;
  const KeyHelp* keys = main_key_help(&count);
  int h = static_cast<int>(count) + 5;
  int w = std::min(term.cols() - 2, 78);
  Rect in = dialog_frame(term, h, w, "hqt keys");
  int y = in.y + 1;
  for (size_t i = 0; i < count && y < in.y + in.h; ++i, ++y) {
    term.text(y, in.x + 2, fit(keys[i].keys, 17), Style::bold);
    term.text(y, in.x + 20, fit(keys[i].text, in.w - 21, false, true), Style::normal);
  }
  term.text(in.y + in.h - 1, in.x + 2, fit("any key closes this help", in.w - 4), Style::hint);
}

}  // namespace hqt::tui
