#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hqt/plugin.h>
#include <stdlib.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

#include "adapters/plugin_loader.h"
#include "core/error.h"
#include "integration/test_util.h"

namespace hqt {
namespace {

// The directory of one fixture case (tests/fixtures/plugins).
std::string fixture_dir(const std::string& name) {
  return std::string(HQT_FIXTURE_PLUGIN_DIR) + "/" + name;
}
std::string fixture_file(const std::string& dir, const std::string& plugin) {
  return fixture_dir(dir) + "/hqt-" + plugin + ".so";
}
std::string fixture_file(const std::string& name) { return fixture_file(name, name); }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<std::string> names_of(const std::vector<const Harness*>& harnesses) {
  std::vector<std::string> names;
  for (const Harness* h : harnesses) names.push_back(h->info().name);
  return names;
}

bool is_mapped(const std::string& path) {
  void* handle = ::dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (!handle) return false;
  ::dlclose(handle);
  return true;
}

// The fixture plugins append "init <plugin>" / "deinit <plugin>" lines to $HQT_FIXTURE_MARKER.
class Marker {
 public:
  Marker() : path_(dir_.path() + "/marker") { ::setenv("HQT_FIXTURE_MARKER", path_.c_str(), 1); }
  ~Marker() { ::unsetenv("HQT_FIXTURE_MARKER"); }
  std::string text() const { return test::read_file(path_); }

