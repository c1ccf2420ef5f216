#include "adapters/process.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

extern char** environ;

namespace hqt {
namespace {

// Closes the descriptor at scope exit.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

void open_pipe(Fd& read_end, Fd& write_end, const std::string& program) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw Error("cannot run " + program + ": pipe: " + std::strerror(errno));
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
}

}  // namespace

// posix_spawn, not fork: glibc starts the child with vfork semantics, so the cost does not grow
// with this process's memory, and closefrom closes every inherited descriptor above stderr in
// one call (a fork-based launcher that closes them one by one pays for the whole fd limit on
// every run: about a millisecond with a limit of 20000).
ProcessResult run_program(const std::vector<std::string>& argv) {
  if (argv.empty()) throw Error("cannot run an empty command");
  Fd out_read, out_write, err_read, err_write;
  open_pipe(out_read, out_write, argv[0]);
  open_pipe(err_read, err_write, argv[0]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_write.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, err_write.get(), 2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
  std::vector<char*> cargv;
  for (const auto& arg : argv) cargv.push_back(const_cast<char*>(arg.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  out_write.reset();
  err_write.reset();
  if (rc != 0) throw Error("cannot run " + argv[0] + ": " + std::strerror(rc));

  // Both pipes from one thread: neither can fill up and block the child.
  ProcessResult result;
  pollfd fds[2] = {{out_read.get(), POLLIN, 0}, {err_read.get(), POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  char buffer[65536];
  int open = 2;
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;  // end of output (the Fd closes it)
        --open;
      }
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 256 + WTERMSIG(status);
  return result;
}

std::string shell_join(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& arg : argv) {
    if (!line.empty()) line += ' ';
    bool plain = !arg.empty() && arg.find_first_not_of(
                                     "abcdefghijklmnopqrstuvwxyz"
                                     "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789_-./=:,@%+") == std::string::npos;
    if (plain) {
      line += arg;
      continue;
    }
    line += '\'';
    for (char c : arg) {
      if (c == '\'')
        line += "'\\''";
      else
        line += c;
    }
    line += '\'';
  }
  return line;
}

}  // namespace hqt
