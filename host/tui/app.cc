#include "tui/app.h"

#include <Poco/Exception.h>

#include <algorithm>
#include <filesystem>

#include "adapters/paths.h"
#include "adapters/sandbox_host.h"
#include "core/error.h"
#include "core/tui_text.h"

namespace hqt::tui {
namespace {

using namespace std::chrono_literals;

constexpr auto kRefreshEvery = 1000ms;
constexpr auto kInfoFor = 6s;
constexpr auto kErrorFor = 30s;

std::string trimmed(const std::string& text) {
  size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

bool same_projects(const std::vector<Project>& a, const std::vector<Project>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Project& x, const Project& y) {
    return x.id == y.id && x.name == y.name && x.path == y.path;
  });
}

std::string describe(const Session& s) {
  return "'" + s.nickname + "' (#" + std::to_string(s.id) + ")";
}

}  // namespace

App::App(Context& ctx, Terminal& term) : ctx_(ctx), term_(term) {
  std::string trace = paths::env("HQT_TUI_TRACE");
  if (!trace.empty()) trace_ = std::fopen(trace.c_str(), "a");
}

App::~App() {
  if (trace_) std::fclose(trace_);
}

template <typename Fn>
void App::guarded(Fn&& fn) {
  try {
    fn();
  } catch (const Poco::Exception& e) {
    notify(first_line(e.displayText()), true);
  } catch (const std::exception& e) {
    notify(first_line(e.what()), true);
  }
}

void App::notify(std::string text, bool error) {
  notice_ = {std::move(text), error};
  notice_until_ = Clock::now() + (error ? kErrorFor : kInfoFor);
  dirty_ = true;
}

void App::run() {
  refresh();
  // A bad config or a rejected plugin is worth a word at once; hqt goes on either way.
  guarded([&] {
    for (const auto& report : ctx_.plugins().reports())
      if (!report.loaded) notify("plugin rejected: " + first_line(report.reason), true);
  });
  if (notice_.text.empty() && browser_.projects().empty())
    notify("Welcome to hqt. a: add project (a directory), ?: help");
  while (!quit_ && !term_.stop_requested()) {
    if (dirty_) frame();
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(last_refresh_ +
                                                                      kRefreshEvery - Clock::now());
    Key key = term_.read_key(static_cast<int>(std::clamp<int64_t>(wait.count(), 0, 1000)));
    if (key.code != KeyCode::none) {
      key_read_ = Clock::now();
      // Actions report their own errors; this is the net under everything else.
      guarded([&] { on_key(key); });
      dirty_ = true;
      if (trace_) {
        traced_key_ = key;
        handle_us_ =
            std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - key_read_).count();
      }
      // The key's frame before a refresh that is due (one of 500 sessions takes ~10 ms), then
      // what the key asked to be read.
      if (!quit_) {
        frame();
        run_deferred();
      }
    }
    auto now = Clock::now();
    if (!notice_.text.empty() && now >= notice_until_) {
      notice_ = {};
      dirty_ = true;
    }
    if (!quit_ && now >= last_refresh_ + kRefreshEvery) refresh();
  }
}

void App::run_deferred() {
  if (!refresh_due_ && !preview_due_) return;
  if (refresh_due_)
    refresh();
  else
    load_preview();
  refresh_due_ = preview_due_ = false;
  if (dirty_) frame();
  if (trace_) {
    // "after <key read to the frame with what the key asked for>"
    std::fprintf(trace_, "after total_us %lld\n",
                 static_cast<long long>(
                     std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - key_read_)
                         .count()));
    std::fflush(trace_);
  }
}

void App::frame() {
  auto start = Clock::now();
  draw();
  dirty_ = false;
  if (trace_ && traced_key_) trace_key(start);
}

void App::trace_key(Clock::time_point draw_start) {
  auto end = Clock::now();
  auto us = [](Clock::duration d) {
    return static_cast<long long>(std::chrono::duration_cast<std::chrono::microseconds>(d).count());
  };
  // "key <code> <char> handle_us <action> draw_us <frame> total_us <key read to frame done>"
  std::fprintf(trace_, "key %d %u handle_us %lld draw_us %lld total_us %lld\n",
               static_cast<int>(traced_key_->code), static_cast<unsigned>(traced_key_->ch),
               static_cast<long long>(handle_us_), us(end - draw_start), us(end - key_read_));
  std::fflush(trace_);
  traced_key_.reset();
}

