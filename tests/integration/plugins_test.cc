// The in-tree plugins (claude, codex, kiro, generic), built for real and loaded through PluginHost.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hqt/plugin.h>
#include <stdlib.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <regex>

#include "adapters/plugin_loader.h"
#include "integration/test_util.h"

namespace hqt {
namespace {

namespace fs = std::filesystem;

// Sets (or unsets, with nullopt) an environment variable for the scope, then restores it. The
// plugins read CLAUDE_CONFIG_DIR and CODEX_HOME at init, codex also when capturing.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = ::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_.c_str(), old_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

std::unique_ptr<PluginHost> load(const std::vector<CommandHarness>& commands = {}) {
  return std::make_unique<PluginHost>(std::vector<std::string>{HQT_PLUGIN_DIR}, commands);
}

// A plugin host with the default environment: no CLAUDE_CONFIG_DIR, no CODEX_HOME.
struct DefaultHost {
  ScopedEnv claude_dir{"CLAUDE_CONFIG_DIR", std::nullopt};
  ScopedEnv codex_home{"CODEX_HOME", std::nullopt};
  std::unique_ptr<PluginHost> host = load();

  const Harness& get(std::string_view name) const {
    const Harness* h = host->find(name);
    if (!h) throw std::runtime_error("no harness " + std::string(name));
    return *h;
  }
};

using Argv = std::vector<std::string>;

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// ---------------------------------------------------------------------------------------------
// Loading

TEST(Plugins, AllFourLoadWithTheirHarnesses) {
  DefaultHost d;
  const auto& reports = d.host->reports();
  ASSERT_EQ(reports.size(), 4u);
  std::vector<std::string> names;
  for (const PluginReport& r : reports) {
    EXPECT_TRUE(r.loaded) << r.path << ": " << r.reason;
    EXPECT_EQ(r.version, "0.1.0") << r.path;
    EXPECT_EQ(r.abi, std::to_string(HQT_ABI_VERSION_MAJOR) + "." +
                         std::to_string(HQT_ABI_VERSION_MINOR) + "." +
                         std::to_string(HQT_ABI_VERSION_PATCH));
    EXPECT_EQ(fs::path(r.path).filename().string(), "hqt-" + r.name + ".so");
    names.push_back(r.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"claude", "codex", "generic", "kiro"}));
  std::vector<std::string> harnesses;
  for (const Harness* h : d.host->all()) harnesses.push_back(h->info().name);
  std::sort(harnesses.begin(), harnesses.end());
  EXPECT_EQ(harnesses, (std::vector<std::string>{"claude", "codex", "kiro"}));
}

// ---------------------------------------------------------------------------------------------
// claude

const std::regex kUuidV4("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

TEST(ClaudePlugin, DeclaresItsHarness) {
  DefaultHost d;
  const HarnessInfo& info = d.get("claude").info();
  EXPECT_EQ(info.display_name, "Claude Code");
  EXPECT_EQ(info.executable, "claude");
  EXPECT_FALSE(info.captures_session_id);
  EXPECT_EQ(info.skip_permission_flags, (Argv{"--dangerously-skip-permissions"}));
  EXPECT_EQ(info.binds, (std::vector<Bind>{{"~/.claude", false, true, true},
                                           {"~/.claude.json", true, true, true}}));
  for (const char* name : {"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL",
                           "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX",
                           "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CONFIG_DIR"})
    EXPECT_TRUE(contains(info.sandbox_env, name)) << name;
}

TEST(ClaudePlugin, ConfigDirReplacesBothBindsWhenSet) {
  ScopedEnv dir("CLAUDE_CONFIG_DIR", "/srv/claude-config");
  auto host = load();
  ASSERT_NE(host->find("claude"), nullptr);
  EXPECT_EQ(host->find("claude")->info().binds,
            (std::vector<Bind>{{"/srv/claude-config", false, true, true}}));
}

TEST(ClaudePlugin, SessionIdsAreFreshV4Uuids) {
  DefaultHost d;
  const Harness& claude = d.get("claude");
  std::string a = claude.generate_session_id();
  std::string b = claude.generate_session_id();
  EXPECT_TRUE(std::regex_match(a, kUuidV4)) << a;
  EXPECT_TRUE(std::regex_match(b, kUuidV4)) << b;
  EXPECT_NE(a, b);
}

TEST(ClaudePlugin, SpawnStartsUnderTheGivenId) {
  DefaultHost d;
  const Harness& claude = d.get("claude");
  const std::string id = "0b6f2a57-3c0e-4b8e-9a43-2f1d5e7c9a10";
  EXPECT_EQ(claude.spawn_argv({"/p", id, "", false}), (Argv{"claude", "--session-id", id}));
  EXPECT_EQ(claude.spawn_argv({"/p", id, "opus", false}),
            (Argv{"claude", "--session-id", id, "--model", "opus"}));
  EXPECT_EQ(claude.spawn_argv({"/p", id, "", true}),
            (Argv{"claude", "--session-id", id, "--dangerously-skip-permissions"}));
  EXPECT_EQ(
      claude.spawn_argv({"/p", id, "sonnet", true}),
      (Argv{"claude", "--session-id", id, "--model", "sonnet", "--dangerously-skip-permissions"}));
}

TEST(ClaudePlugin, ResumeContinuesTheId) {
  DefaultHost d;
  const Harness& claude = d.get("claude");
  const std::string id = "0b6f2a57-3c0e-4b8e-9a43-2f1d5e7c9a10";
  EXPECT_EQ(claude.resume_argv({"/p", id, "", false}), (Argv{"claude", "--resume", id}));
  EXPECT_EQ(claude.resume_argv({"/p", id, "opus", false}),
            (Argv{"claude", "--resume", id, "--model", "opus"}));
  EXPECT_EQ(claude.resume_argv({"/p", id, "opus", true}),
            (Argv{"claude", "--resume", id, "--model", "opus", "--dangerously-skip-permissions"}));
}

TEST(ClaudePlugin, CannotResumeWithoutAnId) {
  DefaultHost d;
  EXPECT_TRUE(d.get("claude").resume_argv({"/p", "", "", true}).empty());
}

TEST(ClaudePlugin, CapturesNothing) {
  DefaultHost d;
  EXPECT_EQ(d.get("claude").capture_session_id({"/p", 0, {}, {}}), "");
}

// ---------------------------------------------------------------------------------------------
// codex

TEST(CodexPlugin, DeclaresItsHarness) {
  DefaultHost d;
  const HarnessInfo& info = d.get("codex").info();
  EXPECT_EQ(info.display_name, "Codex CLI");
  EXPECT_EQ(info.executable, "codex");
  EXPECT_TRUE(info.captures_session_id);
  EXPECT_EQ(info.skip_permission_flags, (Argv{"--dangerously-bypass-approvals-and-sandbox"}));
  EXPECT_EQ(info.binds, (std::vector<Bind>{{"~/.codex", false, true, true}}));
  for (const char* name : {"OPENAI_API_KEY", "CODEX_API_KEY", "CODEX_HOME"})
    EXPECT_TRUE(contains(info.sandbox_env, name)) << name;
}

TEST(CodexPlugin, CodexHomeReplacesTheBindWhenSet) {
  ScopedEnv home("CODEX_HOME", "/srv/codex-home");
  auto host = load();
  ASSERT_NE(host->find("codex"), nullptr);
  EXPECT_EQ(host->find("codex")->info().binds,
            (std::vector<Bind>{{"/srv/codex-home", false, true, true}}));
}

TEST(CodexPlugin, GeneratesNoId) {
  DefaultHost d;
  EXPECT_EQ(d.get("codex").generate_session_id(), "");
}

TEST(CodexPlugin, SpawnArgv) {
  DefaultHost d;
  const Harness& codex = d.get("codex");
  EXPECT_EQ(codex.spawn_argv({"/p", "", "", false}), (Argv{"codex"}));
  EXPECT_EQ(codex.spawn_argv({"/p", "", "o3", false}), (Argv{"codex", "-m", "o3"}));
  EXPECT_EQ(codex.spawn_argv({"/p", "", "", true}),
            (Argv{"codex", "--dangerously-bypass-approvals-and-sandbox"}));
  EXPECT_EQ(codex.spawn_argv({"/p", "", "o3", true}),
            (Argv{"codex", "-m", "o3", "--dangerously-bypass-approvals-and-sandbox"}));
}

TEST(CodexPlugin, ResumeArgv) {
  DefaultHost d;
  const Harness& codex = d.get("codex");
  const std::string id = "01a22af4-98bc-7f22-8bae-3410e3eb75db";
  EXPECT_EQ(codex.resume_argv({"/p", id, "", false}), (Argv{"codex", "resume", id}));
  EXPECT_EQ(codex.resume_argv({"/p", id, "o3", false}), (Argv{"codex", "resume", id, "-m", "o3"}));
  EXPECT_EQ(codex.resume_argv({"/p", id, "", true}),
            (Argv{"codex", "resume", id, "--dangerously-bypass-approvals-and-sandbox"}));
  EXPECT_TRUE(codex.resume_argv({"/p", "", "", false}).empty());
}

// A $CODEX_HOME with rollout files shaped like Codex CLI 0.171.0's.
class CodexSessions : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = std::make_unique<ScopedEnv>("CODEX_HOME", root.path() + "/codex");
    project = root.path() + "/project";
    fs::create_directories(project);
    host = load();
    codex = host->find("codex");
    ASSERT_NE(codex, nullptr);
  }

