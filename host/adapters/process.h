#pragma once
// Running a program and collecting its output (Poco::Process).
#include <string>
#include <vector>

namespace hqt {

struct ProcessResult {
  int code = -1;
  std::string out;
  std::string err;
};

// Runs argv[0] (searched on PATH) with argv[1..]; stdin is empty. Throws Error when it cannot be
// started at all.
ProcessResult run_program(const std::vector<std::string>& argv);

// A command line as a POSIX shell would read it back: each argument quoted when needed.
std::string shell_join(const std::vector<std::string>& argv);

}  // namespace hqt
