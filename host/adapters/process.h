#pragma once
// Running a program and collecting its output.
#include <string>
#include <vector>

namespace hqt {

struct ProcessResult {
  int code = -1;
  std::string out;
  std::string err;
};

// Runs argv[0] (searched on PATH) with argv[1..]; stdin is /dev/null, no other descriptor of this
// process is inherited. `code` is the exit status, 256 + the signal when a signal ended it.
// Throws Error when it cannot be started at all (not found, not executable).
ProcessResult run_program(const std::vector<std::string>& argv);

// A command line as a POSIX shell would read it back: each argument quoted when needed.
std::string shell_join(const std::vector<std::string>& argv);

}  // namespace hqt
