#include "core/tui_dialog.h"

#include <gtest/gtest.h>

namespace hqt::tui {
namespace {

using Field = NewSessionDialog::Field;

const Key kTab = Key::of(KeyCode::tab);
const Key kBackTab = Key::of(KeyCode::backtab);
const Key kEnter = Key::of(KeyCode::enter);
const Key kEscape = Key::of(KeyCode::escape);
const Key kSpace = Key::character(' ');

std::vector<HarnessOption> two_harnesses() {
  return {{"claude", "Claude Code"}, {"sleeper", "sleeper"}};
}

void type(NewSessionDialog& dialog, std::string_view text) {
  for (char c : text) dialog.handle(Key::character(static_cast<unsigned char>(c)));
}

void focus(NewSessionDialog& dialog, Field field) {
  for (int i = 0; i < 10 && dialog.focus() != field; ++i) dialog.handle(kTab);
  ASSERT_EQ(dialog.focus(), field);
}

TEST(NewSessionDialog, StartsUnsandboxedOnTheFirstHarness) {
  NewSessionDialog dialog("proj", two_harnesses(), true);
  EXPECT_EQ(dialog.focus(), Field::harness);
  EXPECT_FALSE(dialog.sandboxed());
  EXPECT_EQ(dialog.choice(), (NewSessionChoice{"claude", "", "", std::nullopt}));
  EXPECT_EQ(dialog.warning(), "");
}

TEST(NewSessionDialog, SandboxedSwitchRevealsFilesystemAndNetwork) {
  NewSessionDialog dialog("proj", two_harnesses(), true);
  EXPECT_EQ(dialog.fields(), (std::vector<Field>{Field::harness, Field::nickname, Field::model,
                                                 Field::sandboxed, Field::ok, Field::cancel}));
  focus(dialog, Field::sandboxed);
  dialog.handle(kSpace);
  EXPECT_TRUE(dialog.sandboxed());
  EXPECT_EQ(dialog.fields(),
            (std::vector<Field>{Field::harness, Field::nickname, Field::model, Field::sandboxed,
                                Field::filesystem, Field::network, Field::ok, Field::cancel}));
  // The reference defaults: read-write, network on.
  EXPECT_EQ(dialog.choice().sandbox, (SandboxPolicy{FsMode::rw, true}));
  dialog.handle(kTab);
  EXPECT_EQ(dialog.focus(), Field::filesystem);
}

TEST(NewSessionDialog, TabAndShiftTabWalkTheFieldsInOrderAndWrap) {
  NewSessionDialog dialog("proj", two_harnesses(), true);
  std::vector<Field> seen;
  for (int i = 0; i < 7; ++i) {
    seen.push_back(dialog.focus());
    dialog.handle(kTab);
  }
  EXPECT_EQ(seen, (std::vector<Field>{Field::harness, Field::nickname, Field::model,
                                      Field::sandboxed, Field::ok, Field::cancel, Field::harness}));
  dialog.handle(kBackTab);  // from nickname
  EXPECT_EQ(dialog.focus(), Field::harness);
  dialog.handle(kBackTab);
  EXPECT_EQ(dialog.focus(), Field::cancel);
}

TEST(NewSessionDialog, SpaceAndArrowsCycleSelectsAndToggleSwitches) {
  NewSessionDialog dialog("proj", two_harnesses(), true);
  dialog.handle(kSpace);
  EXPECT_EQ(dialog.choice().harness, "sleeper");
  dialog.handle(kSpace);
  EXPECT_EQ(dialog.choice().harness, "claude");
  dialog.handle(Key::of(KeyCode::left));
  EXPECT_EQ(dialog.choice().harness, "sleeper");
  focus(dialog, Field::sandboxed);
  dialog.handle(Key::of(KeyCode::right));
  EXPECT_TRUE(dialog.sandboxed());
  focus(dialog, Field::filesystem);
  dialog.handle(kSpace);
  EXPECT_EQ(dialog.filesystem(), FsMode::ro);
  dialog.handle(Key::of(KeyCode::right));
  EXPECT_EQ(dialog.filesystem(), FsMode::rw);
  dialog.handle(kSpace);
  focus(dialog, Field::network);
  dialog.handle(kSpace);
  EXPECT_EQ(dialog.choice().sandbox, (SandboxPolicy{FsMode::ro, false}));
}

TEST(NewSessionDialog, TurningTheSandboxOffAgainGivesNoPolicy) {
  NewSessionDialog dialog("proj", two_harnesses(), true);
  focus(dialog, Field::sandboxed);
  dialog.handle(kSpace);
  dialog.handle(kSpace);
  EXPECT_FALSE(dialog.sandboxed());
  EXPECT_EQ(dialog.choice().sandbox, std::nullopt);
  EXPECT_EQ(dialog.fields().size(), 6u);
}

TEST(NewSessionDialog, WithoutBubblewrapTheSwitchCannotBeTurnedOnAndSaysWhy) {
  NewSessionDialog dialog("proj", two_harnesses(), false);
  EXPECT_FALSE(dialog.enabled(Field::sandboxed));
  EXPECT_EQ(dialog.warning(), "bubblewrap not found — run `hqt doctor`");
  // Shown, but the focus skips it, so Space can never reach it.
  EXPECT_EQ(dialog.fields()[3], Field::sandboxed);
  EXPECT_EQ(dialog.focus_order(), (std::vector<Field>{Field::harness, Field::nickname, Field::model,
                                                      Field::ok, Field::cancel}));
  for (int i = 0; i < 12; ++i) {
    dialog.handle(kTab);
    if (dialog.focus() != Field::nickname && dialog.focus() != Field::model) dialog.handle(kSpace);
    EXPECT_FALSE(dialog.sandboxed());
  }
}

TEST(NewSessionDialog, TextFieldsTakeTypingAndEnterSubmits) {
  NewSessionDialog dialog("proj", two_harnesses(), true);
  dialog.handle(kTab);
  type(dialog, "  fixer ");
  dialog.handle(kTab);
  type(dialog, "opus");
  dialog.handle(Key::of(KeyCode::backspace));
  EXPECT_EQ(dialog.handle(kEnter), Outcome::submit);
  EXPECT_EQ(dialog.choice(), (NewSessionChoice{"claude", "fixer", "opu", std::nullopt}));
}

TEST(NewSessionDialog, SpaceInATextFieldIsAChar) {
  NewSessionDialog dialog("proj", two_harnesses(), true);
  dialog.handle(kTab);
  type(dialog, "a b");
  EXPECT_EQ(dialog.nickname().text(), "a b");
}

TEST(NewSessionDialog, ButtonsSubmitOrCancel) {
  NewSessionDialog dialog("proj", two_harnesses(), true);
  focus(dialog, Field::ok);
  EXPECT_EQ(dialog.handle(kSpace), Outcome::submit);
  EXPECT_EQ(dialog.handle(kEnter), Outcome::submit);
  dialog.handle(Key::of(KeyCode::right));
  EXPECT_EQ(dialog.focus(), Field::cancel);
  EXPECT_EQ(dialog.handle(kEnter), Outcome::cancel);
  EXPECT_EQ(dialog.handle(kSpace), Outcome::cancel);
}

TEST(NewSessionDialog, EscapeCancelsFromAnyField) {
  NewSessionDialog dialog("proj", two_harnesses(), true);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(dialog.handle(kEscape), Outcome::cancel);
    dialog.handle(kTab);
  }
}

TEST(NewSessionDialog, ReadOnlyWithoutNetworkThroughTheKeysOnly) {
  // The sequence the integration test types: Tab to Sandboxed, Space, Tab, Space, Tab, Space.
  NewSessionDialog dialog("proj", two_harnesses(), true);
  for (char32_t c : std::u32string(U"\t\t\t \t \t ")) {
    dialog.handle(c == '\t' ? kTab : Key::character(c));
  }
  EXPECT_EQ(dialog.handle(kEnter), Outcome::submit);
  EXPECT_EQ(dialog.choice().sandbox, (SandboxPolicy{FsMode::ro, false}));
}

TEST(PromptDialog, EditsSubmitsAndCancels) {
  PromptDialog prompt("Add project", "Path", "/tmp");
  EXPECT_EQ(prompt.handle(Key::character('/')), Outcome::open);
  EXPECT_EQ(prompt.handle(Key::character('x')), Outcome::open);
  EXPECT_EQ(prompt.input().text(), "/tmp/x");
  EXPECT_EQ(prompt.handle(Key::character(ctrl('u'))), Outcome::open);
  EXPECT_EQ(prompt.input().text(), "");
  EXPECT_EQ(prompt.handle(kEnter), Outcome::submit);
  EXPECT_EQ(prompt.handle(kEscape), Outcome::cancel);
}

TEST(ConfirmDialog, OnlyYesConfirms) {
  ConfirmDialog confirm("Delete?");
  EXPECT_EQ(confirm.handle(Key::character('x')), Outcome::open);
  EXPECT_EQ(confirm.handle(kEnter), Outcome::open);
  EXPECT_EQ(confirm.handle(Key::character('n')), Outcome::cancel);
  EXPECT_EQ(confirm.handle(kEscape), Outcome::cancel);
  EXPECT_EQ(confirm.handle(Key::character('y')), Outcome::submit);
  EXPECT_EQ(confirm.handle(Key::character('Y')), Outcome::submit);
}

}  // namespace
}  // namespace hqt::tui
