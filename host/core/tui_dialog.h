#pragma once
// The terminal UI's dialogs as state machines: which field has the focus, what each key does,
// and what submitting gives. Drawing them is the view's job. Pure.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tui_keys.h"
#include "core/tui_text.h"
#include "core/types.h"

namespace hqt::tui {

enum class Outcome { open, submit, cancel };

// The inline warning under a Sandboxed switch that cannot be turned on.
constexpr std::string_view kSandboxUnavailable = "bubblewrap not found — run `hqt doctor`";

// One text field: Enter submits, Esc cancels (add project, rename).
class PromptDialog {
 public:
  PromptDialog(std::string title, std::string label, std::string text = "")
      : title_(std::move(title)), label_(std::move(label)), input_(std::move(text)) {}
  Outcome handle(const Key& key);
  const std::string& title() const { return title_; }
  const std::string& label() const { return label_; }
  const LineEdit& input() const { return input_; }

 private:
  std::string title_, label_;
  LineEdit input_;
};

// A yes/no question: y submits; n or Esc cancels.
class ConfirmDialog {
 public:
  explicit ConfirmDialog(std::string question) : question_(std::move(question)) {}
  Outcome handle(const Key& key);
  const std::string& question() const { return question_; }

 private:
  std::string question_;
};

struct HarnessOption {
  std::string name;   // what the session stores
  std::string label;  // what the select shows
};

// What the New Session dialog gives on submit.
struct NewSessionChoice {
  std::string harness;
  std::string nickname;  // "" = let hqt name it
  std::string model;     // "" = the harness's default
  std::optional<SandboxPolicy> sandbox;
  bool operator==(const NewSessionChoice&) const = default;
};

// Harness (select), Nickname, Model (optional), Sandboxed (switch, off), then — only while
// Sandboxed is on — Filesystem (Read-write / Read-only) and Network (switch, on), then OK and
// Cancel. When the sandbox is unavailable the Sandboxed switch cannot be turned on and is
// skipped by the focus; warning() says why.
//
// Keys: Tab / Down next field, Shift-Tab / Up previous; Space toggles a switch or cycles a select
// (Left / Right too), and presses a button; Enter submits (on Cancel it cancels); Esc cancels.
class NewSessionDialog {
 public:
  enum class Field { harness, nickname, model, sandboxed, filesystem, network, ok, cancel };

  NewSessionDialog(std::string project, std::vector<HarnessOption> harnesses,
                   bool sandbox_available);

  Outcome handle(const Key& key);

  // The fields shown, top to bottom.
  std::vector<Field> fields() const;
  // The fields the focus visits: fields() without a disabled Sandboxed switch.
  std::vector<Field> focus_order() const;
  Field focus() const { return focus_; }
  bool enabled(Field field) const;
  static std::string_view label(Field field);

  const std::string& project() const { return project_; }
  const std::vector<HarnessOption>& harnesses() const { return harnesses_; }
  size_t harness_index() const { return harness_; }
  const LineEdit& nickname() const { return nickname_; }
  const LineEdit& model() const { return model_; }
  bool sandbox_available() const { return sandbox_available_; }
  bool sandboxed() const { return sandboxed_; }
  FsMode filesystem() const { return fs_; }
  bool network() const { return net_; }
  // kSandboxUnavailable when the sandbox is unavailable, else "".
  std::string_view warning() const;

  // The values as they are now: the policy only while Sandboxed is on; nickname and model
  // trimmed of surrounding spaces.
  NewSessionChoice choice() const;

 private:
  void move_focus(int delta);
  void change(Field field, int delta);  // toggle or cycle

  std::string project_;
  std::vector<HarnessOption> harnesses_;
  bool sandbox_available_;
  size_t harness_ = 0;
  LineEdit nickname_, model_;
  bool sandboxed_ = false;
  FsMode fs_ = FsMode::rw;
  bool net_ = true;
  Field focus_ = Field::harness;
};

}  // namespace hqt::tui
