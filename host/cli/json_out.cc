#include "cli/json_out.h"

#include <Poco/JSON/Stringifier.h>

#include <ctime>
#include <iostream>

namespace hqt::cli {

std::string iso_time(int64_t unix_seconds) {
  // gmtime_r, not Poco::DateTimeFormatter: a listing formats one per session.
  std::time_t time = static_cast<std::time_t>(unix_seconds);
  std::tm utc{};
  ::gmtime_r(&time, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

Poco::JSON::Object::Ptr json_object() {
  return new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
}

Poco::Dynamic::Var text_or_null(const std::string& text) {
  return text.empty() ? Poco::Dynamic::Var() : Poco::Dynamic::Var(text);
}

Poco::JSON::Object::Ptr session_json(const Session& session, Status status) {
  Poco::JSON::Object::Ptr json = json_object();
  json->set("id", session.id);
  json->set("project", session.project);
  json->set("harness", session.harness);
  json->set("nickname", session.nickname);
  json->set("model", text_or_null(session.model));
  json->set("status", std::string(to_string(status)));
  if (session.sandbox) {
    Poco::JSON::Object::Ptr sandbox = json_object();
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

void append_json_string(std::string& out, std::string_view text) {
  static const char kHex[] = "0123456789ABCDEF";
  out += '"';
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += kHex[(c >> 4) & 0xf];
          out += kHex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void append_session_json(std::string& out, const Session& session, Status status) {
  auto field = [&](const char* name) {
    out += "    \"";
    out += name;
    out += "\": ";
  };
  auto text_or_null = [&](const std::string& text) {
    if (text.empty())
      out += "null";
    else
      append_json_string(out, text);
  };
  out += "  {\n";
  field("id");
  out += std::to_string(session.id);
  out += ",\n";
  field("project");
  append_json_string(out, session.project);
  out += ",\n";
  field("harness");
  append_json_string(out, session.harness);
  out += ",\n";
  field("nickname");
  append_json_string(out, session.nickname);
  out += ",\n";
  field("model");
  text_or_null(session.model);
  out += ",\n";
  field("status");
  append_json_string(out, to_string(status));
  out += ",\n";
  field("sandbox");
  if (session.sandbox) {
    out += "{\n      \"fs\": ";
    append_json_string(out, to_string(session.sandbox->fs));
    out += ",\n      \"net\": ";
    out += session.sandbox->net ? "true" : "false";
    out += "\n    }";
  } else {
    out += "null";
  }
  out += ",\n";
  field("tmux_session");
  append_json_string(out, session.tmux_session);
  out += ",\n";
  field("harness_session_id");
  text_or_null(session.harness_session_id);
  out += ",\n";
  field("created_at");
  append_json_string(out, iso_time(session.created_at));
  out += "\n  }";
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