void App::refresh() {
  last_refresh_ = Clock::now();
  std::string error;
  try {
    auto projects = ctx_.store().projects();
    if (!same_projects(projects, browser_.projects())) dirty_ = true;
    browser_.set_projects(std::move(projects));
  } catch (const std::exception& e) {
    error = first_line(e.what());
  }
  if (const Project* project = browser_.project()) {
    std::vector<SessionRow> rows;
    try {
      for (auto& s : ctx_.sessions().list(project->id)) rows.push_back({s.session, s.status});
    } catch (const std::exception& e) {
      // Without status (a bad config, tmux missing) the stored rows still show.
      if (error.empty()) error = first_line(e.what());
      rows.clear();
      try {
        for (auto& s : ctx_.store().sessions(project->id)) rows.push_back({s, std::nullopt});
      } catch (const std::exception&) {
      }
    }
    if (rows != browser_.sessions()) {
      browser_.set_sessions(std::move(rows));
      dirty_ = true;
    }
  }
  load_preview();
  if (!error.empty() && error != refresh_error_) {
    notify(error, true);
    notice_until_ = Clock::time_point::max();  // until the refresh works again
  }
  if (error.empty() && !refresh_error_.empty() && notice_.text == refresh_error_) {
    notice_ = {};
    dirty_ = true;
  }
  refresh_error_ = error;
}

void App::load_preview() {
  std::string text;
  if (const SessionRow* row = browser_.session()) {
    try {
      auto texts = ctx_.tmux().capture({row->session.tmux_session});
      auto it = texts.find(row->session.tmux_session);
      if (it != texts.end()) text = std::move(it->second);
    } catch (const std::exception&) {
      // No preview is shown; the refresh reports what is wrong with tmux.
    }
  }
  if (text != preview_) {
    preview_ = std::move(text);
    dirty_ = true;
  }
}

void App::draw() {
  view_.main(term_, browser_, preview_, notice_);
  switch (mode_) {
    case Mode::add_project:
    case Mode::rename:
      view_.prompt(term_, *prompt_);
      break;
    case Mode::confirm_delete:
      view_.confirm(term_, *confirm_);
      break;
    case Mode::new_session:
      view_.new_session(term_, *new_session_);
      break;
    case Mode::help:
      view_.help(term_);
      break;
    case Mode::main:
      break;
  }
  term_.present();
}

void App::on_key(const Key& key) {
  if (key.code == KeyCode::resize) return;  // the next frame is drawn at the new size
  switch (mode_) {
    case Mode::main:
      on_main_key(key);
      break;
    case Mode::help:
      mode_ = Mode::main;
      break;
    default:
      on_dialog_key(key.is(ctrl('c')) ? Key::of(KeyCode::escape) : key);
      break;
  }
}

void App::on_main_key(const Key& key) {
  if (key.is(ctrl('c'))) {
    quit_ = true;
    return;
  }
  Action action = main_action(key, browser_.focus());
  switch (action) {
    case Action::up:
    case Action::down:
    case Action::top:
    case Action::bottom: {
      const SessionRow* row = browser_.session();
      int64_t was = row ? row->session.id : 0;
      bool project_changed = action == Action::up     ? browser_.move(-1)
                             : action == Action::down ? browser_.move(1)
                                                      : browser_.move_to(action == Action::bottom);
      row = browser_.session();
      // The moved selection is drawn at once; reading the sessions or the screen (a tmux
      // invocation, ~5 ms with 500 sessions on the server) comes after that frame.
      if (project_changed) {
        preview_.clear();
        refresh_due_ = true;
      } else if ((row ? row->session.id : 0) != was) {
        preview_.clear();  // never another session's screen under this one
        preview_due_ = true;
      }
      break;
    }
    case Action::switch_focus:
      browser_.switch_focus();
      break;
    case Action::focus_projects:
      browser_.set_focus(Pane::projects);
      break;
    case Action::focus_sessions:
      browser_.set_focus(Pane::sessions);
      break;
    case Action::add_project:
      open_add_project();
      break;
    case Action::new_session:
      open_new_session();
      break;
    case Action::attach:
      attach();
      break;
    case Action::stop:
      stop();
      break;
    case Action::remove:
      open_delete();
      break;
    case Action::rename:
      open_rename();
      break;
    case Action::help:
      mode_ = Mode::help;
      break;
    case Action::quit:
      quit_ = true;
      break;
    case Action::redraw:
      term_.repaint();
      break;
    case Action::none:
      break;
  }
}