  static std::string iso(double unix_seconds) {
    std::time_t t = static_cast<std::time_t>(unix_seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    int millis = static_cast<int>((unix_seconds - static_cast<double>(t)) * 1000);
    char out[40];
    std::snprintf(out, sizeof out, "%s.%03dZ", buf, millis);
    return out;
  }

  // The first line codex writes: a session_meta record. `written` is when the first prompt was
  // submitted; `started` when the conversation was created at launch.
  static std::string meta_line(const std::string& id, const std::string& cwd, double started,
                               double written) {
    return R"({"timestamp":")" + iso(written) +
           R"(","ordinal":0,"type":"session_meta","payload":{"account_scoped":true,"session_id":")" +
           id + R"(","id":")" + id + R"(","timestamp":")" + iso(started) + R"(","cwd":")" + cwd +
           R"(","runtime_workspace_roots":[")" + cwd +
           R"("],"originator":"codex-tui","cli_version":"0.171.0","source":"cli",)"
           R"("thread_source":"user","model_provider":"openai","base_instructions":{"text":)"
           R"("You are Codex, an agent based on GPT.\n\n# Personality\n"}}})";
  }

  // Writes a rollout file the way codex names and fills it; returns its path.
  std::string write_rollout(const std::string& id, const std::string& cwd, double started,
                            const std::string& first_line = "") {
    std::time_t t = static_cast<std::time_t>(started);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char day[16], stamp[32];
    std::strftime(day, sizeof day, "%Y/%m/%d", &tm);
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H-%M-%S", &tm);
    fs::path dir = fs::path(root.path()) / "codex" / "sessions" / day;
    fs::create_directories(dir);
    std::string path = (dir / ("rollout-" + std::string(stamp) + "-" + id + ".jsonl")).string();
    std::string text = first_line.empty() ? meta_line(id, cwd, started, started + 9.5) + "\n" +
                                                R"({"timestamp":")" + iso(started + 9.5) +
                                                R"(","ordinal":1,"type":"event_msg",)"
                                                R"("payload":{"type":"task_started"}})" +
                                                "\n"
                                          : first_line;
    test::write_file(path, text);
    return path;
  }

  std::string capture(double started_at, std::vector<std::string> taken = {}) const {
    return codex->capture_session_id({project, started_at, std::move(taken), {}});
  }

  test::TempDir root;
  std::unique_ptr<ScopedEnv> home_;
  std::string project;
  std::unique_ptr<PluginHost> host;
  const Harness* codex = nullptr;

  // 2026-11-30T05:36:47Z, a moment before codex's launch in the real run the format comes from.
  const double t0 = 1796017007.0;
  const std::string id_a = "01a22af4-98bc-7f22-8bae-3410e3eb75db";
  const std::string id_b = "01a22af8-1228-70c2-8cbe-0ac3cf74baba";
};

