// The "codex" harness: Codex CLI.
//
// Checked against Codex CLI 0.171.0 (`codex --help`, `codex resume --help`, its screens in tmux,
// its session files, and the strings in its binary):
//  - `codex` starts a conversation and picks its own id; `codex resume <id>` continues one; both
//    take `-m <model>` and `--dangerously-bypass-approvals-and-sandbox` (no approval prompts and no
//    sandbox of its own: for environments that are sandboxed from outside, like ours).
//  - Everything lives under $CODEX_HOME (default ~/.codex): auth.json, config.toml, sqlite state
//    and the conversations, one file per conversation at
//    sessions/YYYY/MM/DD/rollout-<local time>-<id>.jsonl. The first line of that file is a
//    "session_meta" record whose payload holds the id, the cwd and the start time ("timestamp",
//    UTC, when the conversation was created at launch).
//  - When the file appears: not at start. Run in a tmux pane, codex shows its prompt, creates the
//    conversation id at launch (the id and start time already match the launch), but writes
//    nothing under sessions/ until the first prompt is submitted; then the file appears with the
//    session_meta line first. Until then capture_session_id finds nothing, and the host asks again
//    later.
//  - Busy: "Working (5s • esc to interrupt)" (or "Reconnecting... (… • esc to interrupt)").
//    Questions: "Would you like to run the following command?" (also "… make the following
//    edits?", "… grant these permissions?") with "Press enter to confirm or esc to cancel", the
//    folder trust prompt ("Trust this folder?"), and the sign-in choice ("Press enter to
//    continue"). At its prompt the composer line starts with "›".
#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeParser.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Path.h>
#include <hqt/plugin.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>

#include "plugin_support.h"

namespace {

namespace fs = std::filesystem;
using hqt::plugin::ArgvRequest;
using hqt::plugin::OwnedHarness;

// How much earlier than `started_at` a conversation may claim to have started: the host reads
// its clock just before the spawn, codex a moment later, but clocks of different processes may
// disagree by a little.
constexpr double kClockSlackSeconds = 2.0;

bool generate_session_id(const hqt_harness*, hqt_sink*) { return true; }  // codex picks its own

bool build_spawn_argv(const hqt_harness* self, const hqt_argv_request* request, hqt_sink* argv) {
  return hqt::plugin::guarded([&] {
    if (!self || !request) return false;
    const OwnedHarness& h = OwnedHarness::of(self);
    ArgvRequest r = hqt::plugin::read_request(*request);
    hqt::plugin::write_all(
        argv, hqt::plugin::with_options({h.executable}, r, "-m", h.skip_permission_flags));
    return true;
  });
}

bool build_resume_argv(const hqt_harness* self, const hqt_argv_request* request, hqt_sink* argv) {
  return hqt::plugin::guarded([&] {
    if (!self || !request) return false;
    const OwnedHarness& h = OwnedHarness::of(self);
    ArgvRequest r = hqt::plugin::read_request(*request);
    if (r.session_id.empty()) return false;  // without an id `codex resume` opens a picker
    hqt::plugin::write_all(argv, hqt::plugin::with_options({h.executable, "resume", r.session_id},
                                                           r, "-m", h.skip_permission_flags));
    return true;
  });
}

hqt_status parse_status(const hqt_harness*, const char* text, size_t length) {
  try {
    if (!text) return HQT_STATUS_UNKNOWN;
    auto lines = hqt::plugin::last_lines({text, length});
    if (hqt::plugin::any_contains(lines, {"esc to interrupt"})) return HQT_STATUS_WORKING;
    if (hqt::plugin::any_contains(
            lines, {"Would you like to ", "Do you want to ", "Press enter to confirm",
                    "Press enter to continue", "Trust this folder?"}) ||
        hqt::plugin::asks_yes_no(lines))
      return HQT_STATUS_WAITING;
    if (hqt::plugin::any_starts_with(lines, "\u203a")) return HQT_STATUS_IDLE;  // ›
    return HQT_STATUS_UNKNOWN;
  } catch (...) {
    return HQT_STATUS_UNKNOWN;
  }
}

// $CODEX_HOME, else ~/.codex.
std::string codex_home() {
  std::string home = hqt::plugin::env_value("CODEX_HOME");
  if (!home.empty()) return home;
  return (fs::path(Poco::Path::home()) / ".codex").string();
}

// "YYYY", "MM", "DD" of a unix time, in UTC.
struct Day {
  std::string year, month, day;
};
Day utc_day(double unix_seconds) {
  std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d", tm.tm_year + 1900);
  Day d{buf, "", ""};
  std::snprintf(buf, sizeof buf, "%02d", tm.tm_mon + 1);
  d.month = buf;
  std::snprintf(buf, sizeof buf, "%02d", tm.tm_mday);
  d.day = buf;
  return d;
}

// Subdirectories of `dir` whose names sort at or after `from` ("" = all), sorted.
std::vector<fs::path> subdirs_from(const fs::path& dir, const std::string& from) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_directory(type_ec)) continue;
    if (it->path().filename().string() >= from) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// What the first line of a rollout file says about its conversation.
struct SessionMeta {
  std::string id;
  std::string cwd;
  double started_at = 0;  // unix seconds
};

std::optional<double> parse_utc(const std::string& text) {
  Poco::DateTime when;
  int tzd = 0;
  if (!Poco::DateTimeParser::tryParse(Poco::DateTimeFormat::ISO8601_FRAC_FORMAT, text, when, tzd))
    return std::nullopt;
  return static_cast<double>(when.timestamp().epochMicroseconds()) / 1e6 - tzd;
}

