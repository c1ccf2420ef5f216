#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>
#include <hqt/plugin.h>
#include <stdlib.h>

#include <filesystem>

#include "integration/test_util.h"

namespace hqt {
namespace {

namespace fs = std::filesystem;

std::string fixture_dir(const std::string& name) {
  return std::string(HQT_FIXTURE_PLUGIN_DIR) + "/" + name;
}

std::string host_abi() {
  return std::to_string(HQT_ABI_VERSION_MAJOR) + "." + std::to_string(HQT_ABI_VERSION_MINOR) + "." +
         std::to_string(HQT_ABI_VERSION_PATCH);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// The line starting with `prefix`, or "".
std::string line_starting(const std::string& text, const std::string& prefix) {
  for (const auto& line : lines_of(text))
    if (line.rfind(prefix, 0) == 0) return line;
  return "";
}

Poco::JSON::Array::Ptr parse_array(const std::string& text) {
  return Poco::JSON::Parser().parse(text).extract<Poco::JSON::Array::Ptr>();
}

// The entry for the plugin file `path`, or null.
Poco::JSON::Object::Ptr entry_for(const Poco::JSON::Array::Ptr& plugins, const std::string& path) {
  for (size_t i = 0; i < plugins->size(); ++i) {
    auto plugin = plugins->getObject(static_cast<unsigned>(i));
    if (plugin->getValue<std::string>("path") == path) return plugin;
  }
  return nullptr;
}

// A user whose config points at fixture plugin directories, with one fixture harness executable
// (hqt-fixture-alpha) on PATH and another (hqt-fixture-beta-missing) not.
class PluginsCli : public testing::Test {
 protected:
  void SetUp() override {
    bin = env.make_dir("bin");
    alpha_exe = bin + "/hqt-fixture-alpha";
    test::write_file(alpha_exe, "#!/bin/sh\n");
    fs::permissions(alpha_exe, fs::perms::owner_all);
    const char* path = std::getenv("PATH");
    env.env["PATH"] = bin + ":" + (path ? path : "/usr/bin:/bin");
    junk = env.make_dir("junk");
    test::write_file(junk + "/bad.so", "not a shared library\n");
    env.write_config("plugin_dirs:\n  - " + fixture_dir("good") + "\n  - " + fixture_dir("dup") +
                     "\n  - " + junk + "\n  - " + fixture_dir("init-fails") + "\n");
  }

  test::HqtEnv env;
  std::string bin, alpha_exe, junk;
  const std::string good = fixture_dir("good") + "/hqt-good.so";
  const std::string dup_a = fixture_dir("dup") + "/hqt-dup-a.so";
  const std::string dup_b = fixture_dir("dup") + "/hqt-dup-b.so";
  const std::string init_fails = fixture_dir("init-fails") + "/hqt-init-fails.so";
};

TEST_F(PluginsCli, JsonListsEveryPluginFile) {
  auto r = env.hqt({"plugins", "list", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto plugins = parse_array(r.out);

  auto g = entry_for(plugins, good);
  ASSERT_TRUE(g) << r.out;
  EXPECT_EQ(g->getValue<std::string>("name"), "good");
  EXPECT_EQ(g->getValue<std::string>("version"), "1.2.3");
  EXPECT_EQ(g->getValue<std::string>("abi"), host_abi());
  EXPECT_TRUE(g->getValue<bool>("loaded"));
  EXPECT_TRUE(g->isNull("reason"));
  auto harnesses = g->getArray("harnesses");
  ASSERT_EQ(harnesses->size(), 2u);
  auto alpha = harnesses->getObject(0);
  EXPECT_EQ(alpha->getValue<std::string>("name"), "alpha");
  EXPECT_EQ(alpha->getValue<std::string>("display_name"), "Alpha Agent");
  EXPECT_EQ(alpha->getValue<std::string>("executable"), "hqt-fixture-alpha");
  EXPECT_EQ(alpha->getValue<std::string>("found"), alpha_exe);
  auto beta = harnesses->getObject(1);
  EXPECT_EQ(beta->getValue<std::string>("name"), "beta");
  EXPECT_EQ(beta->getValue<std::string>("executable"), "hqt-fixture-beta-missing");
  EXPECT_TRUE(beta->isNull("found"));

  auto b = entry_for(plugins, dup_b);
  ASSERT_TRUE(b) << r.out;
  EXPECT_TRUE(b->getValue<bool>("loaded"));
  EXPECT_EQ(b->getValue<std::string>("reason"), "harness 'shared' already provided by " + dup_a);
  ASSERT_EQ(b->getArray("harnesses")->size(), 1u);
  EXPECT_EQ(b->getArray("harnesses")->getObject(0)->getValue<std::string>("name"), "only-b");

  auto bad = entry_for(plugins, junk + "/bad.so");
  ASSERT_TRUE(bad) << r.out;
  EXPECT_FALSE(bad->getValue<bool>("loaded"));
  EXPECT_EQ(bad->getValue<std::string>("reason").rfind("not a shared library: " + junk, 0), 0u);
  EXPECT_TRUE(bad->isNull("name"));
  EXPECT_TRUE(bad->isNull("abi"));
  EXPECT_EQ(bad->getArray("harnesses")->size(), 0u);

  auto failed = entry_for(plugins, init_fails);
  ASSERT_TRUE(failed) << r.out;
  EXPECT_FALSE(failed->getValue<bool>("loaded"));
  EXPECT_EQ(failed->getValue<std::string>("reason"),
            "init failed: refusing to start: " + init_fails);
  EXPECT_EQ(failed->getValue<std::string>("name"), "init-fails");
}

TEST_F(PluginsCli, TextShowsPluginsHarnessesAndReasons) {
  auto r = env.hqt({"plugins", "list"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::string g = line_starting(r.out, "✓ " + good + " ");
  EXPECT_NE(g.find("  good 1.2.3 (ABI " + host_abi() + ")"), std::string::npos) << r.out;

  std::string alpha = line_starting(r.out, "    alpha ");
  std::string beta = line_starting(r.out, "    beta ");
  ASSERT_FALSE(alpha.empty()) << r.out;
  ASSERT_FALSE(beta.empty()) << r.out;
  EXPECT_NE(alpha.find("  Alpha Agent  "), std::string::npos) << alpha;
  EXPECT_NE(alpha.find("hqt-fixture-alpha: " + alpha_exe), std::string::npos) << alpha;
  EXPECT_NE(beta.find("hqt-fixture-beta-missing: not found"), std::string::npos) << beta;
  // The columns line up.
  EXPECT_EQ(alpha.find("Alpha Agent"), beta.find("beta", 8)) << r.out;
  EXPECT_EQ(alpha.find("hqt-fixture-alpha:"), beta.find("hqt-fixture-beta-missing:")) << r.out;

  std::string bad = line_starting(r.out, "✗ " + junk + "/bad.so ");
  EXPECT_NE(bad.find("  not a shared library: " + junk + "/bad.so: "), std::string::npos) << r.out;
  std::string failed = line_starting(r.out, "✗ " + init_fails + " ");
  EXPECT_NE(failed.find("  init failed: refusing to start: " + init_fails), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("    note: harness 'shared' already provided by " + dup_a),
            std::string::npos)
      << r.out;
}

TEST_F(PluginsCli, BadConfigIsAUsageError) {
  env.write_config("plugin_dirs: [a, b\n");
  auto r = env.hqt({"plugins", "list"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("hqt: " + env.config_file + ":", 0), 0u) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(PluginsCli, HelpAndUnknownOption) {
  auto help = env.hqt({"plugins", "list", "--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_EQ(help.out.rfind("usage: hqt plugins list [--json]", 0), 0u) << help.out;
  auto bad = env.hqt({"plugins", "list", "--jsn"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("jsn"), std::string::npos) << bad.err;
}

// A copy of hqt outside the build tree sees only its own (empty) plugin dir and the user's.
TEST_F(PluginsCli, FindsUserPluginsAndSaysWhenThereAreNone) {
  const std::string prefix = env.make_dir("prefix");
  fs::create_directories(prefix + "/bin");
  fs::copy_file(HQT_BIN, prefix + "/bin/hqt");
  env.write_config("{}\n");
  const std::string user_dir = env.home + "/.local/lib/hqt/plugins";

  auto none = test::run_process({prefix + "/bin/hqt", "plugins", "list"}, env.env);
  ASSERT_EQ(none.code, 0) << none.err;
  EXPECT_EQ(none.out,
            "no plugins found (searched: " + prefix + "/lib/hqt/plugins, " + user_dir + ")\n");
  auto none_json = test::run_process({prefix + "/bin/hqt", "plugins", "list", "--json"}, env.env);
  ASSERT_EQ(none_json.code, 0) << none_json.err;
  EXPECT_EQ(none_json.out, "[]\n");

  fs::create_directories(user_dir);
  fs::create_symlink(good, user_dir + "/hqt-good.so");
  auto one = test::run_process({prefix + "/bin/hqt", "plugins", "list", "--json"}, env.env);
  ASSERT_EQ(one.code, 0) << one.err;
  auto plugins = parse_array(one.out);
  ASSERT_EQ(plugins->size(), 1u) << one.out;
  EXPECT_EQ(plugins->getObject(0)->getValue<std::string>("path"), user_dir + "/hqt-good.so");
  EXPECT_TRUE(plugins->getObject(0)->getValue<bool>("loaded"));
}

}  // namespace
}  // namespace hqt
