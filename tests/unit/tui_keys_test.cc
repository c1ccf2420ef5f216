#include "core/tui_keys.h"

#include <gtest/gtest.h>

namespace hqt::tui {
namespace {

Action on_sessions(Key key) { return main_action(key, Pane::sessions); }
Action on_projects(Key key) { return main_action(key, Pane::projects); }

TEST(MainKeys, ArrowsAndViKeysMove) {
  EXPECT_EQ(on_sessions(Key::of(KeyCode::up)), Action::up);
  EXPECT_EQ(on_sessions(Key::character('k')), Action::up);
  EXPECT_EQ(on_projects(Key::of(KeyCode::down)), Action::down);
  EXPECT_EQ(on_projects(Key::character('j')), Action::down);
}

TEST(MainKeys, TabSwitchesLists) {
  EXPECT_EQ(on_projects(Key::of(KeyCode::tab)), Action::switch_focus);
  EXPECT_EQ(on_sessions(Key::of(KeyCode::backtab)), Action::switch_focus);
  EXPECT_EQ(on_sessions(Key::of(KeyCode::left)), Action::focus_projects);
  EXPECT_EQ(on_projects(Key::character('l')), Action::focus_sessions);
}

TEST(MainKeys, EnterAttachesASessionButOpensAProject) {
  EXPECT_EQ(on_sessions(Key::of(KeyCode::enter)), Action::attach);
  EXPECT_EQ(on_projects(Key::of(KeyCode::enter)), Action::focus_sessions);
}

TEST(MainKeys, LetterCommands) {
  EXPECT_EQ(on_projects(Key::character('a')), Action::add_project);
  EXPECT_EQ(on_projects(Key::character('n')), Action::new_session);
  EXPECT_EQ(on_sessions(Key::character('s')), Action::stop);
  EXPECT_EQ(on_sessions(Key::character('d')), Action::remove);
  EXPECT_EQ(on_sessions(Key::character('r')), Action::rename);
  EXPECT_EQ(on_sessions(Key::character('?')), Action::help);
  EXPECT_EQ(on_sessions(Key::character('q')), Action::quit);
  EXPECT_EQ(on_sessions(Key::character('x')), Action::none);
}

TEST(MainKeys, ResizeAndCtrlLRedraw) {
  EXPECT_EQ(on_sessions(Key::of(KeyCode::resize)), Action::redraw);
  EXPECT_EQ(on_sessions(Key::character(ctrl('l'))), Action::redraw);
  EXPECT_EQ(on_sessions(Key::of(KeyCode::none)), Action::none);
}

TEST(MainKeys, EveryHelpLineHasText) {
  size_t count = 0;
  const KeyHelp* help = main_key_help(&count);
  ASSERT_GT(count, 5u);
  for (size_t i = 0; i < count; ++i) EXPECT_EQ(help[i].keys.empty(), help[i].text.empty());
}

TEST(Utf8, AppendsOneToFourBytes) {
  std::string out;
  append_utf8(out, 'a');
  append_utf8(out, 0xe9);
  append_utf8(out, 0x2014);
  append_utf8(out, 0x1f600);
  EXPECT_EQ(out, "a\xc3\xa9\xe2\x80\x94\xf0\x9f\x98\x80");
}

}  // namespace
}  // namespace hqt::tui