TEST_F(CodexSessions, NothingBeforeCodexWritesItsFile) {
  EXPECT_EQ(capture(t0), "");  // no sessions directory at all
  fs::create_directories(root.path() + "/codex/sessions/2026/11/30");
  EXPECT_EQ(capture(t0), "");
}

TEST_F(CodexSessions, FindsTheConversationStartedInTheProject) {
  write_rollout(id_a, project, t0 + 1.8);
  EXPECT_EQ(capture(t0), id_a);
}

TEST_F(CodexSessions, IgnoresOtherProjects) {
  write_rollout(id_a, root.path() + "/elsewhere", t0 + 1);
  EXPECT_EQ(capture(t0), "");
}

TEST_F(CodexSessions, IgnoresConversationsStartedBeforeTheSession) {
  write_rollout(id_a, project, t0 - 60);
  EXPECT_EQ(capture(t0), "");
}

TEST_F(CodexSessions, AllowsAFewSecondsOfClockSlack) {
  write_rollout(id_a, project, t0 - 1.5);
  EXPECT_EQ(capture(t0), id_a);
}

TEST_F(CodexSessions, TwoSessionsInOneProjectEachGetTheirOwn) {
  write_rollout(id_a, project, t0 + 1);
  write_rollout(id_b, project, t0 + 4);
  EXPECT_EQ(capture(t0, {id_b}), id_a);
  EXPECT_EQ(capture(t0 + 3, {id_a}), id_b);
  EXPECT_EQ(capture(t0), id_a);  // nothing taken yet: the one closest to the session's start
  EXPECT_EQ(capture(t0, {id_a, id_b}), "");
}

