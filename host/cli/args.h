#pragma once
// Command-line parsing for one subcommand, on top of getopt_long: --name VALUE, --name=VALUE,
// unambiguous abbreviations (--proj), "--" ending the options.
#include <map>
#include <set>
#include <string>
#include <vector>

namespace hqt::cli {

struct OptionSpec {
  std::string name;      // long name without "--"
  std::string argument;  // "" for a flag, else the value's placeholder ("PATH")
  std::string help;
};

struct Usage {
  std::string command;   // "session new"
  std::string synopsis;  // "--project P --harness H [...]"
  std::vector<OptionSpec> options;
  size_t min_positional = 0;
  size_t max_positional = 0;
};

struct Args {
  std::map<std::string, std::string> values;  // options with a value
  std::set<std::string> flags;                // flags given
  std::vector<std::string> positional;
  bool has(const std::string& name) const { return values.count(name) || flags.count(name); }
  std::string get(const std::string& name, const std::string& fallback = "") const;
};

// Throws UsageError naming the offending argument. "--help" is handled by the caller via
// Args::flags ("help" is always accepted).
Args parse(const std::vector<std::string>& argv, const Usage& usage);

// "usage: hqt <command> <synopsis>" plus one line per option.
std::string help_text(const Usage& usage);

// When --help was given, prints help_text() to stdout and returns true.
bool wants_help(const Args& args, const Usage& usage);

}  // namespace hqt::cli