void App::on_dialog_key(const Key& key) {
  Outcome outcome = Outcome::open;
  switch (mode_) {
    case Mode::add_project:
    case Mode::rename:
      outcome = prompt_->handle(key);
      break;
    case Mode::confirm_delete:
      outcome = confirm_->handle(key);
      break;
    case Mode::new_session:
      outcome = new_session_->handle(key);
      break;
    default:
      return;
  }
  if (outcome == Outcome::open) return;
  Mode mode = mode_;
  if (outcome == Outcome::cancel) {
    mode_ = Mode::main;
    return;
  }
  // A failed add, rename or create keeps its dialog open, with the error below it, so the
  // input can be fixed; a delete is done either way.
  bool done = false;
  guarded([&] {
    switch (mode) {
      case Mode::add_project:
        add_project(prompt_->input().text());
        break;
      case Mode::rename:
        rename(prompt_->input().text());
        break;
      case Mode::confirm_delete:
        mode_ = Mode::main;
        remove();
        break;
      case Mode::new_session:
        create_session(new_session_->choice());
        break;
      default:
        break;
    }
    done = true;
  });
  if (done || mode == Mode::confirm_delete) mode_ = Mode::main;
  if (mode == Mode::confirm_delete) refresh();
}

const SessionRow* App::selected_session(const char* verb) {
  const SessionRow* row = browser_.session();
  if (!row) {
    notify(browser_.project() ? std::string("no session to ") + verb + "; n: new session"
                              : "no project yet; a: add project",
           true);
  }
  return row;
}

void App::open_add_project() {
  std::error_code error;
  std::string cwd = std::filesystem::current_path(error).string();
  prompt_.emplace("Add project", "Directory (its name becomes the project's name)", cwd);
  mode_ = Mode::add_project;
}

void App::add_project(const std::string& text) {
  namespace fs = std::filesystem;
  std::string given = paths::expand_home(trimmed(text));
  if (given.empty()) throw UsageError("a project needs a directory");
  std::error_code error;
  fs::file_status status = fs::status(given, error);
  if (status.type() == fs::file_type::not_found)
    throw UsageError("no such directory '" + given + "'");
  if (error) throw UsageError("cannot access '" + given + "' (" + error.message() + ")");
  if (!fs::is_directory(status)) throw UsageError("'" + given + "' is not a directory");
  fs::path canonical = fs::canonical(given, error);
  if (error) throw UsageError("cannot resolve '" + given + "' (" + error.message() + ")");
  std::string name = canonical.filename().string();
  if (name.empty())
    throw UsageError("'" + canonical.string() + "' has no name of its own; use hqt project add");
  Project project = ctx_.store().add_project(name, canonical.string());
  refresh();
  if (browser_.select_project(project.id)) refresh();
  browser_.set_focus(Pane::projects);
  notify("added project '" + project.name + "' (" + project.path + "); n: new session");
}

void App::open_new_session() {
  const Project* project = browser_.project();
  if (!project) {
    notify("no project yet; a: add project", true);
    return;
  }
  std::vector<HarnessOption> options;
  guarded([&] {
    for (const Harness* harness : ctx_.plugins().all()) {
      const HarnessInfo& info = harness->info();
      if (paths::which(info.executable).empty()) continue;
      std::string label = info.display_name.empty() || info.display_name == info.name
                              ? info.name
                              : info.display_name + " (" + info.name + ")";
      options.push_back({info.name, label});
    }
    if (options.empty())
      throw Error("no harness found on PATH (see hqt doctor and hqt plugins list)");
    new_session_.emplace(project->name, std::move(options), sandbox::is_available());
    mode_ = Mode::new_session;
  });
}

