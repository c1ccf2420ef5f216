// The pure core, in process: the bwrap argv (sandbox::wrap), the claude and codex plugins'
// screen parsers on the captured screens, and the JSON of `hqt session list --json`.
#include <Poco/DateTimeFormatter.h>
#include <Poco/JSON/Stringifier.h>
#include <Poco/Timestamp.h>
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "adapters/plugin_loader.h"
#include "cli/json_out.h"
#include "core/sandbox.h"

namespace hqt {
namespace {

namespace fs = std::filesystem;

// Facts of a typical Debian host with a merged /usr and a node harness under $HOME.
sandbox::Facts typical_facts() {
  sandbox::Facts facts;
  facts.bwrap = "/usr/bin/bwrap";
  facts.home = "/home/user";
  facts.system = {{"/usr", ""},        {"/bin", "usr/bin"},     {"/sbin", "usr/sbin"},
                  {"/lib", "usr/lib"}, {"/lib64", "usr/lib64"}, {"/etc", ""},
                  {"/opt", ""}};
  facts.etc_secret_files = {"/etc/shadow", "/etc/gshadow", "/etc/ssl/private/key.pem",
                            "/etc/sudoers"};
  facts.etc_secret_dirs = {"/etc/ssl/private", "/etc/sudoers.d"};
  facts.tools = {{"/home/user/.local/bin/claude", "/home/user/.local/share/claude/versions/2.1.197",
                  "/home/user/.local/share/claude/versions/2.1.197"},
                 {"/usr/bin/env", "/usr/bin/env", "/usr/bin/env"}};
  facts.gitconfig = "/home/user/.gitconfig";
  facts.disable_userns = true;
  return facts;
}

std::vector<sandbox::MountBind> claude_binds() {
  return {{"/home/user/.claude", "/home/user/.claude", true},
          {"/home/user/.claude.json", "/home/user/.claude.json", true},
          {"/home/user/.config/claude", "", false}};
}

void BM_SandboxWrap(benchmark::State& state) {
  auto facts = typical_facts();
  auto binds = claude_binds();
  SandboxPolicy policy;
  policy.fs = state.range(0) ? FsMode::ro : FsMode::rw;
  policy.net = !state.range(0);
  std::vector<std::string> command{"claude", "--session-id", "7f0c",
                                   "--dangerously-skip-permissions"};
  for (auto _ : state) {
    auto argv = sandbox::wrap(command, "/home/user/src/project", policy, binds, facts);
    benchmark::DoNotOptimize(argv.data());
  }
}
BENCHMARK(BM_SandboxWrap)->ArgName("ro_nonet")->Arg(0)->Arg(1);

// The real plugins, loaded once from the build tree.
PluginHost& plugins() {
  static PluginHost host({HQT_PLUGIN_DIR}, {});
  return host;
}

std::vector<std::string> screens(const std::string& prefix) {
  std::vector<std::string> texts;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(HQT_SOURCE_DIR "/tests/fixtures/screens"))
    if (entry.path().filename().string().rfind(prefix + "-", 0) == 0) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    texts.push_back(text.str());
  }
  return texts;
}

// One iteration parses every captured screen of the harness; items are screens.
void parse_all(benchmark::State& state, const std::string& harness_name) {
  const Harness* harness = plugins().find(harness_name);
  if (!harness) {
    state.SkipWithError(("plugin harness '" + harness_name + "' not found").c_str());
    return;
  }
  auto texts = screens(harness_name);
  for (auto _ : state)
    for (const auto& text : texts) benchmark::DoNotOptimize(harness->parse_status(text));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(texts.size()));
  state.counters["screens"] = static_cast<double>(texts.size());
}

void BM_ParseStatusClaude(benchmark::State& state) { parse_all(state, "claude"); }
void BM_ParseStatusCodex(benchmark::State& state) { parse_all(state, "codex"); }
BENCHMARK(BM_ParseStatusClaude);
BENCHMARK(BM_ParseStatusCodex);

std::vector<Session> sample_sessions(int64_t count) {
  std::vector<Session> sessions;
  for (int64_t i = 1; i <= count; ++i) {
    Session s;
    s.id = i;
    s.project_id = 1;
    s.project = "bench";
    s.harness = i % 2 ? "claude" : "sleeper";
    s.nickname = s.harness + "-" + std::to_string(i) + (i % 7 ? "" : " \"quoted\"\t/é");
    s.tmux_session = "hqt-" + std::to_string(i);
    if (i % 2)
      s.harness_session_id = "0d6f1e6c-6d4a-4f0e-9a55-3c1f3f6f2b1" + std::to_string(i % 10);
    if (i % 3 == 0) s.sandbox = SandboxPolicy{i % 2 ? FsMode::ro : FsMode::rw, i % 2 == 0};
    s.created_at = 1767225600 + i;
    sessions.push_back(s);
  }
  return sessions;
}

// What print_json prints for the array of session_json objects.
std::string poco_list_json(const std::vector<Session>& sessions) {
  Poco::JSON::Array::Ptr array = new Poco::JSON::Array;
  for (const auto& s : sessions) array->add(cli::session_json(s, Status::idle));
  std::ostringstream out;
  Poco::JSON::Stringifier::stringify(array, out, 2);
  out << "\n";
  return out.str();
}

// What `hqt session list --json` prints (cmd_session.cc).
std::string direct_list_json(const std::vector<Session>& sessions) {
  std::string out = "[\n";
  for (size_t i = 0; i < sessions.size(); ++i) {
    if (i > 0) out += ",\n";
    cli::append_session_json(out, sessions[i], Status::idle);
  }
  out += "\n]\n";
  return out;
}

// `hqt session list --json` for N sessions: session_json for each, then Poco's stringifier.
void BM_SessionListJsonPoco(benchmark::State& state) {
  auto sessions = sample_sessions(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(poco_list_json(sessions).size());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_SessionListJsonPoco)->ArgName("sessions")->Arg(1)->Arg(100)->Arg(1000);

// The same text written directly, as the listing does.
void BM_SessionListJson(benchmark::State& state) {
  auto sessions = sample_sessions(state.range(0));
  if (direct_list_json(sessions) != poco_list_json(sessions)) {
    state.SkipWithError("the direct JSON differs from Poco's");
    return;
  }
  for (int64_t t : {int64_t{0}, int64_t{951782400}, int64_t{1767225600}, int64_t{4102444799}}) {
    if (cli::iso_time(t) !=
        Poco::DateTimeFormatter::format(Poco::Timestamp::fromEpochTime(t), "%Y-%m-%dT%H:%M:%SZ")) {
      state.SkipWithError("iso_time differs from Poco's DateTimeFormatter");
      return;
    }
  }
  for (auto _ : state) benchmark::DoNotOptimize(direct_list_json(sessions).size());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_SessionListJson)->ArgName("sessions")->Arg(1)->Arg(100)->Arg(1000);

}  // namespace
}  // namespace hqt
