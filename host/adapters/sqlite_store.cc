#include "adapters/sqlite_store.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/File.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Nullable.h>
#include <Poco/Path.h>
#include <Poco/Timestamp.h>

#include <sstream>

#include "adapters/store_schema.h"
#include "core/error.h"

using namespace Poco::Data::Keywords;

namespace hqt {
namespace {

// sandbox_json holds exactly {"fs":"rw"|"ro","net":true|false}; NULL means not sandboxed.
std::string encode_sandbox(const SandboxPolicy& policy) {
  Poco::JSON::Object json(Poco::JSON_PRESERVE_KEY_ORDER);
  json.set("fs", std::string(to_string(policy.fs)));
  json.set("net", policy.net);
  std::ostringstream out;
  json.stringify(out);
  return out.str();
}

SandboxPolicy decode_sandbox(int64_t session_id, const std::string& text) {
  auto malformed = [&](const std::string& why) {
    return Error("session " + std::to_string(session_id) + ": malformed sandbox_json '" + text +
                 "' (" + why + ")");
  };
  Poco::Dynamic::Var parsed;
  try {
    parsed = Poco::JSON::Parser().parse(text);
  } catch (const Poco::Exception& e) {
    throw malformed("not JSON: " + e.message());
  }
  if (parsed.type() != typeid(Poco::JSON::Object::Ptr)) throw malformed("not a JSON object");
  auto json = parsed.extract<Poco::JSON::Object::Ptr>();
  for (const auto& key : json->getNames())
    if (key != "fs" && key != "net") throw malformed("unknown key \"" + key + "\"");
  SandboxPolicy policy;
  Poco::Dynamic::Var fs = json->get("fs"), net = json->get("net");
  if (!fs.isString() || (fs.toString() != "rw" && fs.toString() != "ro"))
    throw malformed("\"fs\" must be \"rw\" or \"ro\"");
  if (!net.isBoolean()) throw malformed("\"net\" must be true or false");
  policy.fs = fs.toString() == "ro" ? FsMode::ro : FsMode::rw;
  policy.net = net.extract<bool>();
  return policy;
}

bool all_digits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

Poco::Int64 unix_now() { return Poco::Timestamp().epochTime(); }

const char kProjectColumns[] = "SELECT id, name, path, created_at FROM projects ";

const char kSessionColumns[] =
    "SELECT s.id AS id, s.project_id AS project_id, p.name AS project, h.name AS harness,"
    " s.nickname AS nickname, s.model AS model, s.sandbox_json AS sandbox_json,"
    " s.tmux_session AS tmux_session, s.harness_session_id AS harness_session_id,"
    " s.created_at AS created_at"
    " FROM sessions s JOIN projects p ON p.id = s.project_id"
    " JOIN harnesses h ON h.id = s.harness_id ";

class SqliteStore final : public Store {
 public:
  SqliteStore(std::string path, Poco::Data::Session db) : path_(std::move(path)), db_(db) {}

  Project add_project(const std::string& name, const std::string& canonical_path) override {
    if (name.empty()) throw UsageError("a project name cannot be empty");
    // find_project() reads a number as an id, so a numeric name could never be found by name.
    if (all_digits(name))
      throw UsageError("project name '" + name + "' is a number, which reads as a project id");
    return guard("adding project '" + name + "'", [&] {
      store::WriteTransaction transaction(db_);
      std::string n = name, p = canonical_path;
      Poco::Data::Statement clash(db_);
      clash << kProjectColumns << "WHERE name = ? OR path = ? ORDER BY name = ? DESC", use(n),
          use(p), use(n);
      auto clashes = read_projects(clash);
      if (!clashes.empty())
        throw UsageError("project '" + clashes[0].name + "' already exists (" + clashes[0].path +
                         ")");
      Project project{0, name, canonical_path, unix_now()};
      db_ << "INSERT INTO projects (name, path, created_at) VALUES (?, ?, ?)", use(n), use(p),
          bind(project.created_at), now;
      project.id = last_insert_id();
      transaction.commit();
      return project;
    });
  }

  std::vector<Project> projects() override {
    return guard("listing projects", [&] {
      Poco::Data::Statement select(db_);
      select << kProjectColumns << "ORDER BY name";
      return read_projects(select);
    });
  }

