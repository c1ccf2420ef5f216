#include "adapters/sqlite_store.h"

#include <Poco/File.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Path.h>
#include <Poco/Timestamp.h>

#include <sstream>

#include "adapters/sqlite_db.h"
#include "adapters/store_schema.h"
#include "core/error.h"

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

int64_t unix_now() { return Poco::Timestamp().epochTime(); }

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
  SqliteStore(std::string path, std::unique_ptr<sqlite::Db> db)
      : path_(std::move(path)), db_(std::move(db)) {}

  Project add_project(const std::string& name, const std::string& canonical_path) override {
    if (name.empty()) throw UsageError("a project name cannot be empty");
    // find_project() reads a number as an id, so a numeric name could never be found by name.
    if (all_digits(name))
      throw UsageError("project name '" + name + "' is a number, which reads as a project id");
    return guard("adding project '" + name + "'", [&] {
      store::WriteTransaction transaction(*db_);
      auto clash = db_->prepare(std::string(kProjectColumns) +
                                "WHERE name = ?1 OR path = ?2 ORDER BY name = ?1 DESC");
      clash.bind(1, name).bind(2, canonical_path);
      auto clashes = read_projects(clash);
      if (!clashes.empty())
        throw UsageError("project '" + clashes[0].name + "' already exists (" + clashes[0].path +
                         ")");
      Project project{0, name, canonical_path, unix_now()};
      db_->prepare("INSERT INTO projects (name, path, created_at) VALUES (?, ?, ?)")
          .bind(1, name)
          .bind(2, canonical_path)
          .bind(3, project.created_at)
          .run();
      project.id = db_->last_insert_id();
      transaction.commit();
      return project;
    });
  }

  std::vector<Project> projects() override {
    return guard("listing projects", [&] {
      auto select = db_->prepare(std::string(kProjectColumns) + "ORDER BY name");
      return read_projects(select);
    });
  }

  std::optional<Project> find_project(std::string_view name_or_id) override {
    return guard("looking up project '" + std::string(name_or_id) + "'", [&] {
      std::string name(name_or_id);
      auto by_name = db_->prepare(std::string(kProjectColumns) + "WHERE name = ?");
      by_name.bind(1, name);
      auto found = read_projects(by_name);
      if (found.empty() && all_digits(name) && name.size() < 19) {
        auto by_id = db_->prepare(std::string(kProjectColumns) + "WHERE id = ?");
        by_id.bind(1, static_cast<int64_t>(std::stoll(name)));
        found = read_projects(by_id);
      }
      return found.empty() ? std::nullopt : std::optional<Project>(found[0]);
    });
  }

  void remove_project(int64_t project_id) override {
    guard("removing project " + std::to_string(project_id), [&] {
      store::WriteTransaction transaction(*db_);
      int64_t sessions =
          db_->integer("SELECT COUNT(*) FROM sessions WHERE project_id = ?", project_id);
      if (sessions > 0)
        throw Error("project " + std::to_string(project_id) + " still has " +
                    std::to_string(sessions) + " session(s)");
      if (db_->prepare("DELETE FROM projects WHERE id = ?").bind(1, project_id).run() == 0)
        throw UsageError("no project with id " + std::to_string(project_id));
      transaction.commit();
    });
  }

  Session add_session(const Session& session) override {
    if (session.harness.empty()) throw UsageError("a session needs a harness");
    return guard("adding a session", [&] {
      store::WriteTransaction transaction(*db_);
      if (db_->integer("SELECT COUNT(*) FROM projects WHERE id = ?", session.project_id) == 0)
        throw UsageError("no project with id " + std::to_string(session.project_id));
      db_->prepare("INSERT OR IGNORE INTO harnesses (name) VALUES (?)")
          .bind(1, session.harness)
          .run();
      int64_t harness_id = db_->integer("SELECT id FROM harnesses WHERE name = ?", session.harness);
      std::optional<std::string> sandbox;
      if (session.sandbox) sandbox = encode_sandbox(*session.sandbox);
      db_->prepare(
             "INSERT INTO sessions (project_id, harness_id, nickname, model, harness_session_id,"
             " created_at, sandbox_json) VALUES (?, ?, ?, ?, ?, ?, ?)")
          .bind(1, session.project_id)
          .bind(2, harness_id)
          .bind(3, session.nickname)
          .bind(4, session.model)
          .bind(5, session.harness_session_id)
          .bind(6, unix_now())
          .bind(7, sandbox)
          .run();
      int64_t id = db_->last_insert_id();
      db_->prepare(
             "UPDATE sessions SET tmux_session = 'hqt-' || id,"
             " nickname = CASE nickname WHEN '' THEN ?1 || '-' || id ELSE nickname END"
             " WHERE id = ?2")
          .bind(1, session.harness)
          .bind(2, id)
          .run();
      transaction.commit();
      return *find_session(id);
    });
  }

  std::vector<Session> sessions(std::optional<int64_t> project_id) override {
    return guard("listing sessions", [&] {
      if (!project_id) {
        auto select = db_->prepare(std::string(kSessionColumns) + "ORDER BY s.id");
        return read_sessions(select);
      }
      auto select =
          db_->prepare(std::string(kSessionColumns) + "WHERE s.project_id = ? ORDER BY s.id");
      select.bind(1, *project_id);
      return read_sessions(select);
    });
  }

  std::optional<Session> find_session(int64_t session_id) override {
    return guard("looking up session " + std::to_string(session_id), [&] {
      auto select = db_->prepare(std::string(kSessionColumns) + "WHERE s.id = ?");
      select.bind(1, session_id);
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
      if (db_->prepare("DELETE FROM sessions WHERE id = ?").bind(1, session_id).run() == 0)
        throw UsageError("no session with id " + std::to_string(session_id));
    });
  }

  void flush() override {
    try {
      db_->checkpoint();
    } catch (const sqlite::Failure&) {
    }
  }

 private:
  // Runs `body`, turning SQLite failures into an Error naming the database and the operation.
  template <typename Body>
  auto guard(const std::string& what, Body&& body) -> decltype(body()) {
    try {
      return body();
    } catch (const sqlite::Failure& e) {
      throw Error(path_ + ": " + what + " failed (" + e.what() + ")");
    }
  }

  void update_session(int64_t session_id, const char* column, const std::string& value) {
    guard(std::string("setting ") + column + " of session " + std::to_string(session_id), [&] {
      auto update =
          db_->prepare(std::string("UPDATE sessions SET ") + column + " = ? WHERE id = ?");
      if (update.bind(1, value).bind(2, session_id).run() == 0)
        throw UsageError("no session with id " + std::to_string(session_id));
    });
  }

  static std::vector<Project> read_projects(sqlite::Statement& select) {
    std::vector<Project> out;
    while (select.step())
      out.push_back({select.integer(0), select.text(1), select.text(2), select.integer(3)});
    return out;
  }

  static std::vector<Session> read_sessions(sqlite::Statement& select) {
    // By position, in the order of kSessionColumns.
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
    std::vector<Session> out;
    while (select.step()) {
      Session session;
      session.id = select.integer(id);
      session.project_id = select.integer(project_id);
      session.project = select.text(project);
      session.harness = select.text(harness);
      session.nickname = select.text(nickname);
      session.model = select.text(model);
      if (!select.is_null(sandbox_json))
        session.sandbox = decode_sandbox(session.id, select.text(sandbox_json));
      session.tmux_session = select.text(tmux_session);
      session.harness_session_id = select.text(harness_session_id);
      session.created_at = select.integer(created_at);
      out.push_back(std::move(session));
    }
    return out;
  }

  std::string path_;
  std::unique_ptr<sqlite::Db> db_;
};

}  // namespace

std::unique_ptr<Store> open_sqlite_store(const std::string& path) {
  // Nothing below writes to a file that a check refused.
  store::check_file(path);
  try {
    Poco::File(Poco::Path(path).parent()).createDirectories();
  } catch (const Poco::Exception& e) {
    throw Error(path + ": cannot create its directory (" + e.displayText() + ")");
  }
  try {
    auto db = std::make_unique<sqlite::Db>(path);
    store::set_busy_timeout(*db);
    try {
      store::check_database(*db, path);
      store::migrate(*db, path);
    } catch (...) {
      db->keep_wal_on_close();  // a refused file: not even its own WAL is moved into it
      throw;
    }
    store::configure(*db);
    return std::make_unique<SqliteStore>(path, std::move(db));
  } catch (const sqlite::Failure& e) {
    throw Error(path + ": cannot open the database (" + e.what() + ")");
  }
}

}  // namespace hqt
