#include "cli/json_out.h"

#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeFormatter.h>
#include <Poco/JSON/Stringifier.h>
#include <Poco/Timestamp.h>

#include <iostream>

namespace hqt::cli {

std::string iso_time(int64_t unix_seconds) {
  return Poco::DateTimeFormatter::format(Poco::Timestamp::fromEpochTime(unix_seconds),
                                         "%Y-%m-%dT%H:%M:%SZ");
}

Poco::JSON::Object::Ptr session_json(const Session& session, Status status) {
  Poco::JSON::Object::Ptr json = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  auto text_or_null = [](const std::string& s) -> Poco::Dynamic::Var {
    return s.empty() ? Poco::Dynamic::Var() : Poco::Dynamic::Var(s);
  };
  json->set("id", session.id);
  json->set("project", session.project);
  json->set("harness", session.harness);
  json->set("nickname", session.nickname);
  json->set("model", text_or_null(session.model));
  json->set("status", std::string(to_string(status)));
  if (session.sandbox) {
    Poco::JSON::Object::Ptr sandbox = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
    sandbox->set("fs", std::string(to_string(session.sandbox->fs)));
    sandbox->set("net", session.sandbox->net);
    json->set("sandbox", sandbox);
  } else {
    json->set("sandbox", Poco::Dynamic::Var());
  }
  json->set("tmux_session", session.tmux_session);
  json->set("harness_session_id", text_or_null(session.harness_session_id));
  json->set("created_at", iso_time(session.created_at));
  return json;
}

Poco::JSON::Array::Ptr string_array(const std::vector<std::string>& items) {
  Poco::JSON::Array::Ptr array = new Poco::JSON::Array;
  for (const auto& item : items) array->add(item);
  return array;
}

void print_json(const Poco::Dynamic::Var& value) {
  // Poco prints an empty array as "[\n\n]".
  if (value.type() == typeid(Poco::JSON::Array::Ptr) &&
      value.extract<Poco::JSON::Array::Ptr>()->size() == 0) {
    std::cout << "[]\n";
    return;
  }
  Poco::JSON::Stringifier::stringify(value, std::cout, 2);
  std::cout << "\n";
}

}  // namespace hqt::cli
