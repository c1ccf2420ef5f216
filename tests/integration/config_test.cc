#include <gtest/gtest.h>

#include "adapters/config_loader.h"
#include "core/error.h"
#include "integration/test_util.h"

namespace hqt {
namespace {

std::string write_config(const test::TempDir& dir, const std::string& yaml) {
  std::string path = dir.path() + "/config.yaml";
  test::write_file(path, yaml);
  return path;
}

std::string error_of(const std::string& path) {
  try {
    load_config(path);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, MissingFileGivesDefaults) {
  test::TempDir dir;
  Config config = load_config(dir.path() + "/absent.yaml");
  EXPECT_EQ(config.tmux_socket, "hqt");
  EXPECT_TRUE(config.harnesses.empty());
  EXPECT_EQ(config.path, "");
}

TEST(Config, ReadsEveryKey) {
  test::TempDir dir;
  auto path = write_config(dir, R"(
plugin_dirs: [~/plugins, /opt/hqt]
tmux: {socket: mine}
harnesses:
  - name: aider
    display_name: Aider
    command: [aider, --no-git]
    skip_permission_flags: [--yes-always]
    binds: [{path: ~/.aider, writable: true}, /etc/aider.conf]
    env: [OPENAI_API_KEY]
)");
  Config config = load_config(path);
  EXPECT_EQ(config.plugin_dirs, (std::vector<std::string>{"~/plugins", "/opt/hqt"}));
  EXPECT_EQ(config.tmux_socket, "mine");
  ASSERT_EQ(config.harnesses.size(), 1u);
  const auto& h = config.harnesses[0];
  EXPECT_EQ(h.name, "aider");
  EXPECT_EQ(h.display_name, "Aider");
  EXPECT_EQ(h.command, (std::vector<std::string>{"aider", "--no-git"}));
  EXPECT_EQ(h.skip_permission_flags, (std::vector<std::string>{"--yes-always"}));
  ASSERT_EQ(h.binds.size(), 2u);
  EXPECT_EQ(h.binds[0].path, "~/.aider");
  EXPECT_TRUE(h.binds[0].writable);
  EXPECT_EQ(h.binds[1].path, "/etc/aider.conf");
  EXPECT_FALSE(h.binds[1].writable);
  EXPECT_EQ(h.env, (std::vector<std::string>{"OPENAI_API_KEY"}));
}

TEST(Config, UnknownKeyNamesFileLineAndKey) {
  test::TempDir dir;
  auto path = write_config(dir, "tmux:\n  socket: x\n  sockett: y\n");
  EXPECT_EQ(error_of(path), path + ":3: key 'tmux.sockett': unknown key (known: socket)");
}

TEST(Config, WrongTypeNamesTheKey) {
  test::TempDir dir;
  auto path = write_config(dir, "harnesses:\n  - name: a\n    command: run-me\n");
  EXPECT_EQ(error_of(path), path + ":3: key 'harnesses[0].command': expected a list of strings");
}

TEST(Config, SyntaxErrorNamesTheLine) {
  test::TempDir dir;
  auto path = write_config(dir, "plugin_dirs: [a, b\ntmux: {\n");
  std::string error = error_of(path);
  EXPECT_NE(error.find(path + ":"), std::string::npos) << error;
  EXPECT_NE(error.find("YAML syntax error"), std::string::npos) << error;
}

TEST(Config, DuplicateHarnessIsRefused) {
  test::TempDir dir;
  auto path =
      write_config(dir, "harnesses:\n  - {name: a, command: [x]}\n  - {name: a, command: [y]}\n");
  EXPECT_NE(error_of(path).find("harness 'a' is declared twice"), std::string::npos);
}

TEST(Config, RelativeBindIsRefused) {
  test::TempDir dir;
  auto path = write_config(dir, "harnesses:\n  - {name: a, command: [x], binds: [rel/path]}\n");
  EXPECT_NE(error_of(path).find("'rel/path' must be absolute or start with ~/"), std::string::npos);
}

}  // namespace
}  // namespace hqt
