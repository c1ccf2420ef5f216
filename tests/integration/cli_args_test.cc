// Options of every subcommand through the real hqt binary: forms that are accepted, and a clear
// message naming the offending argument (exit 2, nothing written) for every other one.
#include <Poco/File.h>
#include <gtest/gtest.h>

#include "integration/test_util.h"

namespace hqt {
namespace {

class CliArgs : public ::testing::Test {
 protected:
  test::HqtEnv env;
};

TEST_F(CliArgs, ValuesSeparateOrJoinedAndAbbreviatedNamesAreAccepted) {
  std::string one = env.make_dir("one"), two = env.make_dir("two");
  auto joined = env.hqt({"project", "add", one, "--name=first"});
  ASSERT_EQ(joined.code, 0) << joined.err;
  auto abbreviated = env.hqt({"project", "add", "--na", "second", two});
  ASSERT_EQ(abbreviated.code, 0) << abbreviated.err;
  auto listed = env.hqt({"project", "list", "--js"});
  ASSERT_EQ(listed.code, 0) << listed.err;
  EXPECT_NE(listed.out.find("\"name\": \"first\""), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("\"name\": \"second\""), std::string::npos) << listed.out;
}

TEST_F(CliArgs, EveryMistakeNamesTheArgumentAndWritesNothing) {
  std::string dir = env.make_dir("proj");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"project", "add", dir, "--bogus"},
       "project add: unknown option '--bogus' (see hqt project add --help)"},
      {{"project", "add", dir, "-n", "x"},
       "project add: unknown option '-n' (see hqt project add --help)"},
      {{"project", "add", dir, "--name"}, "project add: option '--name' needs a value (NAME)"},
      {{"project", "add", dir, "--name", "a", "--name=b"},
       "project add: option '--name' is given twice"},
      {{"project", "list", "--json=yes"}, "project list: option '--json' takes no value"},
      {{"session", "new", "--project", "p", "--harness", "generic", "--n", "x"},
       "session new: option '--n' is ambiguous (--nickname, --net) (see hqt session new --help)"},
      {{"project", "add", dir, "extra"},
       "project add: unexpected argument 'extra'; usage: hqt project add PATH [--name NAME]"},
      {{"project", "list", "--", "--json"},
       "project list: unexpected argument '--json'; usage: hqt project list [--json]"},
      {{"session", "rm"}, "session rm: missing argument; usage: hqt session rm ID"},
  };
  for (const auto& c : cases) {
    auto result = env.hqt(c.args);
    EXPECT_EQ(result.code, 2) << c.message;
    EXPECT_EQ(result.err, "hqt: " + c.message + "\n");
    EXPECT_EQ(result.out, "");
  }
  EXPECT_FALSE(Poco::File(env.db_file).exists());
}

TEST_F(CliArgs, HelpWinsOverMissingArgumentsAndListsTheOptions) {
  auto help = env.hqt({"session", "new", "--help"});
  ASSERT_EQ(help.code, 0) << help.err;
  EXPECT_EQ(help.out.rfind("usage: hqt session new --project P --harness H", 0), 0u) << help.out;
  EXPECT_NE(help.out.find("  --fs rw|ro"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace hqt
