#include "core/tui_text.h"

#include <gtest/gtest.h>

namespace hqt::tui {
namespace {

TEST(TuiText, WidthCountsColumnsNotBytes) {
  EXPECT_EQ(text_width("abc"), 3);
  EXPECT_EQ(text_width("a—b"), 3);
  EXPECT_EQ(text_width("日本"), 4);
  EXPECT_EQ(text_width("e\xcc\x81"), 1);  // e + combining acute
}

TEST(TuiText, FitCutsAndPads) {
  EXPECT_EQ(fit("hello", 3), "hel");
  EXPECT_EQ(fit("hello", 3, false, true), "he…");
  EXPECT_EQ(fit("hi", 4, true), "hi  ");
  EXPECT_EQ(fit("a—b—c", 3), "a—b");
  EXPECT_EQ(fit("日本語", 5, true), "日本 ");  // a wide char never straddles the edge
  EXPECT_EQ(fit("a\tb", 3), "a b");
  EXPECT_EQ(fit("x", 0, true), "");
}

TEST(TuiText, FitKeepsMalformedBytesToOneColumn) {
  EXPECT_EQ(text_width(fit("a\xff"
                           "b",
                           5)),
            3);
}

TEST(TuiText, SandboxBadgeShowsFilesystemAndNetwork) {
  EXPECT_EQ(sandbox_badge(std::nullopt), "");
  EXPECT_EQ(sandbox_badge(SandboxPolicy{FsMode::ro, true}), "[ro,net]");
  EXPECT_EQ(sandbox_badge(SandboxPolicy{FsMode::rw, false}), "[rw,no-net]");
}

TEST(TuiText, StatusLabel) {
  EXPECT_EQ(status_label(Status::waiting), "waiting");
  EXPECT_EQ(status_label(std::nullopt), "?");
}

TEST(TuiText, PreviewShowsTheLastLinesWithoutTrailingBlanks) {
  EXPECT_EQ(preview_lines("a\nb\nc\n\n   \n", 2), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(preview_lines("a\nb", 5), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(preview_lines("\n\n", 3).empty());
  EXPECT_TRUE(preview_lines("a", 0).empty());
  EXPECT_EQ(preview_lines("quick\n\n\n\n\n\nPane is dead\n", 4),
            (std::vector<std::string>{"quick", "", "", "Pane is dead"}));
}

TEST(TuiText, FirstLineSkipsBlankLines) {
  EXPECT_EQ(first_line("\n  bwrap: cannot mount  \nmore"), "bwrap: cannot mount");
  EXPECT_EQ(first_line(""), "");
}

TEST(LineEdit, InsertsAtTheCursorAndDeletesWholeCharacters) {
  LineEdit edit("ab");
  edit.handle(Key::of(KeyCode::left));
  edit.handle(Key::character(0x2014));
  EXPECT_EQ(edit.text(), "a—b");
  edit.handle(Key::of(KeyCode::backspace));
  EXPECT_EQ(edit.text(), "ab");
  edit.handle(Key::of(KeyCode::home));
  edit.handle(Key::of(KeyCode::del));
  EXPECT_EQ(edit.text(), "b");
  edit.handle(Key::character(ctrl('e')));
  edit.handle(Key::character('c'));
  EXPECT_EQ(edit.text(), "bc");
  edit.handle(Key::character(0x7f));  // DEL as sent by most terminals for Backspace
  EXPECT_EQ(edit.text(), "b");
}

TEST(LineEdit, ClearsBeforeAndAfterTheCursor) {
  LineEdit edit("hello world");
  for (int i = 0; i < 5; ++i) edit.handle(Key::of(KeyCode::left));
  edit.handle(Key::character(ctrl('k')));
  EXPECT_EQ(edit.text(), "hello ");
  edit.handle(Key::character(ctrl('u')));
  EXPECT_EQ(edit.text(), "");
}

TEST(LineEdit, IgnoresOtherControlKeys) {
  LineEdit edit("x");
  EXPECT_FALSE(edit.handle(Key::of(KeyCode::tab)));
  EXPECT_FALSE(edit.handle(Key::character(ctrl('b'))));
  EXPECT_EQ(edit.text(), "x");
}

TEST(LineEdit, ViewScrollsToKeepTheCursorVisible) {
  LineEdit edit("0123456789");
  auto view = edit.view(5);
  EXPECT_EQ(view.text, "6789");
  EXPECT_EQ(view.cursor_column, 4);
  edit.handle(Key::of(KeyCode::home));
  view = edit.view(5);
  EXPECT_EQ(view.text, "01234");
  EXPECT_EQ(view.cursor_column, 0);
}

}  // namespace
}  // namespace hqt::tui