// The conversation whose rollout file the session's codex holds open is its own, whatever the
// start times say; an open file that is not a rollout, or one another session owns, is not.
TEST_F(CodexSessions, TheRolloutItsCodexHoldsOpenWins) {
  std::string a = write_rollout(id_a, project, t0 + 1);
  std::string b = write_rollout(id_b, project, t0 + 2);
  auto capture_open = [&](std::vector<std::string> open, std::vector<std::string> taken = {}) {
    return codex->capture_session_id({project, t0, std::move(taken), std::move(open)});
  };
  EXPECT_EQ(capture(t0), id_a);  // by start time
  EXPECT_EQ(capture_open({"/dev/pts/3", b, "/tmp/other.log"}), id_b);
  EXPECT_EQ(capture_open({b}, {id_b}), id_a);  // taken: back to the start times
  EXPECT_EQ(capture_open({root.path() + "/codex/sessions/notes.jsonl"}), id_a);
  // Several open (a new conversation in the same codex): the latest started.
  EXPECT_EQ(capture_open({b, a}), id_b);
}

TEST_F(CodexSessions, SkipsFilesThatAreNotCompleteSessionMeta) {
  // Still being written: no newline after the first line yet.
  write_rollout(id_a, project, t0 + 1, meta_line(id_a, project, t0 + 1, t0 + 2));
  // Not a session_meta record first.
  write_rollout(id_b, project, t0 + 2,
                R"({"type":"event_msg","payload":{"id":"x"}})"
                "\n");
  // Not JSON at all.
  write_rollout("01a22af9-0000-7000-8000-000000000000", project, t0 + 3, "garbage\n");
  EXPECT_EQ(capture(t0), "");
}

TEST_F(CodexSessions, LooksIntoThePreviousDayDirectory) {
  // Local-time day directories may be a day behind UTC.
  const double one_am = 1796086800.0;  // 2026-12-01T01:00:00Z
  const std::string path = write_rollout(id_a, project, one_am + 5);
  fs::path yesterday = fs::path(root.path()) / "codex/sessions/2026/11/30";
  fs::create_directories(yesterday);
  fs::rename(path, yesterday / fs::path(path).filename());
  EXPECT_EQ(capture(one_am), id_a);
}

// ---------------------------------------------------------------------------------------------
// kiro

TEST(KiroPlugin, DeclaresItsHarness) {
  DefaultHost d;
  const HarnessInfo& info = d.get("kiro").info();
  EXPECT_EQ(info.display_name, "Kiro CLI");
  EXPECT_EQ(info.executable, "kiro-cli");
  EXPECT_FALSE(info.captures_session_id);
  EXPECT_EQ(info.skip_permission_flags, (Argv{"--trust-all-tools"}));
  EXPECT_EQ(info.binds, (std::vector<Bind>{{"~/.kiro", false, true, true},
                                           {"~/.local/share/kiro-cli", false, true, true}}));
}

