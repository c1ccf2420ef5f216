#pragma once
// JSON shapes of the CLI's listings (the contract in design.md) and helpers to print them.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace hqt::cli {

// A JSON object that keeps its keys in insertion order (the order the contract lists them).
Poco::JSON::Object::Ptr json_object();
// The text, or null when it is empty.
Poco::Dynamic::Var text_or_null(const std::string& text);

// "2026-11-30T05:35:19Z"
std::string iso_time(int64_t unix_seconds);

// {"id","project","harness","nickname","model","status","sandbox","tmux_session",
//  "harness_session_id","created_at"}
Poco::JSON::Object::Ptr session_json(const Session& session, Status status);

// Appends the text print_json gives for session_json(session, status) as an element of a
// top-level array (indented by 2), written straight into `out`. Poco's objects and stringifier
// (one stream write per character) cost about 6 µs a session, which a listing of a thousand
// sessions notices; this costs well under one.
void append_session_json(std::string& out, const Session& session, Status status);

// Appends `text` as a JSON string, escaped as Poco's stringifier does.
void append_json_string(std::string& out, std::string_view text);

Poco::JSON::Array::Ptr string_array(const std::vector<std::string>& items);

// Pretty-printed, newline-terminated, to stdout.
void print_json(const Poco::Dynamic::Var& value);

}  // namespace hqt::cli
