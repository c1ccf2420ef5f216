#include "core/types.h"

#include <gtest/gtest.h>

namespace hqt {

TEST(Types, StatusNamesAreTheJsonContract) {
  EXPECT_EQ(to_string(Status::working), "working");
  EXPECT_EQ(to_string(Status::waiting), "waiting");
  EXPECT_EQ(to_string(Status::idle), "idle");
  EXPECT_EQ(to_string(Status::stopped), "stopped");
}

TEST(Types, SandboxPolicyDefaultsToReadWriteWithNetwork) {
  SandboxPolicy policy;
  EXPECT_EQ(policy.fs, FsMode::rw);
  EXPECT_TRUE(policy.net);
  EXPECT_EQ(to_string(FsMode::ro), "ro");
}

}  // namespace hqt