void App::create_session(const NewSessionChoice& choice) {
  NewSession request;
  request.project = new_session_->project();
  request.harness = choice.harness;
  request.nickname = choice.nickname;
  request.model = choice.model;
  request.sandbox = choice.sandbox;
  CreateResult result = ctx_.sessions().create(request);
  mode_ = Mode::main;
  refresh();
  browser_.set_focus(Pane::sessions);
  browser_.select_session(result.session.id);
  load_preview();
  if (!result.spawn_error.empty()) {
    notify("session " + describe(result.session) +
               " was created but its harness failed to start: " + first_line(result.spawn_error),
           true);
    return;
  }
  std::string badge = sandbox_badge(result.session.sandbox);
  notify("started " + describe(result.session) + ": " + result.session.harness +
         (badge.empty() ? "" : ", sandboxed " + badge) + "; Enter attaches");
}

void App::attach() {
  const SessionRow* row = selected_session("attach");
  if (!row) return;
  Session session = row->session;
  if (row->status != Status::working && row->status != Status::waiting &&
      row->status != Status::idle) {
    // The ladder may wait a moment for a resumed harness to stay up: say so first.
    notify("bringing " + describe(session) + " back…");
    draw();
  }
  guarded([&] {
    std::string how = ctx_.sessions().bring_up(session.id);
    term_.suspend();
    int code = 0;
    try {
      code = ctx_.sessions().attach(session.id);
    } catch (...) {
      term_.resume();
      throw;
    }
    term_.resume();
    if (code != 0)
      notify("tmux attach for " + describe(session) + " ended with code " + std::to_string(code),
             true);
    else
      notify("back from " + describe(session) + (how == "running" ? "" : " (" + how + ")"));
  });
  refresh();
  dirty_ = true;
}

void App::stop() {
  const SessionRow* row = selected_session("stop");
  if (!row) return;
  Session session = row->session;
  if (row->status == Status::stopped) {
    notify(describe(session) + " is already stopped; Enter brings it back");
    return;
  }
  guarded([&] {
    ctx_.sessions().stop(session.id);
    notify("stopped " + describe(session) + "; its conversation is kept, Enter brings it back");
  });
  refresh();
}

void App::open_delete() {
  delete_session_.reset();
  delete_project_.reset();
  if (browser_.focus() == Pane::projects) {
    const Project* project = browser_.project();
    if (!project) {
      notify("no project to delete", true);
      return;
    }
    if (!browser_.sessions().empty()) {
      notify("project '" + project->name + "' still has sessions; delete them first (Tab, d)",
             true);
      return;
    }
    delete_project_ = project->id;
    confirm_.emplace("Remove project '" + project->name + "' from hqt? (its directory stays)");
  } else {
    const SessionRow* row = selected_session("delete");
    if (!row) return;
    delete_session_ = row->session.id;
    confirm_.emplace("Delete session " + describe(row->session) + "? Its tmux session ends.");
  }
  mode_ = Mode::confirm_delete;
}

void App::remove() {
  if (delete_session_) {
    ctx_.sessions().remove(*delete_session_);
    notify("deleted session #" + std::to_string(*delete_session_));
  } else if (delete_project_) {
    ctx_.store().remove_project(*delete_project_);
    notify("removed the project from hqt");
  }
}

void App::open_rename() {
  const SessionRow* row = selected_session("rename");
  if (!row) return;
  rename_session_ = row->session.id;
  prompt_.emplace("Rename " + describe(row->session), "Nickname", row->session.nickname);
  mode_ = Mode::rename;
}

void App::rename(const std::string& text) {
  std::string nickname = trimmed(text);
  ctx_.sessions().rename(rename_session_, nickname);
  notify("renamed #" + std::to_string(rename_session_) + " to '" + nickname + "'");
  refresh();
}

}  // namespace hqt::tui
