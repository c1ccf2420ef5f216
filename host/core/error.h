#pragma once
// Errors carry the offending value in their message. The CLI maps them to exit codes:
// UsageError -> 2 (bad usage or bad input), Error -> 1 (the operation failed).
#include <stdexcept>
#include <string>

namespace hqt {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class UsageError : public Error {
 public:
  using Error::Error;
};

}  // namespace hqt