  std::optional<Project> find_project(std::string_view name_or_id) override {
    return guard("looking up project '" + std::string(name_or_id) + "'", [&] {
      std::string name(name_or_id);
      Poco::Data::Statement by_name(db_);
      by_name << kProjectColumns << "WHERE name = ?", use(name);
      auto found = read_projects(by_name);
      if (found.empty() && all_digits(name) && name.size() < 19) {
        Poco::Int64 id = std::stoll(name);
        Poco::Data::Statement by_id(db_);
        by_id << kProjectColumns << "WHERE id = ?", use(id);
        found = read_projects(by_id);
      }
      return found.empty() ? std::nullopt : std::optional<Project>(found[0]);
    });
  }

  void remove_project(int64_t project_id) override {
    guard("removing project " + std::to_string(project_id), [&] {
      store::WriteTransaction transaction(db_);
      Poco::Int64 id = project_id, sessions = 0;
      db_ << "SELECT COUNT(*) FROM sessions WHERE project_id = ?", use(id), into(sessions), now;
      if (sessions > 0)
        throw Error("project " + std::to_string(project_id) + " still has " +
                    std::to_string(sessions) + " session(s)");
      Poco::Data::Statement remove(db_);
      remove << "DELETE FROM projects WHERE id = ?", use(id);
      if (remove.execute() == 0)
        throw UsageError("no project with id " + std::to_string(project_id));
      transaction.commit();
    });
  }

  Session add_session(const Session& session) override {
    if (session.harness.empty()) throw UsageError("a session needs a harness");
    return guard("adding a session", [&] {
      store::WriteTransaction transaction(db_);
      Poco::Int64 project_id = session.project_id, known = 0;
      db_ << "SELECT COUNT(*) FROM projects WHERE id = ?", use(project_id), into(known), now;
      if (known == 0) throw UsageError("no project with id " + std::to_string(project_id));
      std::string harness = session.harness;
      db_ << "INSERT OR IGNORE INTO harnesses (name) VALUES (?)", use(harness), now;
      Poco::Int64 harness_id = 0;
      db_ << "SELECT id FROM harnesses WHERE name = ?", use(harness), into(harness_id), now;
      Poco::Nullable<std::string> sandbox;
      if (session.sandbox) sandbox = encode_sandbox(*session.sandbox);
      std::string nickname = session.nickname, model = session.model,
                  harness_session_id = session.harness_session_id;
      Poco::Int64 created_at = unix_now();
      db_ << "INSERT INTO sessions (project_id, harness_id, nickname, model, harness_session_id,"
             " created_at, sandbox_json) VALUES (?, ?, ?, ?, ?, ?, ?)",
          use(project_id), use(harness_id), use(nickname), use(model), use(harness_session_id),
          use(created_at), use(sandbox), now;
      Poco::Int64 id = last_insert_id();
      db_ << "UPDATE sessions SET tmux_session = 'hqt-' || id WHERE id = ?", use(id), now;
      transaction.commit();
      return *find_session(id);
    });
  }

  std::vector<Session> sessions(std::optional<int64_t> project_id) override {
    return guard("listing sessions", [&] {
      Poco::Data::Statement select(db_);
      Poco::Int64 id = project_id.value_or(0);
      if (project_id)
        select << kSessionColumns << "WHERE s.project_id = ? ORDER BY s.id", use(id);
      else
        select << kSessionColumns << "ORDER BY s.id";
      return read_sessions(select);
    });
  }

  std::optional<Session> find_session(int64_t session_id) override {
    return guard("looking up session " + std::to_string(session_id), [&] {
      Poco::Int64 id = session_id;
      Poco::Data::Statement select(db_);
      select << kSessionColumns << "WHERE s.id = ?", use(id);
      auto found = read_sessions(select);
      return found.empty() ? std::nullopt : std::optional<Session>(found[0]);
    });
  }

  void set_harness_session_id(int64_t session_id, const std::string& harness_session_id) override {
    update_session(session_id, "harness_session_id", harness_session_id);
  }

  void rename_session(int64_t session_id, const std::string& nickname) override {
    update_session(session_id, "nickname", nickname);
  }

