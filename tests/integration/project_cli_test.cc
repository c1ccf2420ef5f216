// hqt project add|list|rm through the real hqt binary on a real SQLite file.
#include <Poco/File.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "adapters/sqlite_store.h"
#include "integration/test_util.h"

namespace hqt {
namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

Array::Ptr parse_array(const std::string& text) {
  return Poco::JSON::Parser().parse(text).extract<Array::Ptr>();
}

class ProjectCli : public ::testing::Test {
 protected:
  test::RunResult hqt(const std::vector<std::string>& args) { return env.hqt(args); }

  Array::Ptr list_json() {
    auto listed = hqt({"project", "list", "--json"});
    EXPECT_EQ(listed.code, 0) << listed.err;
    return parse_array(listed.out);
  }

  // Adds sessions the way the session commands do, through the store.
  Session add_session(const std::string& project, const std::string& nickname) {
    auto store = open_sqlite_store(env.db_file);
    Session s;
    s.project_id = store->find_project(project)->id;
    s.harness = "claude";
    s.nickname = nickname;
    return store->add_session(s);
  }

  test::HqtEnv env;
};

TEST_F(ProjectCli, AddStoresTheCanonicalPathAndNamesItAfterTheDirectory) {
  std::string real = env.make_dir("work/alpha");
  env.make_dir("work/other");
  ASSERT_EQ(::symlink(real.c_str(), (env.root + "/link").c_str()), 0);
  auto added = hqt({"project", "add", env.root + "/work/other/../alpha/"});
  ASSERT_EQ(added.code, 0) << added.err;
  EXPECT_EQ(added.out, "added project 'alpha' (id 1): " + real + "\n");

  auto clash = hqt({"project", "add", env.root + "/link", "--name", "via-link"});
  EXPECT_EQ(clash.code, 2);
  EXPECT_EQ(clash.err, "hqt: project 'alpha' already exists (" + real + ")\n");

  auto list = list_json();
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ(list->getObject(0)->getValue<std::string>("path"), real);
}

TEST_F(ProjectCli, AddTakesANameAndRefusesADuplicateName) {
  std::string a = env.make_dir("a"), b = env.make_dir("b");
  auto added = hqt({"project", "add", a, "--name", "web"});
  ASSERT_EQ(added.code, 0) << added.err;
  EXPECT_EQ(added.out, "added project 'web' (id 1): " + a + "\n");
  auto clash = hqt({"project", "add", b, "--name", "web"});
  EXPECT_EQ(clash.code, 2);
  EXPECT_EQ(clash.err, "hqt: project 'web' already exists (" + a + ")\n");
  EXPECT_EQ(list_json()->size(), 1u);
}

TEST_F(ProjectCli, AddRefusesWhatIsNotADirectory) {
  auto missing = hqt({"project", "add", env.root + "/nope"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err, "hqt: project add: no such directory '" + env.root + "/nope'\n");
  test::write_file(env.root + "/file.txt", "x");
  auto file = hqt({"project", "add", env.root + "/file.txt"});
  EXPECT_EQ(file.code, 2);
  EXPECT_EQ(file.err, "hqt: project add: '" + env.root + "/file.txt' is not a directory\n");
  auto none = hqt({"project", "add"});
  EXPECT_EQ(none.code, 2);
  auto numeric = hqt({"project", "add", env.make_dir("2024")});
  EXPECT_EQ(numeric.code, 2);
  EXPECT_NE(numeric.err.find("'2024'"), std::string::npos) << numeric.err;
  EXPECT_EQ(list_json()->size(), 0u);
}

TEST_F(ProjectCli, EmptyListSaysHowToAddOne) {
  auto listed = hqt({"project", "list"});
  EXPECT_EQ(listed.code, 0);
  EXPECT_EQ(listed.out, "no projects yet; add one with: hqt project add PATH [--name NAME]\n");
  auto json = hqt({"project", "list", "--json"});
  EXPECT_EQ(json.code, 0);
  EXPECT_EQ(parse_array(json.out)->size(), 0u);
}

TEST_F(ProjectCli, ListJsonHasIdNamePathCreatedAtAndSessionCount) {
  std::string a = env.make_dir("alpha"), b = env.make_dir("beta");
  ASSERT_EQ(hqt({"project", "add", b}).code, 0);
  ASSERT_EQ(hqt({"project", "add", a}).code, 0);
  add_session("alpha", "one");
  add_session("alpha", "two");

  auto list = list_json();
  ASSERT_EQ(list->size(), 2u);
  const std::regex iso_utc(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)");
  auto alpha = list->getObject(0), beta = list->getObject(1);
  std::vector<std::string> keys;
  for (const auto& [key, value] : *alpha) keys.push_back(key);
  EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()),
            (std::set<std::string>{"id", "name", "path", "created_at", "sessions"}));
  EXPECT_EQ(alpha->getValue<std::string>("name"), "alpha");
  EXPECT_EQ(alpha->getValue<int64_t>("id"), 2);
  EXPECT_EQ(alpha->getValue<std::string>("path"), a);
  EXPECT_EQ(alpha->getValue<int64_t>("sessions"), 2);
  EXPECT_TRUE(alpha->get("id").isInteger());
  EXPECT_TRUE(alpha->get("sessions").isInteger());
  EXPECT_TRUE(std::regex_match(alpha->getValue<std::string>("created_at"), iso_utc))
      << alpha->getValue<std::string>("created_at");
  EXPECT_EQ(beta->getValue<std::string>("name"), "beta");
  EXPECT_EQ(beta->getValue<int64_t>("id"), 1);
  EXPECT_EQ(beta->getValue<int64_t>("sessions"), 0);
}

