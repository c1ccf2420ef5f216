#pragma once
// What a running process tree holds open, read from /proc.
#include <map>
#include <string>
#include <vector>

namespace hqt {

// One look at which process is whose parent; then the open files of any subtree.
class ProcessTree {
 public:
  ProcessTree();

  // The files (paths starting with '/') that the process `pid` and all its descendants hold
  // open, as /proc/PID/fd names them, sorted, each once. Empty when `pid` is not positive or is
  // gone; a process whose descriptors cannot be read (another user's) adds nothing.
  std::vector<std::string> open_files_under(int pid) const;
  // The processes whose parent is `pid`.
  std::vector<int> children_of(int pid) const;

 private:
  std::multimap<int, int> children_;  // parent pid -> child pid
};

}  // namespace hqt