TEST(KiroPlugin, SpawnAndResumeArgv) {
  DefaultHost d;
  const Harness& kiro = d.get("kiro");
  EXPECT_EQ(kiro.generate_session_id(), "");
  EXPECT_EQ(kiro.spawn_argv({"/p", "", "", false}), (Argv{"kiro-cli", "chat"}));
  EXPECT_EQ(kiro.spawn_argv({"/p", "", "claude-sonnet-4", false}),
            (Argv{"kiro-cli", "chat", "--model", "claude-sonnet-4"}));
  EXPECT_EQ(kiro.spawn_argv({"/p", "", "", true}), (Argv{"kiro-cli", "chat", "--trust-all-tools"}));
  EXPECT_EQ(kiro.resume_argv({"/p", "", "", false}), (Argv{"kiro-cli", "chat", "--resume"}));
  EXPECT_EQ(kiro.resume_argv({"/p", "", "m", true}),
            (Argv{"kiro-cli", "chat", "--resume", "--model", "m", "--trust-all-tools"}));
}

TEST(KiroPlugin, HasNoScreenParser) {
  DefaultHost d;
  EXPECT_EQ(d.get("kiro").parse_status("esc to interrupt\n> "), PaneStatus::unknown);
}

// ---------------------------------------------------------------------------------------------
// generic

std::vector<CommandHarness> two_commands() {
  CommandHarness aider;
  aider.name = "aider";
  aider.display_name = "Aider";
  aider.command = {"aider", "--no-git"};
  aider.skip_permission_flags = {"--yes-always"};
  aider.binds = {{"~/.aider", false, true, false}, {"/etc/aider.conf", true, false, false}};
  aider.env = {"OPENAI_API_KEY"};
  CommandHarness shell;
  shell.name = "shell";
  shell.command = {"bash", "-l"};
  return {aider, shell};
}

TEST(GenericPlugin, OneHarnessPerConfiguredCommand) {
  auto host = load(two_commands());
  const Harness* aider = host->find("aider");
  const Harness* shell = host->find("shell");
  ASSERT_NE(aider, nullptr);
  ASSERT_NE(shell, nullptr);
  for (const PluginReport& r : host->reports()) {
    if (r.name != "generic") continue;
    EXPECT_EQ(r.harnesses, (std::vector<std::string>{"aider", "shell"}));
  }

  const HarnessInfo& a = aider->info();
  EXPECT_EQ(a.display_name, "Aider");
  EXPECT_EQ(a.executable, "aider");
  EXPECT_FALSE(a.captures_session_id);
  EXPECT_EQ(a.skip_permission_flags, (Argv{"--yes-always"}));
  EXPECT_EQ(a.binds, (std::vector<Bind>{{"~/.aider", false, true, false},
                                        {"/etc/aider.conf", true, false, false}}));
  EXPECT_EQ(a.sandbox_env, (Argv{"OPENAI_API_KEY"}));

  const HarnessInfo& s = shell->info();
  EXPECT_EQ(s.display_name, "shell");  // none configured: the name
  EXPECT_EQ(s.executable, "bash");
  EXPECT_TRUE(s.skip_permission_flags.empty());
  EXPECT_TRUE(s.binds.empty());
  EXPECT_TRUE(s.sandbox_env.empty());
}

TEST(GenericPlugin, RunsTheCommandAndAddsFlagsOnlyWhenSandboxed) {
  auto host = load(two_commands());
  const Harness* aider = host->find("aider");
  ASSERT_NE(aider, nullptr);
  EXPECT_EQ(aider->generate_session_id(), "");
  EXPECT_EQ(aider->spawn_argv({"/p", "", "", false}), (Argv{"aider", "--no-git"}));
  EXPECT_EQ(aider->spawn_argv({"/p", "", "gpt-x", false}), (Argv{"aider", "--no-git"}));
  EXPECT_EQ(aider->spawn_argv({"/p", "", "", true}), (Argv{"aider", "--no-git", "--yes-always"}));
  EXPECT_EQ(aider->resume_argv({"/p", "", "", false}), (Argv{"aider", "--no-git"}));
  EXPECT_EQ(aider->resume_argv({"/p", "", "", true}), (Argv{"aider", "--no-git", "--yes-always"}));
  EXPECT_EQ(aider->capture_session_id({"/p", 0, {}, {}}), "");
  EXPECT_EQ(aider->parse_status("anything"), PaneStatus::unknown);
  EXPECT_EQ(host->find("shell")->spawn_argv({"/p", "", "", true}), (Argv{"bash", "-l"}));
}

TEST(GenericPlugin, NoConfiguredCommandsNoHarnesses) {
  auto host = load();
  bool seen = false;
  for (const PluginReport& r : host->reports()) {
    if (r.name != "generic") continue;
    seen = true;
    EXPECT_TRUE(r.loaded) << r.reason;
    EXPECT_TRUE(r.harnesses.empty());
  }
  EXPECT_TRUE(seen);
}

