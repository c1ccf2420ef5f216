#include "adapters/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

extern char** environ;

namespace hqt {
namespace {

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Writes to a pipe whose reader may be gone without this process dying of SIGPIPE: the signal
// is blocked for the write and a pending one taken back.
ssize_t write_no_sigpipe(int fd, const char* data, size_t size) {
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  ssize_t n = ::write(fd, data, size);
  int error = errno;
  if (n < 0 && error == EPIPE) {
    timespec zero{0, 0};
    while (::sigtimedwait(&pipe_only, nullptr, &zero) < 0 && errno == EINTR) {
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = error;
  return n;
}

}  // namespace

// posix_spawn, not fork: glibc starts the child with vfork semantics, so the cost does not grow
// with this process's memory, and closefrom closes every inherited descriptor above stderr in
// one call (a fork-based launcher that closes them one by one pays for the whole fd limit on
// every run: about a millisecond with a limit of 20000).
Child::Child(const std::vector<std::string>& argv) {
  if (argv.empty()) throw Error("cannot run an empty command");
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    int error = errno;
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]})
      if (fd >= 0) ::close(fd);
    throw Error("cannot run " + argv[0] + ": pipe: " + std::strerror(error));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
  std::vector<char*> cargv;
  for (const auto& arg : argv) cargv.push_back(const_cast<char*>(arg.c_str()));
  cargv.push_back(nullptr);
  int rc = ::posix_spawnp(&pid_, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  in_ = in[1];
  out_ = out[0];
  err_ = err[0];
  if (rc != 0) {
    close_fd(in_);
    close_fd(out_);
    close_fd(err_);
    finished_ = true;
    throw Error("cannot run " + argv[0] + ": " + std::strerror(rc));
  }
}

Child::~Child() {
  if (!finished_) finish();
}

bool Child::pump(std::string_view input, size_t* written) {
  pollfd fds[3] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}, {-1, POLLOUT, 0}};
  if (written && in_ >= 0) fds[2].fd = in_;
  if (fds[0].fd < 0 && fds[1].fd < 0 && fds[2].fd < 0) return false;
  if (::poll(fds, 3, -1) < 0) {
    if (errno == EINTR) return true;
    close_fd(out_);  // cannot wait: give up on the output
    close_fd(err_);
    close_fd(in_);
    return false;
  }
  char buffer[65536];
  int* ends[2] = {&out_, &err_};
  std::string* sinks[2] = {&result_.out, &result_.err};
  for (int i = 0; i < 2; ++i) {
    if (fds[i].fd < 0 || fds[i].revents == 0) continue;
    ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
    if (n > 0)
      sinks[i]->append(buffer, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR)
      close_fd(*ends[i]);  // end of output
  }
  if (fds[2].fd >= 0 && fds[2].revents != 0) {
    ssize_t n = write_no_sigpipe(in_, input.data() + *written, input.size() - *written);
    if (n > 0) *written += static_cast<size_t>(n);
    if ((n < 0 && errno != EINTR && errno != EAGAIN) || *written == input.size())
      close_fd(in_);  // all written, or the program does not read any more
  }
  return true;
}

bool Child::read_until(std::string_view marker) {
  size_t searched = 0;
  for (;;) {
    size_t at = result_.out.find(marker, searched);
    while (at != std::string::npos && at > 0 && result_.out[at - 1] != '\n')
      at = result_.out.find(marker, at + 1);
    if (at != std::string::npos) return true;
    if (out_ < 0) return false;
    if (result_.out.size() >= marker.size()) searched = result_.out.size() - marker.size();
    if (!pump({}, nullptr)) return false;
  }
}

ProcessResult Child::finish(std::string_view input) {
  if (finished_) return result_;
  finished_ = true;
  size_t written = 0;
  if (input.empty()) close_fd(in_);
  while (pump(input, &written)) {
  }
  close_fd(in_);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  result_.code = WIFEXITED(status) ? WEXITSTATUS(status) : 256 + WTERMSIG(status);
  return std::move(result_);
}

ProcessResult run_program(const std::vector<std::string>& argv) { return Child(argv).finish(); }

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
