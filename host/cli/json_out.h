#pragma once
// JSON shapes of the CLI's listings (the contract in design.md) and helpers to print them.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"

namespace hqt::cli {

// "2026-11-30T05:35:19Z"
std::string iso_time(int64_t unix_seconds);

// {"id","project","harness","nickname","model","status","sandbox","tmux_session",
//  "harness_session_id","created_at"}
Poco::JSON::Object::Ptr session_json(const Session& session, Status status);

Poco::JSON::Array::Ptr string_array(const std::vector<std::string>& items);

// Pretty-printed, newline-terminated, to stdout.
void print_json(const Poco::Dynamic::Var& value);

}  // namespace hqt::cli
