#include "cli/args.h"

#include <iostream>

#include <Poco/Util/OptionException.h>
#include <Poco/Util/OptionProcessor.h>
#include <Poco/Util/OptionSet.h>

#include "core/error.h"

namespace hqt::cli {

std::string Args::get(const std::string& name, const std::string& fallback) const {
  auto it = values.find(name);
  return it == values.end() ? fallback : it->second;
}

Args parse(const std::vector<std::string>& argv, const Usage& usage) {
  Poco::Util::OptionSet set;
  set.addOption(Poco::Util::Option("help", "", "show this help"));
  for (const auto& spec : usage.options) {
    Poco::Util::Option option(spec.name, "", spec.help);
    if (!spec.argument.empty()) option.argument(spec.argument);
    option.repeatable(false);
    set.addOption(option);
  }
  Poco::Util::OptionProcessor processor(set);
  processor.setUnixStyle(true);
  Args args;
  const std::string where = usage.command + ": ";
  bool only_positional = false;
  for (const auto& arg : argv) {
    std::string name, value;
    try {
      if (!only_positional && arg == "--") {
        only_positional = true;
        continue;
      }
      if (!only_positional && processor.process(arg, name, value)) {
        if (name.empty()) continue;  // the option's value comes in the next argument
        const Poco::Util::Option& option = set.getOption(name);
        if (option.takesArgument())
          args.values[option.fullName()] = value;
        else
          args.flags.insert(option.fullName());
        continue;
      }
    } catch (const Poco::Util::OptionException& e) {
      throw UsageError(where + e.displayText() + " (see hqt " + usage.command + " --help)");
    }
    if (!only_positional && arg.size() > 1 && arg[0] == '-')
      throw UsageError(where + "unknown option '" + arg + "' (see hqt " + usage.command +
                       " --help)");
    args.positional.push_back(arg);
  }
  try {
    processor.checkRequired();
  } catch (const Poco::Util::OptionException& e) {
    throw UsageError(where + e.displayText());
  }
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