// The generic plugin driven through its C entry directly, with hosts PluginHost cannot play: one
// without the commands interface, one whose declarations die right after init.
class GenericAbi : public ::testing::Test {
 protected:
  void SetUp() override {
    handle_ =
        ::dlopen((std::string(HQT_PLUGIN_DIR) + "/hqt-generic.so").c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << ::dlerror();
    entry_ = static_cast<const hqt_plugin_entry*>(::dlsym(handle_, HQT_PLUGIN_ENTRY_SYMBOL));
    ASSERT_NE(entry_, nullptr);
  }
  void TearDown() override {
    if (handle_) ::dlclose(handle_);
  }

  const hqt_harnesses_v1* harnesses() const {
    return static_cast<const hqt_harnesses_v1*>(entry_->get_interface(HQT_HARNESSES_V1));
  }

  static const void* no_interfaces(const hqt_host*, const char*) { return nullptr; }
  static const void* commands_of(const hqt_host* host, const char* id) {
    return std::strcmp(id, HQT_HOST_COMMANDS_V1) == 0 ? host->ctx : nullptr;
  }
  static void collect(void* ctx, const char* text) {
    static_cast<std::vector<std::string>*>(ctx)->emplace_back(text);
  }

  void* handle_ = nullptr;
  const hqt_plugin_entry* entry_ = nullptr;
};

TEST_F(GenericAbi, EntryIsWellFormed) {
  hqt_version abi = HQT_ABI_VERSION;
  EXPECT_EQ(entry_->abi.major, abi.major);
  EXPECT_EQ(entry_->abi.minor, abi.minor);
  EXPECT_STREQ(entry_->name, "generic");
  EXPECT_STREQ(entry_->version, "0.1.0");
  EXPECT_EQ(entry_->get_interface("hqt.harnesses/2"), nullptr);
  EXPECT_EQ(entry_->get_interface(nullptr), nullptr);
}

TEST_F(GenericAbi, AHostWithoutCommandsGivesZeroHarnesses) {
  hqt_host host{sizeof(hqt_host), HQT_ABI_VERSION, no_interfaces, nullptr};
  ASSERT_TRUE(entry_->init(&host, nullptr));
  ASSERT_NE(harnesses(), nullptr);
  EXPECT_EQ(harnesses()->count(), 0u);
  EXPECT_EQ(harnesses()->get(0), nullptr);
  entry_->deinit();
}

TEST_F(GenericAbi, CopiesDeclarationsDuringInit) {
  std::string name = "tool", display = "Tool", arg0 = "tool", arg1 = "--go", flag = "--yes",
              bind = "~/.tool", env = "TOOL_KEY";
  const char* command[] = {arg0.c_str(), arg1.c_str(), nullptr};
  const char* flags[] = {flag.c_str(), nullptr};
  const char* envs[] = {env.c_str(), nullptr};
  hqt_bind binds[] = {{bind.c_str(), HQT_BIND_WRITABLE}};
  hqt_command_decl decl{
      sizeof(hqt_command_decl), name.c_str(), display.c_str(), command, flags, binds, 1, envs};
  hqt_host_commands_v1 commands{1, &decl};
  hqt_host host{sizeof(hqt_host), HQT_ABI_VERSION, commands_of, &commands};
  ASSERT_TRUE(entry_->init(&host, nullptr));

  // The host's strings are gone after init.
  for (std::string* s : {&name, &display, &arg0, &arg1, &flag, &bind, &env}) s->assign(40, 'x');
  decl = {};

  ASSERT_EQ(harnesses()->count(), 1u);
  const hqt_harness* h = harnesses()->get(0);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->struct_size, sizeof(hqt_harness));
  EXPECT_STREQ(h->name, "tool");
  EXPECT_STREQ(h->display_name, "Tool");
  EXPECT_STREQ(h->executable, "tool");
  EXPECT_STREQ(h->skip_permission_flags[0], "--yes");
  EXPECT_EQ(h->skip_permission_flags[1], nullptr);
  ASSERT_EQ(h->bind_count, 1u);
  EXPECT_STREQ(h->binds[0].path, "~/.tool");
  EXPECT_EQ(h->binds[0].flags, HQT_BIND_WRITABLE);
  EXPECT_STREQ(h->sandbox_env[0], "TOOL_KEY");
  EXPECT_EQ(h->sandbox_env[1], nullptr);

