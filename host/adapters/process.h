#pragma once
// Running a program and collecting its output.
#include <sys/types.h>
#include <string>
#include <string_view>
#include <vector>

namespace hqt {

struct ProcessResult {
  int code = -1;
  std::string out;
  std::string err;
};

// Runs argv[0] (searched on PATH) with argv[1..]; stdin is empty, no other descriptor of this
// process is inherited. `code` is the exit status, 256 + the signal when a signal ended it.
// Throws Error when it cannot be started at all (not found, not executable).
ProcessResult run_program(const std::vector<std::string>& argv);

// A program to hold a conversation with: read what it prints up to a marker, then give it its
// input. Started like run_program, with stdin a pipe.
class Child {
 public:
  // Throws Error when it cannot be started at all.
  explicit Child(const std::vector<std::string>& argv);
  // Closes stdin and waits for the program, when finish() was not called.
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // Reads until stdout holds `marker`, which must be at the start of a line; false when stdout
  // ended first. Everything read so far is in out(); stderr is read meanwhile as well.
  bool read_until(std::string_view marker);
  const std::string& out() const { return result_.out; }

  // Writes `input` to stdin and closes it, reads stdout and stderr to their end (while writing,
  // so neither side can block the other) and waits for the program. Once.
  ProcessResult finish(std::string_view input = {});

 private:
  // Waits for output and reads what is there; false when neither pipe is open any more.
  bool pump(std::string_view input, size_t* written);

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  bool finished_ = false;
  ProcessResult result_;
};

// A command line as a POSIX shell would read it back: each argument quoted when needed.
std::string shell_join(const std::vector<std::string>& argv);

}  // namespace hqt