TEST_F(ProjectCli, ListTextIsAlignedColumns) {
  std::string a = env.make_dir("a"), b = env.make_dir("b");
  ASSERT_EQ(hqt({"project", "add", a, "--name", "x"}).code, 0);
  ASSERT_EQ(hqt({"project", "add", b, "--name", "a-much-longer-name"}).code, 0);
  add_session("x", "s");
  auto listed = hqt({"project", "list"});
  ASSERT_EQ(listed.code, 0) << listed.err;
  std::vector<std::string> lines;
  std::istringstream in(listed.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u) << listed.out;
  EXPECT_EQ(lines[0].rfind("ID", 0), 0u);
  // Every column starts at the same offset on every line.
  for (const char* header : {"NAME", "SESSIONS", "CREATED", "PATH"}) {
    size_t column = lines[0].find(header);
    ASSERT_NE(column, std::string::npos) << header;
    for (size_t i = 1; i < lines.size(); ++i) {
      ASSERT_GT(lines[i].size(), column) << lines[i];
      EXPECT_NE(lines[i][column], ' ') << header << " in: " << lines[i];
      EXPECT_EQ(lines[i][column - 1], ' ') << header << " in: " << lines[i];
    }
  }
  EXPECT_EQ(lines[1].substr(lines[0].find("NAME"), 18), "a-much-longer-name");
  EXPECT_EQ(lines[2].substr(lines[0].find("PATH")), a);
  EXPECT_EQ(lines[2].substr(lines[0].find("SESSIONS"), 1), "1");
}

TEST_F(ProjectCli, RmRemovesByNameOrId) {
  ASSERT_EQ(hqt({"project", "add", env.make_dir("a")}).code, 0);
  ASSERT_EQ(hqt({"project", "add", env.make_dir("b")}).code, 0);
  auto by_name = hqt({"project", "rm", "a"});
  EXPECT_EQ(by_name.code, 0) << by_name.err;
  EXPECT_EQ(by_name.out, "removed project 'a'\n");
  auto by_id = hqt({"project", "rm", "2"});
  EXPECT_EQ(by_id.code, 0) << by_id.err;
  EXPECT_EQ(by_id.out, "removed project 'b'\n");
  EXPECT_EQ(list_json()->size(), 0u);
}

TEST_F(ProjectCli, RmOfAnUnknownProjectIsExit2) {
  auto removed = hqt({"project", "rm", "ghost"});
  EXPECT_EQ(removed.code, 2);
  EXPECT_EQ(removed.err, "hqt: no project named 'ghost'\n");
}

