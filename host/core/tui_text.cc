#include "core/tui_text.h"

namespace hqt::tui {
namespace {

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// Decodes the code point at `at` and moves `at` past it. A malformed byte reads as U+FFFD.
char32_t decode(std::string_view s, size_t& at) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char lead = byte(at);
  int extra = lead < 0x80 ? 0 : lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : -1;
  if (extra < 0 || at + extra >= s.size()) {
    ++at;
    return extra == 0 ? lead : 0xfffd;
  }
  char32_t ch = extra == 0 ? lead : lead & (0x3f >> extra);
  for (int i = 1; i <= extra; ++i) {
    if (!is_continuation(s[at + i])) {
      ++at;
      return 0xfffd;
    }
    ch = (ch << 6) | (byte(at + i) & 0x3f);
  }
  at += extra + 1;
  return ch;
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

int char_width(char32_t ch) {
  if ((ch >= 0x300 && ch <= 0x36f) || (ch >= 0x200b && ch <= 0x200f) ||
      (ch >= 0xfe00 && ch <= 0xfe0f))
    return 0;
  if ((ch >= 0x1100 && ch <= 0x115f) || (ch >= 0x2e80 && ch <= 0xa4cf && ch != 0x303f) ||
      (ch >= 0xac00 && ch <= 0xd7a3) || (ch >= 0xf900 && ch <= 0xfaff) ||
      (ch >= 0xfe30 && ch <= 0xfe4f) || (ch >= 0xff00 && ch <= 0xff60) ||
      (ch >= 0xffe0 && ch <= 0xffe6) || (ch >= 0x1f300 && ch <= 0x1f64f) ||
      (ch >= 0x1f900 && ch <= 0x1f9ff) || (ch >= 0x20000 && ch <= 0x3fffd))
    return 2;
  return 1;
}

int text_width(std::string_view utf8) {
  int width = 0;
  for (size_t at = 0; at < utf8.size();) width += char_width(decode(utf8, at));
  return width;
}

std::string fit(std::string_view utf8, int width, bool pad, bool ellipsis) {
  std::string out;
  if (width <= 0) return out;
  bool cut = text_width(utf8) > width;
  int room = cut && ellipsis ? width - 1 : width;
  int used = 0;
  for (size_t at = 0; at < utf8.size();) {
    size_t start = at;
    char32_t ch = decode(utf8, at);
    int w = char_width(ch);
    if (used + w > room) break;
    used += w;
    if (ch < 0x20 || ch == 0x7f)
      out += ' ';
    else if (ch == 0xfffd && at - start == 1)
      out += "\xef\xbf\xbd";
    else
      out.append(utf8.substr(start, at - start));
  }
  if (cut && ellipsis) {
    out += "\xe2\x80\xa6";  // …
    ++used;
  }
  if (pad && used < width) out.append(width - used, ' ');
  return out;
}

std::string sandbox_badge(const std::optional<SandboxPolicy>& sandbox) {
  if (!sandbox) return "";
  return std::string("[") + (sandbox->fs == FsMode::ro ? "ro" : "rw") +
         (sandbox->net ? ",net]" : ",no-net]");
}

std::string status_label(const std::optional<Status>& status) {
  return status ? std::string(to_string(*status)) : "?";
}

std::vector<std::string> preview_lines(std::string_view pane_text, int height) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= pane_text.size()) {
    size_t end = pane_text.find('\n', start);
    if (end == std::string_view::npos) end = pane_text.size();
    std::string_view line = pane_text.substr(start, end - start);
    start = end + 1;
    // A long blank run (a dead pane's note at the bottom of an empty screen) shows as one line.
    if (is_blank(line) && lines.size() >= 2 && is_blank(lines.back()) &&
        is_blank(lines[lines.size() - 2]))
      continue;
    lines.emplace_back(line);
  }
  while (!lines.empty() && is_blank(lines.back())) lines.pop_back();
  if (height <= 0) return {};
  if (lines.size() > static_cast<size_t>(height)) lines.erase(lines.begin(), lines.end() - height);
  return lines;
}

std::string first_line(std::string_view message) {
  size_t start = 0;
  while (start < message.size()) {
    size_t end = message.find('\n', start);
    if (end == std::string_view::npos) end = message.size();
    std::string_view line = message.substr(start, end - start);
    if (!is_blank(line)) {
      size_t first = line.find_first_not_of(" \t");
      size_t last = line.find_last_not_of(" \t\r");
      return std::string(line.substr(first, last - first + 1));
    }
    start = end + 1;
  }
  return "";
}

void LineEdit::set_text(std::string text) {
  text_ = std::move(text);
  cursor_ = text_.size();
}

size_t LineEdit::previous(size_t at) const {
  if (at == 0) return 0;
  --at;
  while (at > 0 && is_continuation(text_[at])) --at;
  return at;
}

size_t LineEdit::next(size_t at) const {
  if (at >= text_.size()) return text_.size();
  ++at;
  while (at < text_.size() && is_continuation(text_[at])) ++at;
  return at;
}

bool LineEdit::handle(const Key& key) {
  switch (key.code) {
    case KeyCode::backspace: {
      size_t from = previous(cursor_);
      text_.erase(from, cursor_ - from);
      cursor_ = from;
      return true;
    }
    case KeyCode::del:
      text_.erase(cursor_, next(cursor_) - cursor_);
      return true;
    case KeyCode::left:
      cursor_ = previous(cursor_);
      return true;
    case KeyCode::right:
      cursor_ = next(cursor_);
      return true;
    case KeyCode::home:
      cursor_ = 0;
      return true;
    case KeyCode::end:
      cursor_ = text_.size();
      return true;
    case KeyCode::character:
      break;
    default:
      return false;
  }
  switch (key.ch) {
    case ctrl('a'):
      cursor_ = 0;
      return true;
    case ctrl('e'):
      cursor_ = text_.size();
      return true;
    case ctrl('u'):
      text_.erase(0, cursor_);
      cursor_ = 0;
      return true;
    case ctrl('k'):
      text_.erase(cursor_);
      return true;
    case ctrl('h'):
    case 0x7f:
      return handle(Key::of(KeyCode::backspace));
    default:
      break;
  }
  if (key.ch < 0x20 || key.ch == 0x7f) return false;
  std::string bytes;
  append_utf8(bytes, key.ch);
  text_.insert(cursor_, bytes);
  cursor_ += bytes.size();
  return true;
}

LineEdit::View LineEdit::view(int width) const {
  View out;
  if (width <= 0) return out;
  // Start as far left as possible while the cursor (plus one column for it) still fits.
  size_t start = 0;
  while (text_width(std::string_view(text_).substr(start, cursor_ - start)) >= width)
    start = next(start);
  out.cursor_column = text_width(std::string_view(text_).substr(start, cursor_ - start));
  out.text = fit(std::string_view(text_).substr(start), width);
  return out;
}

}  // namespace hqt::tui
