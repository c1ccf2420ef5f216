#pragma once
// The seccomp filter every sandbox runs under, as a BPF program file for `bwrap --seccomp FD`.
// It makes ioctl(TIOCSTI) and ioctl(TIOCLINUX) fail with EPERM, so a sandboxed program cannot
// push keystrokes into the terminal it shares with the user once it exits (what Flatpak does
// instead of bwrap's --new-session, which breaks job control and interactive programs), and
// keeps the kernel keyrings, which no namespace separates, out of reach.
#include <string>

namespace hqt::sandbox {

// $XDG_STATE_HOME/hqt/seccomp-<version>-<machine>.bpf
std::string seccomp_filter_path();
// Generates the filter with libseccomp and writes it to `path` (atomically). Throws Error.
void write_seccomp_filter(const std::string& path);
// Writes the filter when `path` is missing or not a BPF program; returns `path`. Throws Error.
std::string ensure_seccomp_filter(const std::string& path);

}  // namespace hqt::sandbox
