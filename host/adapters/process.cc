#include "adapters/process.h"

#include <Poco/Exception.h>
#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>
#include <Poco/StreamCopier.h>

#include <thread>

#include "core/error.h"

namespace hqt {

ProcessResult run_program(const std::vector<std::string>& argv) {
  ProcessResult result;
  Poco::Pipe out, err;
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  try {
    auto handle = Poco::Process::launch(argv[0], args, nullptr, &out, &err);
    // stderr on its own thread so neither pipe can fill up and block the child.
    std::thread err_reader([&] {
      Poco::PipeInputStream from(err);
      Poco::StreamCopier::copyToString(from, result.err);
    });
    Poco::PipeInputStream from(out);
    Poco::StreamCopier::copyToString(from, result.out);
    err_reader.join();
    result.code = handle.wait();
  } catch (const Poco::Exception& e) {
    throw Error("cannot run " + argv[0] + ": " + e.displayText());
  }
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