  std::vector<std::string> argv;
  hqt_sink sink{&argv, collect};
  hqt_argv_request request{sizeof request, "/p", "", "", true};
  ASSERT_TRUE(h->build_spawn_argv(h, &request, &sink));
  EXPECT_EQ(argv, (Argv{"tool", "--go", "--yes"}));
  entry_->deinit();
}

// ---------------------------------------------------------------------------------------------
// Screens: real captures (tmux capture-pane -p, 200x50) in tests/fixtures/screens.

std::string screen(const std::string& name) {
  return test::read_file(std::string(HQT_SOURCE_DIR) + "/tests/fixtures/screens/" + name);
}

struct ScreenCase {
  const char* harness;
  const char* file;
  PaneStatus expected;
};

std::string to_text(PaneStatus s) {
  switch (s) {
    case PaneStatus::working:
      return "working";
    case PaneStatus::waiting:
      return "waiting";
    case PaneStatus::idle:
      return "idle";
    default:
      return "unknown";
  }
}

TEST(PluginScreens, ReadsTheCapturedScreens) {
  const ScreenCase cases[] = {
      {"claude", "claude-onboarding-offline.txt", PaneStatus::unknown},
      {"claude", "claude-trust-folder.txt", PaneStatus::waiting},
      {"claude", "claude-api-key-question.txt", PaneStatus::waiting},
      {"claude", "claude-idle.txt", PaneStatus::idle},
      {"claude", "claude-working-retrying.txt", PaneStatus::working},
      {"claude", "claude-working-streaming.txt", PaneStatus::working},
      {"claude", "claude-permission-bash.txt", PaneStatus::waiting},
      {"claude", "claude-idle-after-turn.txt", PaneStatus::idle},
      {"codex", "codex-sign-in.txt", PaneStatus::waiting},
      {"codex", "codex-trust-folder.txt", PaneStatus::waiting},
      {"codex", "codex-idle.txt", PaneStatus::idle},
      {"codex", "codex-working-reconnecting.txt", PaneStatus::working},
      {"codex", "codex-working-streaming.txt", PaneStatus::working},
      {"codex", "codex-approval-command.txt", PaneStatus::waiting},
      {"codex", "codex-idle-after-turn.txt", PaneStatus::idle},
  };
  DefaultHost d;
  for (const ScreenCase& c : cases) {
    std::string text = screen(c.file);
    ASSERT_FALSE(text.empty()) << c.file;
    EXPECT_EQ(to_text(d.get(c.harness).parse_status(text)), to_text(c.expected)) << c.file;
  }
}

TEST(PluginScreens, OnlyTheBottomOfTheScreenDecides) {
  DefaultHost d;
  const Harness& claude = d.get("claude");
  const Harness& codex = d.get("codex");
  // An answered prompt scrolled up above a finished turn: idle.
  EXPECT_EQ(claude.parse_status(screen("claude-permission-bash.txt") +
                                screen("claude-idle-after-turn.txt")),
            PaneStatus::idle);
  EXPECT_EQ(claude.parse_status(screen("claude-idle-after-turn.txt") +
                                screen("claude-permission-bash.txt")),
            PaneStatus::waiting);
  EXPECT_EQ(codex.parse_status(screen("codex-approval-command.txt") + screen("codex-idle.txt")),
            PaneStatus::idle);
  EXPECT_EQ(codex.parse_status(screen("codex-working-streaming.txt") +
                               screen("codex-idle-after-turn.txt")),
            PaneStatus::idle);
}

TEST(PluginScreens, YesNoQuestionsWait) {
  DefaultHost d;
  EXPECT_EQ(d.get("claude").parse_status("Overwrite the file? (y/n)\n"), PaneStatus::waiting);
  EXPECT_EQ(d.get("codex").parse_status("Continue? [Y/n]\n"), PaneStatus::waiting);
}

TEST(PluginScreens, EmptyOrUnrelatedScreensAreUnknown) {
  DefaultHost d;
  for (const char* name : {"claude", "codex"}) {
    EXPECT_EQ(d.get(name).parse_status(""), PaneStatus::unknown) << name;
    EXPECT_EQ(d.get(name).parse_status("$ ls\nfoo bar\n$\n"), PaneStatus::unknown) << name;
  }
}

}  // namespace
}  // namespace hqt
