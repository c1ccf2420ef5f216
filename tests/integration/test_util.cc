#include "integration/test_util.h"

#include <Poco/File.h>
#include <Poco/Path.h>
#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>
#include <Poco/StreamCopier.h>
#include <Poco/TemporaryFile.h>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace hqt::test {

RunResult run_process(const std::vector<std::string>& argv,
                      const std::map<std::string, std::string>& env, const std::string& cwd,
                      const std::string& input) {
  Poco::Process::Env penv;
  for (const auto& [k, v] : env) penv[k] = v;
  Poco::Pipe in, out, err;
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  auto handle = Poco::Process::launch(argv[0], args, cwd, &in, &out, &err, penv);
  {
    Poco::PipeOutputStream to(in);
    to << input;
    to.close();
  }
  RunResult result;
  std::thread err_reader([&] {
    Poco::PipeInputStream from(err);
    Poco::StreamCopier::copyToString(from, result.err);
  });
  Poco::PipeInputStream from(out);
  Poco::StreamCopier::copyToString(from, result.out);
  err_reader.join();
  result.code = handle.wait();
  return result;
}

TempDir::TempDir() {
  path_ = Poco::TemporaryFile::tempName();
  Poco::File(path_).createDirectories();
  path_ = Poco::Path(path_).absolute().toString();
  if (!path_.empty() && path_.back() == '/') path_.pop_back();
}

TempDir::~TempDir() {
  try {
    // Sandboxed tests may leave read-only directories behind.
    run_process({"chmod", "-R", "u+rwX", path_});
    Poco::File(path_).remove(true);
  } catch (...) {
  }
}

static std::atomic<int> counter{0};

HqtEnv::HqtEnv() {
  root = dir_.path();
  home = root + "/home";
  Poco::File(home).createDirectories();
  socket = "hqt-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  config_file = home + "/.config/hqt/config.yaml";
  db_file = home + "/.local/share/hqt/hqt.db";
  env = {{"HOME", home},
         {"XDG_CONFIG_HOME", home + "/.config"},
         {"XDG_DATA_HOME", home + "/.local/share"},
         {"XDG_STATE_HOME", home + "/.local/state"},
         {"HQT_TMUX_SOCKET", socket},
         {"HQT_CONFIG", ""},
         {"TMUX", ""},
         {"TMUX_PANE", ""}};
}

namespace {

// Processes whose command line names `root`: what a test started there that outlives its tmux
// server (Codex's app-server daemon detaches itself and would run on after its HOME is gone).
void kill_processes_under(const std::string& root) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = read_file(entry.path().string() + "/cmdline");
    if (cmdline.find(root + "/") != std::string::npos) ::kill(std::stoi(name), SIGKILL);
  }
}

}  // namespace

HqtEnv::~HqtEnv() {
  tmux({"kill-server"});
  kill_processes_under(root);
  // tmux leaves its socket file behind: remove this environment's own (its name, and the names
  // tests derive from it for servers of their own, "<socket>-ui").
  std::string dir = getenv_or("TMUX_TMPDIR", "/tmp") + "/tmux-" + std::to_string(::getuid());
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name == socket || name.rfind(socket + "-", 0) == 0)
      std::filesystem::remove(entry.path(), ec);
  }
}

RunResult HqtEnv::hqt(const std::vector<std::string>& args, const std::string& input) const {
  std::vector<std::string> argv{HQT_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, env, "", input);
}

RunResult HqtEnv::tmux(const std::vector<std::string>& args) const {
  std::vector<std::string> argv{"tmux", "-L", socket};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, env);
}

void HqtEnv::write_config(const std::string& yaml) const {
  Poco::File(Poco::Path(config_file).parent()).createDirectories();
  write_file(config_file, yaml);
}

std::string HqtEnv::make_dir(const std::string& relative) const {
  std::string path = root + "/" + relative;
  Poco::File(path).createDirectories();
  return path;
}

ScopedEnv::~ScopedEnv() {
  for (const auto& [name, old] : saved_) {
    if (old)
      ::setenv(name.c_str(), old->c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
}

void ScopedEnv::set(const std::string& name, const std::string& value) {
  if (!saved_.count(name)) {
    const char* old = std::getenv(name.c_str());
    saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
  }
  ::setenv(name.c_str(), value.c_str(), 1);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string getenv_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

}  // namespace hqt::test