TEST_F(ProjectCli, RmRefusesWhileTheProjectHasSessionsNamingThem) {
  ASSERT_EQ(hqt({"project", "add", env.make_dir("a")}).code, 0);
  Session one = add_session("a", "fix-bug");
  Session two = add_session("a", "refactor");
  auto removed = hqt({"project", "rm", "a"});
  EXPECT_EQ(removed.code, 2);
  EXPECT_NE(removed.err.find("project 'a' has 2 sessions: " + std::to_string(one.id) +
                             " (fix-bug), " + std::to_string(two.id) + " (refactor)"),
            std::string::npos)
      << removed.err;
  EXPECT_NE(removed.err.find("--force"), std::string::npos) << removed.err;
  auto list = list_json();
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ(list->getObject(0)->getValue<int64_t>("sessions"), 2);
}

TEST_F(ProjectCli, RmForceStopsTheTmuxSessionsAndRemovesEverything) {
  ASSERT_EQ(hqt({"project", "add", env.make_dir("a")}).code, 0);
  ASSERT_EQ(hqt({"project", "add", env.make_dir("b")}).code, 0);
  Session one = add_session("a", "fix-bug");
  Session two = add_session("a", "refactor");
  Session other = add_session("b", "elsewhere");
  for (const auto& s : {one, two, other})
    ASSERT_EQ(env.tmux({"new-session", "-d", "-s", s.tmux_session, "sleep 600"}).code, 0);

  auto removed = hqt({"project", "rm", "a", "--force"});
  EXPECT_EQ(removed.code, 0) << removed.err;
  EXPECT_EQ(removed.out, "removed project 'a' and its 2 sessions\n");
  EXPECT_NE(env.tmux({"has-session", "-t", "=" + one.tmux_session}).code, 0);
  EXPECT_NE(env.tmux({"has-session", "-t", "=" + two.tmux_session}).code, 0);
  EXPECT_EQ(env.tmux({"has-session", "-t", "=" + other.tmux_session}).code, 0);

  auto store = open_sqlite_store(env.db_file);
  EXPECT_FALSE(store->find_project("a"));
  EXPECT_FALSE(store->find_session(one.id));
  EXPECT_FALSE(store->find_session(two.id));
  EXPECT_TRUE(store->find_session(other.id));
}

TEST_F(ProjectCli, RmForceWorksWithoutATmuxServer) {
  ASSERT_EQ(hqt({"project", "add", env.make_dir("a")}).code, 0);
  add_session("a", "never-started");
  auto removed = hqt({"project", "rm", "a", "--force"});
  EXPECT_EQ(removed.code, 0) << removed.err;
  EXPECT_EQ(removed.out, "removed project 'a' and its 1 session\n");
  EXPECT_EQ(list_json()->size(), 0u);
}

TEST_F(ProjectCli, TwoProcessesAddingProjectsAtOnceLoseNothing) {
  constexpr int kPerProcess = 25;
  std::vector<std::string> dirs[2];
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < kPerProcess; ++i)
      dirs[p].push_back(env.make_dir("p" + std::to_string(p) + "-" + std::to_string(i)));
  std::vector<test::RunResult> results[2];
  std::vector<std::thread> writers;
  for (int p = 0; p < 2; ++p)
    writers.emplace_back([&, p] {
      for (const auto& dir : dirs[p]) results[p].push_back(env.hqt({"project", "add", dir}));
    });
  for (auto& w : writers) w.join();
  for (const auto& process : results)
    for (const auto& result : process) EXPECT_EQ(result.code, 0) << result.err;

  auto list = list_json();
  ASSERT_EQ(list->size(), 2u * kPerProcess);
  std::set<std::string> paths;
  std::set<int64_t> ids;
  for (size_t i = 0; i < list->size(); ++i) {
    paths.insert(list->getObject(i)->getValue<std::string>("path"));
    ids.insert(list->getObject(i)->getValue<int64_t>("id"));
  }
  for (const auto& process : dirs)
    for (const auto& dir : process) EXPECT_TRUE(paths.count(dir)) << dir;
  EXPECT_EQ(ids.size(), 2u * kPerProcess);
}

TEST_F(ProjectCli, HelpPrintsUsage) {
  auto help = hqt({"project", "rm", "--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_EQ(help.out.rfind("usage: hqt project rm NAME|ID [--force]\n", 0), 0u) << help.out;
}

}  // namespace
}  // namespace hqt
