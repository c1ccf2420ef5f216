#include "adapters/open_files.h"

#include <dirent.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace hqt {
namespace {

bool all_digits(const char* text) {
  if (!*text) return false;
  for (; *text; ++text)
    if (*text < '0' || *text > '9') return false;
  return true;
}

// Every process's parent, from the fourth field of /proc/PID/stat ("pid (comm) state ppid ...",
// where comm may hold spaces and parentheses: the last ')' ends it).
std::multimap<int, int> children_by_parent() {
  std::multimap<int, int> children;
  DIR* proc = ::opendir("/proc");
  if (!proc) return children;
  while (const dirent* entry = ::readdir(proc)) {
    if (!all_digits(entry->d_name)) continue;
    std::ifstream in(std::string("/proc/") + entry->d_name + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 1));
    std::string state;
    int parent = 0;
    if (rest >> state >> parent) children.emplace(parent, std::stoi(entry->d_name));
  }
  ::closedir(proc);
  return children;
}

void add_open_files(int pid, std::set<std::string>& files) {
  const std::string dir = "/proc/" + std::to_string(pid) + "/fd";
  DIR* fds = ::opendir(dir.c_str());
  if (!fds) return;
  while (const dirent* entry = ::readdir(fds)) {
    if (!all_digits(entry->d_name)) continue;
    char target[4096];
    ssize_t n = ::readlink((dir + "/" + entry->d_name).c_str(), target, sizeof target);
    if (n > 0 && n < static_cast<ssize_t>(sizeof target) && target[0] == '/')
      files.emplace(target, static_cast<size_t>(n));
  }
  ::closedir(fds);
}

}  // namespace

ProcessTree::ProcessTree() : children_(children_by_parent()) {}

std::vector<std::string> ProcessTree::open_files_under(int pid) const {
  if (pid <= 0) return {};
  std::set<std::string> files;
  std::vector<int> todo{pid};
  std::set<int> seen;
  while (!todo.empty()) {
    int next = todo.back();
    todo.pop_back();
    if (!seen.insert(next).second) continue;
    add_open_files(next, files);
    for (int child : children_of(next)) todo.push_back(child);
  }
  return {files.begin(), files.end()};
}

std::vector<int> ProcessTree::children_of(int pid) const {
  std::vector<int> children;
  auto [first, last] = children_.equal_range(pid);
  for (auto it = first; it != last; ++it) children.push_back(it->second);
  return children;
}

}  // namespace hqt