  void remove_session(int64_t session_id) override {
    guard("removing session " + std::to_string(session_id), [&] {
      Poco::Int64 id = session_id;
      Poco::Data::Statement remove(db_);
      remove << "DELETE FROM sessions WHERE id = ?", use(id);
      if (remove.execute() == 0)
        throw UsageError("no session with id " + std::to_string(session_id));
    });
  }

 private:
  // Runs `body`, turning SQLite failures into an Error naming the database and the operation.
  template <typename Body>
  auto guard(const std::string& what, Body&& body) -> decltype(body()) {
    try {
      return body();
    } catch (const Poco::Exception& e) {
      throw Error(path_ + ": " + what + " failed (" + store::sqlite_message(e) + ")");
    }
  }

  Poco::Int64 last_insert_id() {
    Poco::Int64 id = 0;
    db_ << "SELECT last_insert_rowid()", into(id), now;
    return id;
  }

  void update_session(int64_t session_id, const char* column, const std::string& value) {
    guard(std::string("setting ") + column + " of session " + std::to_string(session_id), [&] {
      Poco::Int64 id = session_id;
      std::string text = value;
      Poco::Data::Statement update(db_);
      update << "UPDATE sessions SET " << column << " = ? WHERE id = ?", use(text), use(id);
      if (update.execute() == 0)
        throw UsageError("no session with id " + std::to_string(session_id));
    });
  }

  static std::vector<Project> read_projects(Poco::Data::Statement& select) {
    select.execute();
    Poco::Data::RecordSet rows(select);
    std::vector<Project> out;
    for (bool more = rows.moveFirst(); more; more = rows.moveNext()) {
      Project project;
      project.id = rows["id"].convert<Poco::Int64>();
      project.name = rows["name"].convert<std::string>();
      project.path = rows["path"].convert<std::string>();
      project.created_at = rows["created_at"].convert<Poco::Int64>();
      out.push_back(std::move(project));
    }
    return out;
  }

  static std::vector<Session> read_sessions(Poco::Data::Statement& select) {
    select.execute();
    Poco::Data::RecordSet rows(select);
    // By position (the order of kSessionColumns) and typed: looking columns up by name and
    // converting through Dynamic::Var costs more than the query itself for a thousand rows.
    enum {
      id,
      project_id,
      project,
      harness,
      nickname,
      model,
      sandbox_json,
      tmux_session,
      harness_session_id,
      created_at
    };
    auto text = [&](size_t column, size_t row) -> std::string {
      return rows.isNull(column, row) ? std::string()
                                      : rows.value(column, row).convert<std::string>();
    };
    auto number = [&](size_t column, size_t row) -> Poco::Int64 {
      return rows.value(column, row).convert<Poco::Int64>();
    };
    std::vector<Session> out;
    out.reserve(rows.rowCount());
    for (size_t row = 0; row < rows.rowCount(); ++row) {
      Session session;
      session.id = number(id, row);
      session.project_id = number(project_id, row);
      session.project = text(project, row);
      session.harness = text(harness, row);
      session.nickname = text(nickname, row);
      session.model = text(model, row);
      if (!rows.isNull(sandbox_json, row))
        session.sandbox = decode_sandbox(session.id, text(sandbox_json, row));
      session.tmux_session = text(tmux_session, row);
      session.harness_session_id = text(harness_session_id, row);
      session.created_at = number(created_at, row);
      out.push_back(std::move(session));
    }
    return out;
  }

  std::string path_;
  Poco::Data::Session db_;
};

}  // namespace

std::unique_ptr<Store> open_sqlite_store(const std::string& path) {
  store::register_sqlite();
  // Nothing below writes to a file that check_before_open() refused.
  store::check_before_open(path);
  try {
    Poco::File(Poco::Path(path).parent()).createDirectories();
  } catch (const Poco::Exception& e) {
    throw Error(path + ": cannot create its directory (" + e.displayText() + ")");
  }
  try {
    Poco::Data::Session db("SQLite", path);
    store::set_busy_timeout(db);
    store::migrate(db, path);
    store::use_wal_and_foreign_keys(db);
    return std::make_unique<SqliteStore>(path, db);
  } catch (const Poco::Exception& e) {
    throw Error(path + ": cannot open the database (" + store::sqlite_message(e) + ")");
  }
}

}  // namespace hqt
