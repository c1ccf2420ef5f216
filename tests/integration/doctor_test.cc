#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "adapters/paths.h"
#include "integration/test_util.h"

namespace hqt {
namespace {

using Poco::JSON::Object;

// A PATH directory holding only links to `programs` (resolved on this machine's PATH).
std::string path_with(const test::HqtEnv& env, const std::vector<std::string>& programs) {
  std::string dir = env.make_dir("limited-bin");
  for (const auto& program : programs) {
    std::string real = paths::which(program);
    if (!real.empty()) ::symlink(real.c_str(), (dir + "/" + program).c_str());
  }
  return dir;
}

TEST(Doctor, ReportsTmuxBubblewrapPluginsAndPaths) {
  if (paths::which("bwrap").empty()) GTEST_SKIP() << "bwrap is not installed";
  test::HqtEnv env;
  auto result = env.hqt({"doctor"});
  EXPECT_EQ(result.code, 0) << result.err;
  EXPECT_NE(result.out.find("tmux: ✓ "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("bubblewrap: ✓ " + paths::which("bwrap")), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("namespaces: ✓"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("hqt-claude.so"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("config: " + env.config_file + " (not present; defaults)"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("database: " + env.db_file), std::string::npos) << result.out;
}

TEST(Doctor, MissingBubblewrapIsReportedButDoesNotFail) {
  test::HqtEnv env;
  env.env["PATH"] = path_with(env, {"tmux", "sh"});
  auto result = env.hqt({"doctor"});
  EXPECT_EQ(result.code, 0) << result.err;
  EXPECT_NE(result.out.find("bubblewrap: ✗ not found — sandboxed sessions unavailable"),
            std::string::npos)
      << result.out;
  auto json = env.hqt({"doctor", "--json"});
  auto report = Poco::JSON::Parser().parse(json.out).extract<Object::Ptr>();
  EXPECT_FALSE(report->getObject("bubblewrap")->getValue<bool>("available"));
  EXPECT_TRUE(report->getValue<bool>("ok"));
}

TEST(Doctor, MissingTmuxFails) {
  test::HqtEnv env;
  env.env["PATH"] = path_with(env, {"sh"});
  auto result = env.hqt({"doctor"});
  EXPECT_EQ(result.code, 1);
  EXPECT_NE(result.out.find("tmux: ✗ not found"), std::string::npos) << result.out;
}

TEST(Doctor, BadConfigIsShownWithItsLineAndFails) {
  test::HqtEnv env;
  env.write_config("tmux:\n  sockett: x\n");
  auto result = env.hqt({"doctor"});
  EXPECT_EQ(result.code, 1);
  EXPECT_NE(result.out.find(env.config_file + ":2: key 'tmux.sockett': unknown key"),
            std::string::npos)
      << result.out;
}

TEST(Doctor, JsonNamesEveryPart) {
  test::HqtEnv env;
  auto result = env.hqt({"doctor", "--json"});
  auto report = Poco::JSON::Parser().parse(result.out).extract<Object::Ptr>();
  for (const char* key :
       {"version", "tmux", "bubblewrap", "harnesses", "plugins", "config", "database", "ok"})
    EXPECT_TRUE(report->has(key)) << key;
  EXPECT_EQ(report->getValue<std::string>("database"), env.db_file);
  EXPECT_GE(report->getArray("plugins")->size(), 4u);
}

}  // namespace
}  // namespace hqt
