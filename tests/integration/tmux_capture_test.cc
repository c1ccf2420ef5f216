// The tmux adapter's batched capture against a real private server: many panes (more than one
// tmux command sequence can hold), panes of different heights, a session that is gone.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "adapters/tmux_client.h"
#include "integration/test_util.h"

namespace hqt {
namespace {

class TmuxCapture : public ::testing::Test {
 protected:
  // Starts sessions hqt-1..hqt-count, each printing "screen of hqt-<i>", with heights 5..11.
  std::vector<std::string> start(int count) {
    env.tmux({"-f", "/dev/null", "start-server", ";", "set-option", "-g", "exit-empty", "off"});
    std::vector<std::string> names;
    for (int first = 1; first <= count; first += 50) {
      std::vector<std::string> args;
      for (int i = first; i < first + 50 && i <= count; ++i) {
        std::string name = "hqt-" + std::to_string(i);
        if (!args.empty()) args.push_back(";");
        args.insert(args.end(),
                    {"new-session", "-d", "-s", name, "-x", "80", "-y", std::to_string(5 + i % 7),
                     "--", "sh", "-c", "echo 'screen of " + name + "'; exec sleep 600"});
        names.push_back(name);
      }
      auto started = env.tmux(args);
      EXPECT_EQ(started.code, 0) << started.err;
    }
    return names;
  }

  // Captures until every pane shows its line, or a generous deadline passes.
  std::map<std::string, std::string> capture_all(Tmux& tmux, const std::vector<std::string>& names,
                                                 bool list_first) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    std::map<std::string, std::string> texts;
    for (;;) {
      if (list_first) tmux.list_panes();
      texts = tmux.capture(names);
      bool all = texts.size() == names.size();
      for (const auto& [name, text] : texts) all &= text.rfind("screen of " + name + "\n", 0) == 0;
      if (all || std::chrono::steady_clock::now() > deadline) return texts;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  void expect_screens(const std::map<std::string, std::string>& texts,
                      const std::vector<std::string>& names) {
    ASSERT_EQ(texts.size(), names.size());
    for (const auto& name : names) {
      ASSERT_TRUE(texts.count(name)) << name;
      const std::string& text = texts.at(name);
      EXPECT_EQ(text.rfind("screen of " + name + "\n", 0), 0u) << name << ": " << text;
      // The whole pane and nothing of the next one: one line per row.
      int rows = 5 + std::stoi(name.substr(4)) % 7;
      EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), rows) << name;
    }
  }

  test::HqtEnv env;
};

TEST_F(TmuxCapture, ManyPanesBeyondOneCommandSequenceAreAllCapturedWithPaneHeights) {
  auto names = start(300);
  auto tmux = make_tmux(env.socket);
  expect_screens(capture_all(*tmux, names, true), names);
}

TEST_F(TmuxCapture, ManyPanesAreAllCapturedWithoutAListingFirst) {
  auto names = start(300);
  auto tmux = make_tmux(env.socket);
  expect_screens(capture_all(*tmux, names, false), names);
}

TEST_F(TmuxCapture, ASessionThatIsGoneIsSkippedAndTheOthersAreCaptured) {
  auto names = start(12);
  auto tmux = make_tmux(env.socket);
  capture_all(*tmux, names, true);
  tmux->list_panes();
  // Gone after the listing: its capture fails in the middle of the batch.
  tmux->kill_session("hqt-5");
  auto texts = tmux->capture(names);
  EXPECT_FALSE(texts.count("hqt-5"));
  names.erase(names.begin() + 4);
  expect_screens(texts, names);
}

TEST_F(TmuxCapture, APaneResizedAfterTheListingIsStillCapturedWhole) {
  auto names = start(6);
  auto tmux = make_tmux(env.socket);
  capture_all(*tmux, names, true);
  tmux->list_panes();
  auto resized = env.tmux({"resize-window", "-t", "=hqt-3:", "-y", "20"});
  ASSERT_EQ(resized.code, 0) << resized.err;
  auto texts = tmux->capture(names);
  ASSERT_EQ(texts.size(), names.size());
  EXPECT_EQ(std::count(texts["hqt-3"].begin(), texts["hqt-3"].end(), '\n'), 20);
  EXPECT_EQ(texts["hqt-4"].rfind("screen of hqt-4\n", 0), 0u) << texts["hqt-4"];
}

TEST_F(TmuxCapture, ListAndCaptureReadsThePickedPanesOfItsOwnListing) {
  auto names = start(300);
  auto tmux = make_tmux(env.socket);
  capture_all(*tmux, names, true);  // every pane has printed its line
  std::map<std::string, std::string> texts;
  size_t listed = 0;
  auto panes = tmux->list_and_capture(
      [&](const std::vector<PaneInfo>& seen) {
        listed = seen.size();
        return names;
      },
      texts);
  EXPECT_EQ(listed, names.size());
  EXPECT_EQ(panes.size(), names.size());
  expect_screens(texts, names);
}

TEST_F(TmuxCapture, ListAndCaptureSkipsAPickedSessionThatDoesNotExist) {
  auto names = start(8);
  auto tmux = make_tmux(env.socket);
  capture_all(*tmux, names, true);
  std::map<std::string, std::string> texts;
  tmux->list_and_capture(
      [&](const std::vector<PaneInfo>&) {
        auto picked = names;
        picked.insert(picked.begin() + 3, "hqt-999");
        return picked;
      },
      texts);
  EXPECT_FALSE(texts.count("hqt-999"));
  expect_screens(texts, names);
}

TEST_F(TmuxCapture, ListAndCaptureReadsASessionWhoseNameNeedsQuoting) {
  auto names = start(3);
  auto odd = env.tmux({"new-session", "-d", "-s", "odd 'name'", "-x", "80", "-y", "6", "--", "sh",
                       "-c", "echo odd screen; exec sleep 600"});
  ASSERT_EQ(odd.code, 0) << odd.err;
  auto tmux = make_tmux(env.socket);
  capture_all(*tmux, names, true);
  std::map<std::string, std::string> texts;
  for (int i = 0; i < 200 && texts["odd 'name'"].rfind("odd screen\n", 0) != 0; ++i) {
    tmux->list_and_capture(
        [&](const std::vector<PaneInfo>&) {
          auto picked = names;
          picked.push_back("odd 'name'");
          return picked;
        },
        texts);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(texts["odd 'name'"].rfind("odd screen\n", 0), 0u) << texts["odd 'name'"];
  texts.erase("odd 'name'");
  expect_screens(texts, names);
}

TEST_F(TmuxCapture, ListAndCaptureWithoutAServerIsEmpty) {
  auto tmux = make_tmux(env.socket);
  std::map<std::string, std::string> texts{{"stale", "text"}};
  bool picked = false;
  auto panes = tmux->list_and_capture(
      [&](const std::vector<PaneInfo>&) {
        picked = true;
        return std::vector<std::string>{};
      },
      texts);
  EXPECT_TRUE(panes.empty());
  EXPECT_TRUE(texts.empty());
  EXPECT_FALSE(picked);
}

}  // namespace
}  // namespace hqt
