#include "adapters/sandbox_seccomp.h"

#include <fcntl.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "adapters/paths.h"
#include "core/error.h"

namespace hqt::sandbox {

namespace {

// Bump when the rules change, so an old file is never used for a new hqt.
constexpr const char* kFilterVersion = "v1";

struct FilterDeleter {
  void operator()(void* ctx) const { seccomp_release(ctx); }
};
using Filter = std::unique_ptr<void, FilterDeleter>;

void check(int rc, const char* what) {
  if (rc < 0) throw Error(std::string("seccomp: cannot ") + what + ": " + std::strerror(-rc));
}

}  // namespace

std::string seccomp_filter_path() {
  struct utsname u {};
  std::string machine = ::uname(&u) == 0 ? u.machine : "unknown";
  return paths::state_dir() + "/seccomp-" + kFilterVersion + "-" + machine + ".bpf";
}

void write_seccomp_filter(const std::string& path) {
  Filter filter(seccomp_init(SCMP_ACT_ALLOW));
  if (!filter) throw Error("seccomp: cannot create a filter");
    // The other ABIs this CPU runs get the same rules; without them their system calls would be
    // killed outright (libseccomp's default for a foreign architecture).
#if defined(__x86_64__)
  for (uint32_t arch : {SCMP_ARCH_X86, SCMP_ARCH_X32}) {
    int rc = seccomp_arch_add(filter.get(), arch);
    if (rc != -EEXIST) check(rc, "add an architecture");
  }
#elif defined(__aarch64__)
  int rc = seccomp_arch_add(filter.get(), SCMP_ARCH_ARM);
  if (rc != -EEXIST) check(rc, "add an architecture");
#endif
  // The kernel compares only the low 32 bits of an ioctl request: mask them, or a request with
  // high bits set would slip past the rule (CVE-2019-10063 in Flatpak).
  for (unsigned long request : {TIOCSTI, TIOCLINUX})
    check(seccomp_rule_add(filter.get(), SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                           SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, request)),
          "add the ioctl rule");
  for (int syscall : {SCMP_SYS(add_key), SCMP_SYS(keyctl), SCMP_SYS(request_key)})
    check(seccomp_rule_add(filter.get(), SCMP_ACT_ERRNO(EPERM), syscall, 0), "add a keyring rule");

  std::filesystem::path target(path);
  std::error_code ec;
  std::filesystem::create_directories(target.parent_path(), ec);
  std::string temp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    throw Error("cannot write the seccomp filter '" + temp + "': " + std::strerror(errno));
  int rc = seccomp_export_bpf(filter.get(), fd);
  bool synced = rc == 0 && ::fsync(fd) == 0;
  ::close(fd);
  if (!synced || ::rename(temp.c_str(), path.c_str()) != 0) {
    int err = rc < 0 ? -rc : errno;
    ::unlink(temp.c_str());
    throw Error("cannot write the seccomp filter '" + path + "': " + std::strerror(err));
  }
}

std::string ensure_seccomp_filter(const std::string& path) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  auto size = std::filesystem::file_size(path, ec);
  // A BPF program is a non-empty array of 8-byte instructions.
  bool valid = !ec && std::filesystem::is_regular_file(status) && size > 0 && size % 8 == 0;
  if (!valid) write_seccomp_filter(path);
  return path;
}

}  // namespace hqt::sandbox