// Reads the session_meta line of `file`; nullopt when it is not (yet) a complete one.
std::optional<SessionMeta> read_meta(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  if (!in || !std::getline(in, line) || in.eof()) return std::nullopt;  // no complete line yet
  try {
    Poco::JSON::Parser parser;
    auto record = parser.parse(line).extract<Poco::JSON::Object::Ptr>();
    if (!record || record->optValue<std::string>("type", "") != "session_meta") return std::nullopt;
    auto payload = record->getObject("payload");
    if (!payload) return std::nullopt;
    SessionMeta meta;
    meta.id = payload->optValue<std::string>("id", "");
    meta.cwd = payload->optValue<std::string>("cwd", "");
    // The payload's timestamp is the conversation's start; the record's own is when it was written.
    auto started = parse_utc(payload->optValue<std::string>("timestamp", ""));
    if (!started) started = parse_utc(record->optValue<std::string>("timestamp", ""));
    if (meta.id.empty() || !started) return std::nullopt;
    meta.started_at = *started;
    return meta;
  } catch (...) {
    return std::nullopt;
  }
}

std::string without_trailing_slash(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

bool same_dir(const std::string& recorded, const std::string& project_dir) {
  if (without_trailing_slash(recorded) == without_trailing_slash(project_dir)) return true;
  std::error_code ec;
  return !recorded.empty() && fs::equivalent(recorded, project_dir, ec) && !ec;
}

bool is_rollout(const std::string& name) {
  return name.starts_with("rollout-") && name.ends_with(".jsonl");
}

// The conversation whose rollout file the session's own codex holds open (codex keeps it open
// while the conversation runs), the latest started if several; nullopt when none is.
std::optional<SessionMeta> held_open(const hqt::plugin::CaptureRequest& r) {
  std::optional<SessionMeta> best;
  for (const auto& file : r.open_files) {
    const fs::path path(file);
    if (!is_rollout(path.filename().string())) continue;
    // Named as codex sees it: inside a sandbox that is the same path ($CODEX_HOME is shown
    // where it is), so the file reads the same from here.
    auto meta = read_meta(path);
    if (!meta) continue;
    if (std::find(r.taken_ids.begin(), r.taken_ids.end(), meta->id) != r.taken_ids.end()) continue;
    if (!best || meta->started_at > best->started_at) best = std::move(meta);
  }
  return best;
}

// The conversation whose rollout file the session's codex holds open. Else (its codex has ended,
// or an older host does not say) the conversation under $CODEX_HOME/sessions that ran in the
// project and started first at or after `started_at` (less the clock slack), and belongs to no
// other session: the one closest to this session's launch. (The host asks for its newest session
// first, so a later session's conversation is already taken when an earlier session that has
// none yet asks; two sessions launched within the slack of each other can only be told apart by
// their open files.)
bool capture_session_id(const hqt_harness*, const hqt_capture_request* request, hqt_sink* id) {
  return hqt::plugin::guarded([&] {
    if (!request) return false;
    hqt::plugin::CaptureRequest r = hqt::plugin::read_request(*request);
    if (auto own = held_open(r)) {
      hqt::plugin::write(id, own->id);
      return true;
    }
    const double earliest = r.started_at - kClockSlackSeconds;
    // Day directories are named in local time: start a day early so any time zone is covered.
    const Day first = utc_day(earliest - 24 * 3600);
    const fs::path sessions = fs::path(codex_home()) / "sessions";

    std::optional<SessionMeta> best;
    for (const auto& year : subdirs_from(sessions, first.year)) {
      const bool first_year = year.filename() == first.year;
      for (const auto& month : subdirs_from(year, first_year ? first.month : "")) {
        const bool first_month = first_year && month.filename() == first.month;
        for (const auto& day : subdirs_from(month, first_month ? first.day : "")) {
          std::error_code ec;
          for (fs::directory_iterator it(day, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (!is_rollout(name)) continue;
            auto meta = read_meta(it->path());
            if (!meta || meta->started_at < earliest || !same_dir(meta->cwd, r.project_dir))
              continue;
            if (std::find(r.taken_ids.begin(), r.taken_ids.end(), meta->id) != r.taken_ids.end())
              continue;
            if (!best || meta->started_at < best->started_at) best = std::move(meta);
          }
        }
      }
    }
    if (best) hqt::plugin::write(id, best->id);
    return true;
  });
}

bool init(const hqt_host*, hqt_sink*) {
  return hqt::plugin::guarded([] {
    auto h = std::make_unique<OwnedHarness>();
    h->name = "codex";
    h->display_name = "Codex CLI";
    h->executable = "codex";
    h->captures_session_id = true;
    h->skip_permission_flags = {"--dangerously-bypass-approvals-and-sandbox"};
    std::string home = hqt::plugin::env_value("CODEX_HOME");
    h->binds = {{home.empty() ? "~/.codex" : home, HQT_BIND_WRITABLE | HQT_BIND_CREATE}};
    h->sandbox_env = {
        "OPENAI_API_KEY",  "CODEX_API_KEY",
        "OPENAI_BASE_URL", "OPENAI_ORGANIZATION",
        "CODEX_HOME",      "CODEX_CA_CERTIFICATE",
        "SSL_CERT_FILE",   "HTTPS_PROXY",
        "HTTP_PROXY",      "NO_PROXY",
    };
    h->c.generate_session_id = generate_session_id;
    h->c.build_spawn_argv = build_spawn_argv;
    h->c.build_resume_argv = build_resume_argv;
    h->c.parse_status = parse_status;
    h->c.capture_session_id = capture_session_id;
    hqt::plugin::serve_only(std::move(h));
    return true;
  });
}

}  // namespace

HQT_DEFINE_PLUGIN_ENTRY(codex_entry) = {
    HQT_ABI_VERSION, "codex", "0.1.0", init, hqt::plugin::deinit, hqt::plugin::get_interface};
