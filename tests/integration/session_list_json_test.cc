// `hqt session list --json` writes its JSON directly (cli/json_out.h): the same objects as the
// Poco-built `session show --json`, with every string escaped so it parses back exactly.
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>
#include <gtest/gtest.h>

#include "integration/test_util.h"

namespace hqt {
namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

Poco::Dynamic::Var parse_json(const std::string& text) { return Poco::JSON::Parser().parse(text); }

TEST(SessionListJson, EveryFieldMatchesShowAndAwkwardNicknamesParseBackExactly) {
  test::HqtEnv env;
  std::string project = env.make_dir("proj");
  env.write_config("harnesses:\n  - name: sleeper\n    command: [sleep, \"600\"]\n");
  ASSERT_EQ(env.hqt({"project", "add", project, "--name", "proj"}).code, 0);
  const std::vector<std::string> nicknames{"quote \" and backslash \\ here",
                                           std::string("tab\tnewline\ncontrol\x01\x1f end"),
                                           "slash / é ü 日本 😀", "plain"};
  std::vector<std::string> ids;
  for (size_t i = 0; i < nicknames.size(); ++i) {
    std::vector<std::string> args{"session",   "new",     "--project", "proj",
                                  "--harness", "sleeper", "--json"};
    if (i % 2) args.insert(args.end(), {"--fs", "ro", "--net", "off"});
    if (i == 2) args.insert(args.end(), {"--model", "m\"x"});
    auto created = env.hqt(args);
    ASSERT_EQ(created.code, 0) << created.err;
    ids.push_back(
        std::to_string(parse_json(created.out).extract<Object::Ptr>()->getValue<int>("id")));
    ASSERT_EQ(env.hqt({"session", "rename", ids.back(), nicknames[i]}).code, 0);
  }
  auto listed = env.hqt({"session", "list", "--json"});
  ASSERT_EQ(listed.code, 0) << listed.err;
  auto array = parse_json(listed.out).extract<Array::Ptr>();
  ASSERT_EQ(array->size(), nicknames.size());
  for (size_t i = 0; i < nicknames.size(); ++i) {
    auto item = array->getObject(static_cast<unsigned>(i));
    EXPECT_EQ(item->getValue<std::string>("nickname"), nicknames[i]);
    auto shown = env.hqt({"session", "show", ids[i], "--json"});
    ASSERT_EQ(shown.code, 0) << shown.err;
    auto show = parse_json(shown.out).extract<Object::Ptr>();
    for (const char* key : {"id", "project", "harness", "nickname", "model", "sandbox",
                            "tmux_session", "harness_session_id", "created_at"}) {
      std::ostringstream a, b;
      Poco::JSON::Stringifier::stringify(item->get(key), a);
      Poco::JSON::Stringifier::stringify(show->get(key), b);
      EXPECT_EQ(a.str(), b.str()) << key << " of session " << ids[i];
    }
    EXPECT_EQ(item->getNames().size(), 10u);
  }
  EXPECT_EQ(env.hqt({"session", "list", "--json", "--project", "proj"}).out, listed.out);
}

TEST(SessionListJson, NoSessionsIsAnEmptyArray) {
  test::HqtEnv env;
  EXPECT_EQ(env.hqt({"session", "list", "--json"}).out, "[]\n");
}

}  // namespace
}  // namespace hqt
