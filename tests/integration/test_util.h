#pragma once
// Helpers for integration tests: a private user environment per test (HOME, XDG dirs, a unique
// tmux socket) and running the real hqt binary in it.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hqt::test {

struct RunResult {
  int code = -1;
  std::string out;
  std::string err;
};

// Runs argv (argv[0] looked up on PATH unless it contains '/') with `env` added to (and
// overriding) this process's environment. hqt and tmux treat a variable set to "" as unset.
RunResult run_process(const std::vector<std::string>& argv,
                      const std::map<std::string, std::string>& env = {},
                      const std::string& cwd = "", const std::string& input = "");

// A temporary directory removed with everything in it at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A fresh user: HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME under a temp dir and a
// tmux socket name of its own. The tmux server on that socket is killed at destruction.
class HqtEnv {
 public:
  HqtEnv();
  ~HqtEnv();
  // Runs the hqt binary under test with `args`.
  RunResult hqt(const std::vector<std::string>& args, const std::string& input = "") const;
  // Runs tmux against this environment's private server.
  RunResult tmux(const std::vector<std::string>& args) const;
  // Writes $XDG_CONFIG_HOME/hqt/config.yaml.
  void write_config(const std::string& yaml) const;
  // Creates a directory under the temp root and returns its absolute path.
  std::string make_dir(const std::string& relative) const;

  std::string root;
  std::string home;
  std::string socket;
  std::string config_file;
  std::string db_file;
  std::map<std::string, std::string> env;

 private:
  TempDir dir_;
};

// Sets variables of this process for the lifetime of the object, then puts the old values back.
class ScopedEnv {
 public:
  ScopedEnv() = default;
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  ~ScopedEnv();
  void set(const std::string& name, const std::string& value);

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

bool contains(const std::string& text, const std::string& part);

std::string read_file(const std::string& path);
std::string getenv_or(const char* name, const std::string& fallback);
void write_file(const std::string& path, const std::string& text);

}  // namespace hqt::test
