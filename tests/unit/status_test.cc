#include "core/status.h"

#include <gtest/gtest.h>

#include "core/ladder.h"

namespace hqt {

TEST(Status, DeadPaneIsStoppedWhateverTheScreenSays) {
  EXPECT_EQ(decide_status(false, PaneStatus::working, 100, 100), Status::stopped);
  EXPECT_EQ(decide_status(false, PaneStatus::unknown, 100, 100), Status::stopped);
}

TEST(Status, ParserWinsOverActivity) {
  EXPECT_EQ(decide_status(true, PaneStatus::waiting, 100, 100), Status::waiting);
  EXPECT_EQ(decide_status(true, PaneStatus::idle, 100, 100), Status::idle);
  EXPECT_EQ(decide_status(true, PaneStatus::working, 0, 100), Status::working);
}

TEST(Status, UnknownFallsBackToRecentActivity) {
  EXPECT_EQ(decide_status(true, PaneStatus::unknown, 100, 100 + kActivityWindowSeconds),
            Status::working);
  EXPECT_EQ(decide_status(true, PaneStatus::unknown, 100, 101 + kActivityWindowSeconds),
            Status::idle);
}

TEST(Ladder, LivePaneIsAttachedAsItIs) {
  EXPECT_EQ(plan_ladder(true, true), std::vector<Rung>{Rung::attach});
}

TEST(Ladder, StoppedSessionTriesResumeThenFresh) {
  EXPECT_EQ(plan_ladder(false, true), (std::vector<Rung>{Rung::resume, Rung::fresh}));
  EXPECT_EQ(plan_ladder(false, false), std::vector<Rung>{Rung::fresh});
}

}  // namespace hqt