 private:
  test::TempDir dir_;
  std::string path_;
};

std::unique_ptr<PluginHost> load(const std::vector<std::string>& dirs,
                                 const std::vector<CommandHarness>& commands = {}) {
  return std::make_unique<PluginHost>(dirs, commands);
}

TEST(PluginLoader, LoadsAPluginAndItsHarnesses) {
  auto host = load({fixture_dir("good")});
  ASSERT_EQ(host->reports().size(), 1u);
  const PluginReport& r = host->reports()[0];
  EXPECT_EQ(r.path, fixture_file("good"));
  EXPECT_TRUE(r.loaded) << r.reason;
  EXPECT_EQ(r.reason, "");
  EXPECT_EQ(r.name, "good");
  EXPECT_EQ(r.version, "1.2.3");
  EXPECT_EQ(r.abi, std::to_string(HQT_ABI_VERSION_MAJOR) + "." +
                       std::to_string(HQT_ABI_VERSION_MINOR) + "." +
                       std::to_string(HQT_ABI_VERSION_PATCH));
  EXPECT_EQ(r.harnesses, (std::vector<std::string>{"alpha", "beta"}));
  EXPECT_EQ(names_of(host->all()), (std::vector<std::string>{"alpha", "beta"}));
  ASSERT_NE(host->find("alpha"), nullptr);
  EXPECT_EQ(host->find("alpha")->info().name, "alpha");
  ASSERT_NE(host->find("beta"), nullptr);
  EXPECT_EQ(host->find("beta")->info().name, "beta");
  EXPECT_EQ(host->find("gamma"), nullptr);
  EXPECT_EQ(host->find(""), nullptr);
}

TEST(PluginLoader, NoDirectoriesOrMissingOnesGiveNothing) {
  EXPECT_TRUE(load({})->reports().empty());
  auto host = load({"/nonexistent/hqt-plugins", fixture_dir("good")});
  ASSERT_EQ(host->reports().size(), 1u);
  EXPECT_TRUE(host->reports()[0].loaded);
}

TEST(PluginLoader, HarnessInfoComesFromTheStruct) {
  auto host = load({fixture_dir("good")});
  const HarnessInfo& alpha = host->find("alpha")->info();
  EXPECT_EQ(alpha.display_name, "Alpha Agent");
  EXPECT_EQ(alpha.executable, "hqt-fixture-alpha");
  EXPECT_TRUE(alpha.captures_session_id);
  EXPECT_EQ(alpha.skip_permission_flags, (std::vector<std::string>{"--yolo"}));
  EXPECT_EQ(alpha.binds, (std::vector<Bind>{{"~/.alpha", false, true, true},
                                            {"~/.alpha.json", true, true, true},
                                            {"/etc/alpha.conf", true, false, false}}));
  EXPECT_EQ(alpha.sandbox_env, (std::vector<std::string>{"ALPHA_API_KEY", "ALPHA_HOME"}));

  const HarnessInfo& beta = host->find("beta")->info();
  EXPECT_EQ(beta.display_name, "beta");  // NULL display name: the name
  EXPECT_EQ(beta.executable, "hqt-fixture-beta-missing");
  EXPECT_FALSE(beta.captures_session_id);
  EXPECT_TRUE(beta.skip_permission_flags.empty());
  EXPECT_TRUE(beta.binds.empty());
  EXPECT_TRUE(beta.sandbox_env.empty());
}

TEST(PluginLoader, SpawnArgvGoesThroughTheSink) {
  auto host = load({fixture_dir("good")});
  const Harness* alpha = host->find("alpha");
  EXPECT_EQ(alpha->spawn_argv({"/work/p", "", "", false}),
            (std::vector<std::string>{"hqt-fixture-alpha", "--project", "/work/p"}));
  EXPECT_EQ(alpha->spawn_argv({"/work/p", "s-1", "big", true}),
            (std::vector<std::string>{"hqt-fixture-alpha", "--project", "/work/p", "--model", "big",
                                      "--session-id", "s-1", "--yolo"}));
  EXPECT_EQ(host->find("beta")->spawn_argv({"/work/p", "", "", true}),
            (std::vector<std::string>{"hqt-fixture-beta-missing"}));
}

TEST(PluginLoader, SpawnFailureIsAnError) {
  auto host = load({fixture_dir("good")});
  const Harness* alpha = host->find("alpha");
  EXPECT_EQ(error_of([&] {
              alpha->spawn_argv({"/p", "", "fail", false});
            }),
            "alpha: plugin failed to build the spawn command");
  EXPECT_EQ(error_of([&] {
              alpha->spawn_argv({"/p", "", "empty", false});
            }),
            "alpha: plugin built an empty spawn command");
}

TEST(PluginLoader, ResumeArgvIsEmptyWhenThePluginCannotResume) {
  auto host = load({fixture_dir("good")});
  const Harness* alpha = host->find("alpha");
  EXPECT_EQ(alpha->resume_argv({"/p", "s-9", "", true}),
            (std::vector<std::string>{"hqt-fixture-alpha", "--resume", "s-9", "--yolo"}));
  EXPECT_TRUE(alpha->resume_argv({"/p", "", "", false}).empty());
  EXPECT_TRUE(host->find("beta")->resume_argv({"/p", "s-9", "", false}).empty());
}

TEST(PluginLoader, GenerateSessionId) {
  auto host = load({fixture_dir("good")});
  EXPECT_EQ(host->find("alpha")->generate_session_id(), "alpha-session-1");
  EXPECT_EQ(error_of([&] { host->find("beta")->generate_session_id(); }),
            "beta: plugin failed to generate a session id");
}

TEST(PluginLoader, ParseStatusAndItsAbsence) {
  auto host = load({fixture_dir("good")});
  const Harness* alpha = host->find("alpha");
  EXPECT_EQ(alpha->parse_status("* Working (3s)"), PaneStatus::working);
  EXPECT_EQ(alpha->parse_status("Run rm? Approve? [y/n]"), PaneStatus::waiting);
  EXPECT_EQ(alpha->parse_status("done\n> "), PaneStatus::idle);
  EXPECT_EQ(alpha->parse_status("starting up"), PaneStatus::unknown);
  EXPECT_EQ(alpha->parse_status(""), PaneStatus::unknown);
  // Only the given length counts, not what follows it in memory.
  std::string_view text = "ok Working";
  EXPECT_EQ(alpha->parse_status(text.substr(0, 3)), PaneStatus::unknown);
  EXPECT_EQ(host->find("beta")->parse_status("* Working (3s)"), PaneStatus::unknown);
}

TEST(PluginLoader, CaptureSessionId) {
  auto host = load({fixture_dir("good")});
  const Harness* alpha = host->find("alpha");
  EXPECT_EQ(alpha->capture_session_id({"/p", 1.0, {}, {}}), "cap-1");
  EXPECT_EQ(alpha->capture_session_id({"/p", 1.0, {"cap-1", "x"}, {}}), "cap-2");
  EXPECT_EQ(alpha->capture_session_id({"/p", 1.0, {"cap-1", "cap-2", "cap-3"}, {}}), "");
  EXPECT_EQ(error_of([&] {
              alpha->capture_session_id({"/fail", 1.0, {}, {}});
            }),
            "alpha: plugin failed to capture the session id");
  EXPECT_EQ(host->find("beta")->capture_session_id({"/p", 1.0, {}, {}}), "");
}

// One rejected plugin per case directory: the reason names the cause and the file.
struct RejectCase {
  std::string dir;
  std::string reason;  // without the trailing ": <path>"
};

std::string host_abi() {
  return std::to_string(HQT_ABI_VERSION_MAJOR) + "." + std::to_string(HQT_ABI_VERSION_MINOR);
}

class PluginRejection : public testing::TestWithParam<RejectCase> {};

TEST_P(PluginRejection, NamesTheFileAndTheCause) {
  const RejectCase& c = GetParam();
  auto host = load({fixture_dir(c.dir)});
  ASSERT_EQ(host->reports().size(), 1u);
  const PluginReport& r = host->reports()[0];
  EXPECT_EQ(r.path, fixture_file(c.dir));
  EXPECT_FALSE(r.loaded);
  EXPECT_EQ(r.reason, c.reason + ": " + fixture_file(c.dir));
  EXPECT_TRUE(r.harnesses.empty());
  EXPECT_TRUE(host->all().empty());
  EXPECT_EQ(host->find(c.dir), nullptr);
  EXPECT_FALSE(is_mapped(fixture_file(c.dir))) << "a rejected plugin stays loaded";
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PluginRejection,
    testing::Values(
        RejectCase{"no-entry", "not an hqt plugin (no hqt_plugin_entry)"},
        RejectCase{"abi-major", "incompatible ABI " + std::to_string(HQT_ABI_VERSION_MAJOR + 1) +
                                    "." + std::to_string(HQT_ABI_VERSION_MINOR) + ", host speaks " +
                                    host_abi()},
        RejectCase{"abi-minor", "incompatible ABI " + std::to_string(HQT_ABI_VERSION_MAJOR) + "." +
                                    std::to_string(HQT_ABI_VERSION_MINOR + 1) + ", host speaks " +
                                    host_abi()},
        RejectCase{"null-init", "invalid plugin: init is null"},
        RejectCase{"null-deinit", "invalid plugin: deinit is null"},
        RejectCase{"null-get-interface", "invalid plugin: get_interface is null"},
        RejectCase{"null-generate",
                   "invalid plugin: harness 'null-generate' generate_session_id is null"},
        RejectCase{"null-spawn", "invalid plugin: harness 'null-spawn' build_spawn_argv is null"},
        RejectCase{"null-resume",
                   "invalid plugin: harness 'null-resume' build_resume_argv is null"},
        RejectCase{"capture-missing",
                   "invalid plugin: harness 'capture-missing' capture_session_id is null"},
        RejectCase{"init-fails", "init failed: refusing to start"},
        RejectCase{"no-harnesses", "no hqt.harnesses/1 interface"},
        RejectCase{"null-harness", "invalid plugin: harness #0 is null"},
        RejectCase{"null-name", "invalid plugin: harness #0 name is null"},
        RejectCase{"empty-name", "invalid plugin: harness #0 has an empty name"},
        RejectCase{"bad-name",
                   "invalid plugin: harness name 'Bad Name' is not made of [a-z0-9_-]"}),
    [](const testing::TestParamInfo<RejectCase>& info) {
      std::string name = info.param.dir;
      for (char& ch : name)
        if (ch == '-') ch = '_';
      return name;
    });

TEST(PluginLoader, RejectsAFileThatIsNotASharedLibrary) {
  test::TempDir dir;
  const std::string bad = dir.path() + "/bad.so";
  test::write_file(bad, std::string(200, '#') + "\nthis is not an ELF file\n");
  auto host = load({dir.path()});
  ASSERT_EQ(host->reports().size(), 1u);
  const PluginReport& r = host->reports()[0];
  EXPECT_EQ(r.path, bad);
  EXPECT_FALSE(r.loaded);
  const std::string prefix = "not a shared library: " + bad + ": ";
  ASSERT_EQ(r.reason.rfind(prefix, 0), 0u) << r.reason;
  std::string cause = r.reason.substr(prefix.size());
  EXPECT_FALSE(cause.empty());
  EXPECT_EQ(cause.find(bad), std::string::npos) << "the path is named once: " << r.reason;
  EXPECT_EQ(r.name, "");
  EXPECT_EQ(r.abi, "");
}

TEST(PluginLoader, KeepsGoingAfterARejection) {
  test::TempDir dir;
  test::write_file(dir.path() + "/bad.so", "not a library");
  auto host = load({dir.path(), fixture_dir("no-entry"), fixture_dir("init-fails"),
                    fixture_dir("abi-major"), fixture_dir("good")});
  ASSERT_EQ(host->reports().size(), 5u);
  for (size_t i = 0; i < 4; ++i) EXPECT_FALSE(host->reports()[i].loaded) << i;
  EXPECT_EQ(host->reports()[0].path, dir.path() + "/bad.so");
  EXPECT_EQ(host->reports()[1].path, fixture_file("no-entry"));
  EXPECT_EQ(host->reports()[2].path, fixture_file("init-fails"));
  EXPECT_EQ(host->reports()[3].path, fixture_file("abi-major"));
  EXPECT_TRUE(host->reports()[4].loaded);
  EXPECT_EQ(names_of(host->all()), (std::vector<std::string>{"alpha", "beta"}));
}

TEST(PluginLoader, IncompatibleAbiStillReportsTheVersion) {
  auto host = load({fixture_dir("abi-major")});
  EXPECT_EQ(host->reports()[0].abi, std::to_string(HQT_ABI_VERSION_MAJOR + 1) + "." +
                                        std::to_string(HQT_ABI_VERSION_MINOR) + "." +
                                        std::to_string(HQT_ABI_VERSION_PATCH));
}

TEST(PluginLoader, AnotherPatchLevelLoads) {
  auto host = load({fixture_dir("abi-patch")});
  ASSERT_EQ(host->reports().size(), 1u);
  EXPECT_TRUE(host->reports()[0].loaded) << host->reports()[0].reason;
  EXPECT_EQ(host->reports()[0].abi, host_abi() + ".9");
}

TEST(PluginLoader, AnOlderMinorLoadsAndIsCalledWithTheLongerRequest) {
  ASSERT_GE(HQT_ABI_VERSION_MINOR, 1);
  auto host = load({fixture_dir("abi-older-minor")});
  ASSERT_EQ(host->reports().size(), 1u);
  EXPECT_TRUE(host->reports()[0].loaded) << host->reports()[0].reason;
  EXPECT_EQ(host->reports()[0].abi,
            std::to_string(HQT_ABI_VERSION_MAJOR) + ".0." + std::to_string(HQT_ABI_VERSION_PATCH));
  const Harness* harness = host->find("abi-older-minor");
  ASSERT_NE(harness, nullptr);
  EXPECT_EQ(harness->capture_session_id({"/p", 1.0, {}, {"/some/open/file"}}), "captured");
}

TEST(PluginLoader, OnlySoFilesSortedByName) {
  test::TempDir dir;
  namespace fs = std::filesystem;
  fs::copy_file(fixture_file("good"), dir.path() + "/z-good.so");
  fs::copy_file(fixture_file("abi-patch"), dir.path() + "/a-patch.so");
  fs::copy_file(fixture_file("good"), dir.path() + "/good.so.1");
  fs::copy_file(fixture_file("good"), dir.path() + "/good.txt");
  fs::create_directory(dir.path() + "/dir.so");
  auto host = load({dir.path()});
  ASSERT_EQ(host->reports().size(), 2u);
  EXPECT_EQ(host->reports()[0].path, dir.path() + "/a-patch.so");
  EXPECT_EQ(host->reports()[1].path, dir.path() + "/z-good.so");
  EXPECT_TRUE(host->reports()[0].loaded);
  EXPECT_TRUE(host->reports()[1].loaded);
}

TEST(PluginLoader, TheSameFileReachedTwiceLoadsOnce) {
  test::TempDir dir;
  std::filesystem::create_symlink(fixture_file("good"), dir.path() + "/link.so");
  Marker marker;
  {
    auto host = load({fixture_dir("good"), fixture_dir("good"), dir.path()});
    ASSERT_EQ(host->reports().size(), 1u);
    EXPECT_TRUE(host->reports()[0].loaded);
    EXPECT_EQ(host->reports()[0].reason, "");
    EXPECT_EQ(host->all().size(), 2u);
  }
  EXPECT_EQ(marker.text(), "init good\ndeinit good\n");
}

TEST(PluginLoader, DuplicateHarnessAcrossPluginsIsSkipped) {
  auto host = load({fixture_dir("dup")});
  ASSERT_EQ(host->reports().size(), 2u);
  const PluginReport& a = host->reports()[0];
  const PluginReport& b = host->reports()[1];
  EXPECT_EQ(a.path, fixture_file("dup", "dup-a"));
  EXPECT_TRUE(a.loaded);
  EXPECT_EQ(a.reason, "");
  EXPECT_EQ(a.harnesses, (std::vector<std::string>{"shared", "only-a"}));
  EXPECT_EQ(b.path, fixture_file("dup", "dup-b"));
  EXPECT_TRUE(b.loaded);
  EXPECT_EQ(b.reason, "harness 'shared' already provided by " + a.path);
  EXPECT_EQ(b.harnesses, (std::vector<std::string>{"only-b"}));
  EXPECT_EQ(names_of(host->all()), (std::vector<std::string>{"shared", "only-a", "only-b"}));
  // The first plugin keeps the name.
  EXPECT_EQ(host->find("shared")->generate_session_id(), "dup-a-id");
  EXPECT_EQ(host->find("only-b")->generate_session_id(), "dup-b-id");
}

TEST(PluginLoader, DuplicateHarnessWithinAPluginIsSkipped) {
  auto host = load({fixture_dir("dup-within")});
  ASSERT_EQ(host->reports().size(), 1u);
  const PluginReport& r = host->reports()[0];
  EXPECT_TRUE(r.loaded);
  EXPECT_EQ(r.harnesses, (std::vector<std::string>{"twice"}));
  EXPECT_EQ(r.reason, "harness 'twice' already provided by " + fixture_file("dup-within"));
  EXPECT_EQ(host->all().size(), 1u);
}

TEST(PluginLoader, FieldsBeyondStructSizeAreAbsent) {
  // Both are built from the same source; the short one says its struct ends before
  // parse_status, so its parse_status and capture_session_id are not called.
  auto host = load({fixture_dir("short-struct"), fixture_dir("abi-patch")});
  ASSERT_EQ(host->reports().size(), 2u);
  EXPECT_TRUE(host->reports()[0].loaded) << host->reports()[0].reason;
  const Harness* full = host->find("abi-patch");
  const Harness* short_one = host->find("short-struct");
  ASSERT_NE(full, nullptr);
  ASSERT_NE(short_one, nullptr);
  EXPECT_EQ(full->parse_status("anything"), PaneStatus::working);
  EXPECT_EQ(short_one->parse_status("anything"), PaneStatus::unknown);
  EXPECT_EQ(full->capture_session_id({"/p", 1.0, {}, {}}), "captured");
  EXPECT_EQ(short_one->capture_session_id({"/p", 1.0, {}, {}}), "");
  // The fields inside the struct still count.
  EXPECT_EQ(short_one->info().executable, "hqt-fixture-basic");
  EXPECT_EQ(short_one->spawn_argv({"/p", "", "", false}),
            (std::vector<std::string>{"short-struct"}));
}

TEST(PluginLoader, DeinitAndUnloadAtDestructionLastFirst) {
  Marker marker;
  auto host = load({fixture_dir("dup"), fixture_dir("good")});
  EXPECT_EQ(marker.text(), "init dup-a\ninit dup-b\ninit good\n");
  EXPECT_TRUE(is_mapped(fixture_file("good")));
  host.reset();
  EXPECT_EQ(marker.text(),
            "init dup-a\ninit dup-b\ninit good\ndeinit good\ndeinit dup-b\ndeinit dup-a\n");
  EXPECT_FALSE(is_mapped(fixture_file("good")));
  EXPECT_FALSE(is_mapped(fixture_file("dup", "dup-a")));
}

TEST(PluginLoader, FailedInitIsNotDeinitialized) {
  Marker marker;
  {
    auto host = load({fixture_dir("init-fails")});
    EXPECT_FALSE(host->reports()[0].loaded);
    EXPECT_FALSE(is_mapped(fixture_file("init-fails")));
  }
  EXPECT_EQ(marker.text(), "init init-fails\n");
}

TEST(PluginLoader, RejectedAfterInitIsDeinitialized) {
  Marker marker;
  auto host = load({fixture_dir("no-harnesses"), fixture_dir("null-spawn")});
  EXPECT_EQ(marker.text(),
            "init no-harnesses\ndeinit no-harnesses\ninit null-spawn\ndeinit null-spawn\n");
  host.reset();
  EXPECT_EQ(marker.text(),
            "init no-harnesses\ndeinit no-harnesses\ninit null-spawn\ndeinit null-spawn\n");
}

TEST(PluginLoader, OffersTheConfiguredCommandsDuringInit) {
  std::unique_ptr<PluginHost> host;
  {
    std::vector<CommandHarness> commands(2);
    commands[0].name = "aider";
    commands[0].display_name = "Aider";
    commands[0].command = {"aider", "--no-git"};
    commands[0].skip_permission_flags = {"--yes-always"};
    commands[0].binds = {{"~/.aider", false, true, true}, {"/etc/aider.conf", true, false, false}};
    commands[0].env = {"OPENAI_API_KEY"};
    commands[1].name = "plain";
    commands[1].command = {"plain-cmd"};
    host = load({fixture_dir("commands")}, commands);
  }  // the declarations are gone; the plugin kept copies
  ASSERT_EQ(host->reports().size(), 1u);
  ASSERT_TRUE(host->reports()[0].loaded) << host->reports()[0].reason;
  EXPECT_EQ(host->reports()[0].harnesses, (std::vector<std::string>{"aider", "plain"}));
  const HarnessInfo& aider = host->find("aider")->info();
  EXPECT_EQ(aider.display_name, "Aider");
  EXPECT_EQ(aider.executable, "aider");
  EXPECT_EQ(aider.skip_permission_flags, (std::vector<std::string>{"--yes-always"}));
  EXPECT_EQ(aider.binds, (std::vector<Bind>{{"~/.aider", false, true, true},
                                            {"/etc/aider.conf", true, false, false}}));
  EXPECT_EQ(aider.sandbox_env, (std::vector<std::string>{"OPENAI_API_KEY"}));
  EXPECT_EQ(host->find("aider")->spawn_argv({"/p", "", "", true}),
            (std::vector<std::string>{"aider", "--no-git", "--yes-always"}));
  EXPECT_EQ(host->find("aider")->generate_session_id(), "");
  const HarnessInfo& plain = host->find("plain")->info();
  EXPECT_EQ(plain.display_name, "plain");
  EXPECT_TRUE(plain.binds.empty());
  EXPECT_EQ(host->find("plain")->spawn_argv({"/p", "", "", true}),
            (std::vector<std::string>{"plain-cmd"}));
}

TEST(PluginLoader, NoConfiguredCommandsGivesNoHarnesses) {
  auto host = load({fixture_dir("commands")});
  ASSERT_EQ(host->reports().size(), 1u);
  EXPECT_TRUE(host->reports()[0].loaded) << host->reports()[0].reason;
  EXPECT_TRUE(host->all().empty());
}

}  // namespace
}  // namespace hqt
