#include "core/tui_dialog.h"

#include <algorithm>

namespace hqt::tui {
namespace {

std::string trimmed(const std::string& text) {
  size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  size_t last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

}  // namespace

Outcome PromptDialog::handle(const Key& key) {
  if (key.code == KeyCode::escape) return Outcome::cancel;
  if (key.code == KeyCode::enter) return Outcome::submit;
  input_.handle(key);
  return Outcome::open;
}

Outcome ConfirmDialog::handle(const Key& key) {
  if (key.is('y') || key.is('Y')) return Outcome::submit;
  if (key.is('n') || key.is('N') || key.code == KeyCode::escape) return Outcome::cancel;
  return Outcome::open;
}

NewSessionDialog::NewSessionDialog(std::string project, std::vector<HarnessOption> harnesses,
                                   bool sandbox_available)
    : project_(std::move(project)),
      harnesses_(std::move(harnesses)),
      sandbox_available_(sandbox_available) {
  focus_ = focus_order().front();
}

std::vector<NewSessionDialog::Field> NewSessionDialog::fields() const {
  std::vector<Field> out{Field::harness, Field::nickname, Field::model, Field::sandboxed};
  if (sandboxed_) out.insert(out.end(), {Field::filesystem, Field::network});
  out.insert(out.end(), {Field::ok, Field::cancel});
  return out;
}

bool NewSessionDialog::enabled(Field field) const {
  if (field == Field::sandboxed) return sandbox_available_;
  if (field == Field::harness) return !harnesses_.empty();
  return true;
}

std::vector<NewSessionDialog::Field> NewSessionDialog::focus_order() const {
  std::vector<Field> out;
  for (Field f : fields())
    if (enabled(f)) out.push_back(f);
  return out;
}

std::string_view NewSessionDialog::label(Field field) {
  switch (field) {
    case Field::harness:
      return "Harness";
    case Field::nickname:
      return "Nickname";
    case Field::model:
      return "Model";
    case Field::sandboxed:
      return "Sandboxed";
    case Field::filesystem:
      return "Filesystem";
    case Field::network:
      return "Network";
    case Field::ok:
      return "OK";
    case Field::cancel:
      return "Cancel";
  }
  return "";
}

std::string_view NewSessionDialog::warning() const {
  return sandbox_available_ ? std::string_view() : kSandboxUnavailable;
}

void NewSessionDialog::move_focus(int delta) {
  auto order = focus_order();
  auto it = std::find(order.begin(), order.end(), focus_);
  int at = it == order.end() ? 0 : static_cast<int>(it - order.begin());
  int size = static_cast<int>(order.size());
  focus_ = order[((at + delta) % size + size) % size];
}

void NewSessionDialog::change(Field field, int delta) {
  switch (field) {
    case Field::harness:
      if (!harnesses_.empty()) {
        int size = static_cast<int>(harnesses_.size());
        harness_ = static_cast<size_t>(((static_cast<int>(harness_) + delta) % size + size) % size);
      }
      break;
    case Field::sandboxed:
      // The one gate: without bubblewrap the switch stays off.
      if (sandbox_available_) sandboxed_ = !sandboxed_;
      break;
    case Field::filesystem:
      fs_ = fs_ == FsMode::rw ? FsMode::ro : FsMode::rw;
      break;
    case Field::network:
      net_ = !net_;
      break;
    default:
      break;
  }
}

Outcome NewSessionDialog::handle(const Key& key) {
  bool text = focus_ == Field::nickname || focus_ == Field::model;
  bool button = focus_ == Field::ok || focus_ == Field::cancel;
  switch (key.code) {
    case KeyCode::escape:
      return Outcome::cancel;
    case KeyCode::enter:
      return focus_ == Field::cancel ? Outcome::cancel : Outcome::submit;
    case KeyCode::tab:
    case KeyCode::down:
      move_focus(1);
      return Outcome::open;
    case KeyCode::backtab:
    case KeyCode::up:
      move_focus(-1);
      return Outcome::open;
    case KeyCode::left:
    case KeyCode::right:
      if (text)
        (focus_ == Field::nickname ? nickname_ : model_).handle(key);
      else if (button)
        focus_ = focus_ == Field::ok ? Field::cancel : Field::ok;
      else
        change(focus_, key.code == KeyCode::left ? -1 : 1);
      return Outcome::open;
    default:
      break;
  }
  if (text) {
    (focus_ == Field::nickname ? nickname_ : model_).handle(key);
    return Outcome::open;
  }
  if (key.is(' ')) {
    if (focus_ == Field::ok) return Outcome::submit;
    if (focus_ == Field::cancel) return Outcome::cancel;
    change(focus_, 1);
  }
  return Outcome::open;
}

NewSessionChoice NewSessionDialog::choice() const {
  NewSessionChoice out;
  if (!harnesses_.empty()) out.harness = harnesses_[harness_].name;
  out.nickname = trimmed(nickname_.text());
  out.model = trimmed(model_.text());
  if (sandboxed_) out.sandbox = SandboxPolicy{fs_, net_};
  return out;
}

}  // namespace hqt::tui
