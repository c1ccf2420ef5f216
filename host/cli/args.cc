#include "cli/args.h"

#include <getopt.h>

#include <iostream>

#include "core/error.h"

namespace hqt::cli {
namespace {

// getopt_long returns kHelp for --help and kHelp + 1 + i for usage.options[i]: above any
// character, so never taken for '?', ':' or 1 (an argument that is not an option).
constexpr int kHelp = 256;

std::vector<option> long_options(const Usage& usage) {
  std::vector<option> options;
  options.push_back({"help", no_argument, nullptr, kHelp});
  for (size_t i = 0; i < usage.options.size(); ++i) {
    const auto& spec = usage.options[i];
    options.push_back({spec.name.c_str(), spec.argument.empty() ? no_argument : required_argument,
                       nullptr, kHelp + 1 + static_cast<int>(i)});
  }
  options.push_back({nullptr, 0, nullptr, 0});
  return options;
}

// The names `word` ("--ne", "--ne=x") abbreviates, or the one it names exactly.
std::vector<std::string> matching(const Usage& usage, const std::string& word) {
  std::string name =
      word.substr(2, word.find('=') == std::string::npos ? std::string::npos : word.find('=') - 2);
  std::vector<std::string> names = {"help"};
  for (const auto& spec : usage.options) names.push_back(spec.name);
  std::vector<std::string> found;
  for (const auto& candidate : names) {
    if (candidate == name) return {candidate};
    if (candidate.rfind(name, 0) == 0) found.push_back(candidate);
  }
  return found;
}

}  // namespace

std::string Args::get(const std::string& name, const std::string& fallback) const {
  auto it = values.find(name);
  return it == values.end() ? fallback : it->second;
}

Args parse(const std::vector<std::string>& argv, const Usage& usage) {
  const std::string where = usage.command + ": ";
  const std::string see = " (see hqt " + usage.command + " --help)";
  // getopt_long wants a mutable argv whose first entry is the program's name.
  std::vector<std::string> words = {"hqt " + usage.command};
  words.insert(words.end(), argv.begin(), argv.end());
  std::vector<char*> pointers;
  for (auto& word : words) pointers.push_back(word.data());
  pointers.push_back(nullptr);
  const auto options = long_options(usage);
  auto name_of = [&](int value) { return std::string(options[value - kHelp].name); };

  Args args;
  // "-": arguments that are not options come back in order as value 1's argument, so nothing is
  // reordered; ":": a missing value is reported as ':'. getopt_long prints nothing (opterr 0).
  opterr = 0;
  optind = 0;  // start afresh
  const int argc = static_cast<int>(words.size());
  int index = -1;
  for (int c; (c = getopt_long(argc, pointers.data(), "-:", options.data(), &index)) != -1;) {
    const std::string word = words[optind - 1];
    if (c == 1) {
      if (word.size() > 1 && word[0] == '-')
        throw UsageError(where + "unknown option '" + word + "'" + see);
      args.positional.push_back(optarg);
      continue;
    }
    if (c == ':')
      throw UsageError(where + "option '--" + name_of(optopt) + "' needs a value (" +
                       usage.options[optopt - kHelp - 1].argument + ")");
    if (c == '?') {
      if (optopt >= kHelp)
        throw UsageError(where + "option '--" + name_of(optopt) + "' takes no value");
      std::string offending = optopt ? std::string("-") + static_cast<char>(optopt) : word;
      if (!optopt) {
        auto names = matching(usage, offending);
        if (names.size() > 1) {
          std::string list;
          for (const auto& name : names) list += (list.empty() ? "--" : ", --") + name;
          throw UsageError(where + "option '" + offending + "' is ambiguous (" + list + ")" + see);
        }
      }
      throw UsageError(where + "unknown option '" + offending + "'" + see);
    }
    const std::string name = name_of(c);
    if (args.has(name)) throw UsageError(where + "option '--" + name + "' is given twice");
    if (optarg)
      args.values[name] = optarg;
    else
      args.flags.insert(name);
  }
  for (int i = optind; i < argc; ++i) args.positional.push_back(words[i]);  // after "--"

  if (args.flags.count("help")) return args;
  if (args.positional.size() < usage.min_positional)
    throw UsageError(where + "missing argument; usage: hqt " + usage.command + " " +
                     usage.synopsis);
  if (args.positional.size() > usage.max_positional)
    throw UsageError(where + "unexpected argument '" + args.positional[usage.max_positional] +
                     "'; usage: hqt " + usage.command + " " + usage.synopsis);
  return args;
}

std::string help_text(const Usage& usage) {
  std::string text = "usage: hqt " + usage.command + " " + usage.synopsis + "\n";
  for (const auto& spec : usage.options) {
    std::string left = "  --" + spec.name + (spec.argument.empty() ? "" : " " + spec.argument);
    if (left.size() < 24) left.resize(24, ' ');
    text += left + " " + spec.help + "\n";
  }
  return text;
}

bool wants_help(const Args& args, const Usage& usage) {
  if (!args.flags.count("help")) return false;
  std::cout << help_text(usage);
  return true;
}

}  // namespace hqt::cli
