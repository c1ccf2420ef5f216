#include <Poco/File.h>
#include <Poco/Path.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <thread>

#include "adapters/sqlite_db.h"
#include "adapters/sqlite_store.h"
#include "adapters/store_schema.h"
#include "core/error.h"
#include "integration/test_util.h"

namespace hqt {
namespace {

// A connection of its own, for looking at (and tampering with) the file behind the store's back.
std::unique_ptr<sqlite::Db> raw(const std::string& path) {
  return std::make_unique<sqlite::Db>(path);
}

// The first column of every row.
std::vector<std::string> texts(sqlite::Db& db, const std::string& sql) {
  std::vector<std::string> out;
  auto select = db.prepare(sql);
  while (select.step()) out.push_back(select.text(0));
  return out;
}

int user_version(const std::string& path) {
  return static_cast<int>(raw(path)->integer("PRAGMA user_version"));
}

std::vector<std::string> columns(const std::string& path, const std::string& table) {
  return texts(*raw(path), "SELECT name FROM pragma_table_info('" + table + "')");
}

bool has_column(const std::string& path, const std::string& table, const std::string& column) {
  auto names = columns(path, table);
  return std::find(names.begin(), names.end(), column) != names.end();
}

std::set<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  Poco::File(dir).list(names);
  return {names.begin(), names.end()};
}

std::string open_error(const std::string& path) {
  try {
    open_sqlite_store(path);
  } catch (const UsageError& e) {
    return std::string("unexpected UsageError: ") + e.what();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The baseline schema exactly as version 1 of hqt created it.
void create_version_1(const std::string& path) {
  auto db = raw(path);
  db->exec(
      "CREATE TABLE projects ( id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE,"
      " path TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL)");
  db->exec(
      "CREATE TABLE harnesses ( id INTEGER PRIMARY KEY AUTOINCREMENT,"
      " name TEXT NOT NULL UNIQUE)");
  db->exec(
      "CREATE TABLE sessions ( id INTEGER PRIMARY KEY AUTOINCREMENT,"
      " project_id INTEGER NOT NULL REFERENCES projects(id),"
      " harness_id INTEGER NOT NULL REFERENCES harnesses(id),"
      " nickname TEXT NOT NULL DEFAULT '', model TEXT NOT NULL DEFAULT '',"
      " tmux_session TEXT NOT NULL DEFAULT '', harness_session_id TEXT NOT NULL DEFAULT '',"
      " created_at INTEGER NOT NULL)");
  db->exec("CREATE INDEX sessions_by_project ON sessions(project_id)");
  db->exec("PRAGMA user_version = 1");
}

void fill_version_1(const std::string& path) {
  auto db = raw(path);
  db->exec(
      "INSERT INTO projects (id, name, path, created_at) VALUES"
      " (1, 'alpha', '/src/alpha', 1700000001), (4, 'beta', '/src/beta', 1700000002)");
  db->exec("INSERT INTO harnesses (id, name) VALUES (1, 'claude'), (2, 'codex')");
  db->exec(
      "INSERT INTO sessions (id, project_id, harness_id, nickname, model, tmux_session,"
      " harness_session_id, created_at) VALUES"
      " (3, 1, 1, 'fix-bug', 'opus', 'hqt-3', 'c0ffee', 1700000010),"
      " (7, 4, 2, 'refactor', '', 'hqt-7', '', 1700000020),"
      " (9, 1, 2, 'docs', 'o3', 'hqt-9', 'abc-123', 1700000030)");
}

Session draft(int64_t project_id, const std::string& harness, const std::string& nickname,
              std::optional<SandboxPolicy> sandbox = std::nullopt) {
  Session s;
  s.project_id = project_id;
  s.harness = harness;
  s.nickname = nickname;
  s.sandbox = sandbox;
  return s;
}

TEST(Store, FreshDatabaseIsCreatedAtTheLatestVersionWithItsDirectories) {
  test::TempDir dir;
  std::string path = dir.path() + "/deep/er/hqt.db";
  auto store = open_sqlite_store(path);
  EXPECT_EQ(user_version(path), store::kLatestVersion);
  EXPECT_EQ(store::kLatestVersion, 2);
  EXPECT_TRUE(has_column(path, "sessions", "sandbox_json"));
  EXPECT_EQ(columns(path, "projects"),
            (std::vector<std::string>{"id", "name", "path", "created_at"}));
  EXPECT_EQ(columns(path, "harnesses"), (std::vector<std::string>{"id", "name"}));
  EXPECT_EQ(columns(path, "sessions"),
            (std::vector<std::string>{"id", "project_id", "harness_id", "nickname", "model",
                                      "tmux_session", "harness_session_id", "created_at",
                                      "sandbox_json"}));
  // Nothing to back up: no copy beside it.
  for (const auto& name : files_in(dir.path() + "/deep/er"))
    EXPECT_EQ(name.find(".bak"), std::string::npos) << name;
}

TEST(Store, UsesWalAndEnforcesForeignKeys) {
  test::TempDir dir;
  std::string path = dir.path() + "/hqt.db";
  auto store = open_sqlite_store(path);
  auto db = raw(path);
  EXPECT_EQ(texts(*db, "PRAGMA journal_mode"), std::vector<std::string>{"wal"});
  // A session of an unknown project is refused.
  try {
    store->add_session(draft(42, "claude", "x"));
    FAIL() << "a session of project 42 was added";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "no project with id 42");
  }
  EXPECT_TRUE(store->sessions().empty());
}

TEST(Store, ProjectsAreAddedFoundAndRemoved) {
  test::TempDir dir;
  auto store = open_sqlite_store(dir.path() + "/hqt.db");
  Project b = store->add_project("beta", "/src/beta");
  Project a = store->add_project("alpha", "/src/alpha");
  EXPECT_GT(a.id, b.id);
  EXPECT_GT(a.created_at, 1700000000);
  auto all = store->projects();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, "alpha");
  EXPECT_EQ(all[0].path, "/src/alpha");
  EXPECT_EQ(all[0].id, a.id);
  EXPECT_EQ(all[0].created_at, a.created_at);
  EXPECT_EQ(all[1].name, "beta");

  ASSERT_TRUE(store->find_project("beta"));
  EXPECT_EQ(store->find_project("beta")->id, b.id);
  ASSERT_TRUE(store->find_project(std::to_string(a.id)));
  EXPECT_EQ(store->find_project(std::to_string(a.id))->name, "alpha");
  EXPECT_FALSE(store->find_project("gamma"));
  EXPECT_FALSE(store->find_project("999"));

  store->remove_project(b.id);
  EXPECT_FALSE(store->find_project("beta"));
  EXPECT_EQ(store->projects().size(), 1u);
}

TEST(Store, DuplicateNameOrPathIsRefusedNamingTheClash) {
  test::TempDir dir;
  auto store = open_sqlite_store(dir.path() + "/hqt.db");
  store->add_project("alpha", "/src/alpha");
  auto error_of = [&](const std::string& name, const std::string& path) -> std::string {
    try {
      store->add_project(name, path);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error_of("alpha", "/src/other"), "project 'alpha' already exists (/src/alpha)");
  EXPECT_EQ(error_of("other", "/src/alpha"), "project 'alpha' already exists (/src/alpha)");
  EXPECT_EQ(error_of("", "/src/empty"), "a project name cannot be empty");
  EXPECT_EQ(error_of("12", "/src/twelve"),
            "project name '12' is a number, which reads as a project id");
  EXPECT_EQ(store->projects().size(), 1u);
}

TEST(Store, SessionRowsCarryProjectAndHarnessNames) {
  test::TempDir dir;
  auto store = open_sqlite_store(dir.path() + "/hqt.db");
  Project alpha = store->add_project("alpha", "/src/alpha");
  Project beta = store->add_project("beta", "/src/beta");
  Session in = draft(alpha.id, "claude", "fix-bug");
  in.model = "opus";
  in.harness_session_id = "c0ffee";
  Session one = store->add_session(in);
  Session two = store->add_session(draft(beta.id, "claude", "refactor"));
  Session three = store->add_session(draft(alpha.id, "codex", "docs"));

  EXPECT_GT(one.id, 0);
  EXPECT_EQ(one.tmux_session, "hqt-" + std::to_string(one.id));
  EXPECT_EQ(one.project_id, alpha.id);
  EXPECT_EQ(one.project, "alpha");
  EXPECT_EQ(one.harness, "claude");
  EXPECT_EQ(one.nickname, "fix-bug");
  EXPECT_EQ(one.model, "opus");
  EXPECT_EQ(one.harness_session_id, "c0ffee");
  EXPECT_FALSE(one.sandbox);
  EXPECT_GT(one.created_at, 1700000000);
  EXPECT_EQ(two.project, "beta");
  EXPECT_EQ(three.harness, "codex");

  // One harness row per harness name.
  auto db = raw(dir.path() + "/hqt.db");
  int64_t harnesses = db->integer("SELECT COUNT(*) FROM harnesses");
  EXPECT_EQ(harnesses, 2);

  auto of_alpha = store->sessions(alpha.id);
  ASSERT_EQ(of_alpha.size(), 2u);
  EXPECT_EQ(of_alpha[0].id, one.id);
  EXPECT_EQ(of_alpha[1].id, three.id);
  EXPECT_EQ(store->sessions().size(), 3u);

  store->set_harness_session_id(two.id, "sess-2");
  store->rename_session(two.id, "renamed");
  auto found = store->find_session(two.id);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->harness_session_id, "sess-2");
  EXPECT_EQ(found->nickname, "renamed");
  EXPECT_EQ(found->project, "beta");

  store->remove_session(two.id);
  EXPECT_FALSE(store->find_session(two.id));
  EXPECT_EQ(store->sessions().size(), 2u);
  EXPECT_THROW(store->rename_session(two.id, "x"), UsageError);
  EXPECT_THROW(store->remove_session(two.id), UsageError);

  // A removed session's id (and so its tmux session name) is never handed out again.
  Session four = store->add_session(draft(beta.id, "claude", "again"));
  EXPECT_GT(four.id, three.id);
}

TEST(Store, ASessionWithoutANicknameIsNamedAfterItsHarnessAndId) {
  test::TempDir dir;
  auto store = open_sqlite_store(dir.path() + "/hqt.db");
  Project p = store->add_project("alpha", "/src/alpha");
  Session named = store->add_session(draft(p.id, "claude", "mine"));
  Session unnamed = store->add_session(draft(p.id, "codex", ""));
  EXPECT_EQ(named.nickname, "mine");
  EXPECT_EQ(unnamed.nickname, "codex-" + std::to_string(unnamed.id));
  EXPECT_EQ(store->find_session(unnamed.id)->nickname, unnamed.nickname);
  EXPECT_EQ(unnamed.tmux_session, "hqt-" + std::to_string(unnamed.id));
}

TEST(Store, FlushMovesCommittedRowsFromTheWalIntoTheDatabaseFile) {
  test::TempDir dir;
  std::string path = dir.path() + "/hqt.db";
  auto store = open_sqlite_store(path);
  store->add_project("flushed-project-name", "/src/flushed");
  EXPECT_EQ(test::read_file(path).find("flushed-project-name"), std::string::npos)
      << "expected the commit in the WAL only";
  EXPECT_NE(test::read_file(path + "-wal").find("flushed-project-name"), std::string::npos);
  store->flush();
  EXPECT_NE(test::read_file(path).find("flushed-project-name"), std::string::npos);
  EXPECT_EQ(store->projects().size(), 1u);
}

TEST(Store, ProjectWithSessionsIsNotRemoved) {
  test::TempDir dir;
  auto store = open_sqlite_store(dir.path() + "/hqt.db");
  Project alpha = store->add_project("alpha", "/src/alpha");
  Session s = store->add_session(draft(alpha.id, "claude", "x"));
  EXPECT_THROW(store->remove_project(alpha.id), Error);
  EXPECT_TRUE(store->find_project("alpha"));
  store->remove_session(s.id);
  store->remove_project(alpha.id);
  EXPECT_FALSE(store->find_project("alpha"));
}

TEST(Store, SandboxPolicyRoundTripsThroughSandboxJson) {
  test::TempDir dir;
  std::string path = dir.path() + "/hqt.db";
  struct Case {
    std::optional<SandboxPolicy> policy;
    std::optional<std::string> json;
  };
  const std::vector<Case> cases = {
      {SandboxPolicy{FsMode::rw, true}, R"({"fs":"rw","net":true})"},
      {SandboxPolicy{FsMode::rw, false}, R"({"fs":"rw","net":false})"},
      {SandboxPolicy{FsMode::ro, true}, R"({"fs":"ro","net":true})"},
      {SandboxPolicy{FsMode::ro, false}, R"({"fs":"ro","net":false})"},
      {std::nullopt, std::nullopt},
  };
  std::vector<int64_t> ids;
  {
    auto store = open_sqlite_store(path);
    Project p = store->add_project("alpha", "/src/alpha");
    for (const auto& c : cases) {
      Session added = store->add_session(draft(p.id, "claude", "s", c.policy));
      EXPECT_EQ(added.sandbox, c.policy);
      ids.push_back(added.id);
    }
  }
  auto store = open_sqlite_store(path);  // read back by a new connection
  auto db = raw(path);
  for (size_t i = 0; i < cases.size(); ++i) {
    auto found = store->find_session(ids[i]);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->sandbox, cases[i].policy) << "case " << i;
    auto stored = db->prepare("SELECT sandbox_json FROM sessions WHERE id = ?");
    ASSERT_TRUE(stored.bind(1, ids[i]).step()) << "case " << i;
    if (cases[i].json) {
      ASSERT_FALSE(stored.is_null(0)) << "case " << i;
      EXPECT_EQ(stored.text(0), *cases[i].json);
    } else {
      EXPECT_TRUE(stored.is_null(0)) << "case " << i;
    }
  }
}

TEST(Store, MalformedSandboxJsonIsAnErrorNamingTheSession) {
  test::TempDir dir;
  std::string path = dir.path() + "/hqt.db";
  auto store = open_sqlite_store(path);
  Project p = store->add_project("alpha", "/src/alpha");
  Session s = store->add_session(draft(p.id, "claude", "s", SandboxPolicy{}));
  const std::vector<std::string> bad = {
      "{not json",
      "[]",
      R"({"fs":"rx","net":true})",
      R"({"fs":"rw","net":"yes"})",
      R"({"fs":"rw"})",
      R"({"net":true})",
      R"({"fs":"rw","net":true,"home":true})",
  };
  auto db = raw(path);
  for (const auto& value : bad) {
    db->prepare("UPDATE sessions SET sandbox_json = ? WHERE id = ?")
        .bind(1, value)
        .bind(2, s.id)
        .run();
    try {
      store->find_session(s.id);
      ADD_FAILURE() << "accepted " << value;
    } catch (const UsageError& e) {
      ADD_FAILURE() << "a UsageError for " << value << ": " << e.what();
    } catch (const Error& e) {
      std::string message = e.what();
      EXPECT_EQ(message.rfind("session " + std::to_string(s.id) + ": malformed sandbox_json", 0),
                0u)
          << message;
      EXPECT_NE(message.find(value), std::string::npos) << message;
    }
    EXPECT_THROW(store->sessions(), Error);
  }
}

TEST(Store, Version1DatabaseMigratesKeepingEveryRowAndIsBackedUpFirst) {
  test::TempDir dir;
  std::string path = dir.path() + "/hqt.db";
  create_version_1(path);
  fill_version_1(path);

  auto store = open_sqlite_store(path);
  EXPECT_EQ(user_version(path), 2);
  EXPECT_TRUE(has_column(path, "sessions", "sandbox_json"));

  auto projects = store->projects();
  ASSERT_EQ(projects.size(), 2u);
  EXPECT_EQ(projects[0].id, 1);
  EXPECT_EQ(projects[0].name, "alpha");
  EXPECT_EQ(projects[0].path, "/src/alpha");
  EXPECT_EQ(projects[0].created_at, 1700000001);
  EXPECT_EQ(projects[1].id, 4);
  EXPECT_EQ(projects[1].name, "beta");
  EXPECT_EQ(projects[1].created_at, 1700000002);

  auto sessions = store->sessions();
  ASSERT_EQ(sessions.size(), 3u);
  EXPECT_EQ(sessions[0].id, 3);
  EXPECT_EQ(sessions[0].project_id, 1);
  EXPECT_EQ(sessions[0].project, "alpha");
  EXPECT_EQ(sessions[0].harness, "claude");
  EXPECT_EQ(sessions[0].nickname, "fix-bug");
  EXPECT_EQ(sessions[0].model, "opus");
  EXPECT_EQ(sessions[0].tmux_session, "hqt-3");
  EXPECT_EQ(sessions[0].harness_session_id, "c0ffee");
  EXPECT_EQ(sessions[0].created_at, 1700000010);
  EXPECT_FALSE(sessions[0].sandbox);
  EXPECT_EQ(sessions[1].id, 7);
  EXPECT_EQ(sessions[1].project, "beta");
  EXPECT_EQ(sessions[1].harness, "codex");
  EXPECT_EQ(sessions[1].nickname, "refactor");
  EXPECT_EQ(sessions[1].harness_session_id, "");
  EXPECT_EQ(sessions[2].id, 9);
  EXPECT_EQ(sessions[2].harness_session_id, "abc-123");
  EXPECT_EQ(sessions[2].created_at, 1700000030);
  for (const auto& s : sessions) EXPECT_FALSE(s.sandbox);

  // The migrated database takes new rows, sandboxed ones included, after the old ids.
  Session added = store->add_session(draft(4, "claude", "new", SandboxPolicy{FsMode::ro, false}));
  EXPECT_GT(added.id, 9);
  EXPECT_EQ(store->find_session(added.id)->sandbox, (SandboxPolicy{FsMode::ro, false}));

  // The copy beside it is the version 1 database with every row.
  std::string backup = path + ".bak-v1";
  ASSERT_TRUE(Poco::File(backup).exists());
  EXPECT_EQ(user_version(backup), 1);
  EXPECT_FALSE(has_column(backup, "sessions", "sandbox_json"));
  auto copy = raw(backup);
  auto names = texts(*copy, "SELECT name FROM projects ORDER BY id");
  auto nicknames = texts(*copy, "SELECT nickname FROM sessions ORDER BY id");
  EXPECT_EQ(names, (std::vector<std::string>{"alpha", "beta"}));
  EXPECT_EQ(nicknames, (std::vector<std::string>{"fix-bug", "refactor", "docs"}));

  // Opening again: already at the latest version, nothing more is copied.
  store.reset();
  open_sqlite_store(path);
  EXPECT_FALSE(Poco::File(backup + ".2").exists());
}

TEST(Store, AnExistingBackupIsNeverOverwritten) {
  test::TempDir dir;
  std::string path = dir.path() + "/hqt.db";
  create_version_1(path);
  fill_version_1(path);
  test::write_file(path + ".bak-v1", "an older copy");
  open_sqlite_store(path);
  EXPECT_EQ(test::read_file(path + ".bak-v1"), "an older copy");
  ASSERT_TRUE(Poco::File(path + ".bak-v1.2").exists());
  EXPECT_EQ(user_version(path + ".bak-v1.2"), 1);
}

TEST(Store, SeveralProcessesOpeningAVersion1DatabaseMigrateItOnce) {
  test::HqtEnv env;
  Poco::File(Poco::Path(env.db_file).parent()).createDirectories();
  create_version_1(env.db_file);
  fill_version_1(env.db_file);
  std::vector<test::RunResult> results(4);
  std::vector<std::thread> threads;
  for (auto& result : results)
    threads.emplace_back([&env, &result] { result = env.hqt({"project", "list", "--json"}); });
  for (auto& t : threads) t.join();
  for (const auto& result : results) {
    EXPECT_EQ(result.code, 0) << result.err;
    EXPECT_NE(result.out.find("\"alpha\""), std::string::npos) << result.out;
  }
  EXPECT_EQ(user_version(env.db_file), 2);
  std::string dir = Poco::Path(env.db_file).parent().toString();
  std::set<std::string> copies;
  for (const auto& name : files_in(dir))
    if (name.find(".bak") != std::string::npos) copies.insert(name);
  EXPECT_EQ(copies, (std::set<std::string>{"hqt.db.bak-v1"}));
}

// Files hqt must refuse, and how its message describes them.
struct Refused {
  const char* name;
  void (*make)(const std::string& path);
  const char* problem;
};

void PrintTo(const Refused& refused, std::ostream* out) { *out << refused.name; }

void make_newer(const std::string& path) {
  create_version_1(path);
  fill_version_1(path);
  auto db = raw(path);
  db->exec("ALTER TABLE sessions ADD COLUMN sandbox_json TEXT");
  db->exec("ALTER TABLE sessions ADD COLUMN from_the_future TEXT");
  db->exec("PRAGMA user_version = 7");
}

// The same, in WAL mode, its last changes still in the WAL (as a crash leaves them): checking it
// must not move them into the database file.
void make_newer_with_its_wal(const std::string& path) {
  make_newer(path);
  auto db = raw(path);
  db->exec("PRAGMA journal_mode = WAL");
  db->exec("INSERT INTO projects (name, path, created_at) VALUES ('late', '/src/late', 1)");
  db->keep_wal_on_close();
}

void make_not_sqlite(const std::string& path) {
  test::write_file(path, "projects:\n  - alpha\n  - beta\n" + std::string(5000, 'x'));
}

// A real database whose pages after the first are overwritten: the header and schema read
// fine, the tables do not.
void make_corrupted(const std::string& path) {
  {
    auto db = raw(path);
    db->exec("CREATE TABLE filler (id INTEGER PRIMARY KEY, text TEXT)");
    db->exec("CREATE INDEX filler_text ON filler(text)");
    db->exec(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)"
        " INSERT INTO filler (text) SELECT printf('%.400c', char(65 + i % 26)) FROM n");
    db->exec("PRAGMA user_version = 2");
  }
  std::string bytes = test::read_file(path);
  ASSERT_GT(bytes.size(), 3 * 4096u);
  for (size_t i = 4096; i < bytes.size(); ++i) bytes[i] = static_cast<char>(0xA5 ^ (i * 7));
  test::write_file(path, bytes);
}

// A valid SQLite file of some other program: tables but no hqt schema version.
void make_foreign(const std::string& path) {
  auto db = raw(path);
  db->exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)");
  db->exec("INSERT INTO notes (text) VALUES ('keep me')");
}

class RefusedFile : public ::testing::TestWithParam<Refused> {};

TEST_P(RefusedFile, IsRefusedByTheStoreAndLeftAsItWas) {
  test::TempDir dir;
  std::string path = dir.path() + "/hqt.db";
  GetParam().make(path);
  if (HasFatalFailure()) return;
  std::string before = test::read_file(path);
  auto names_before = files_in(dir.path());

  std::string error = open_error(path);
  EXPECT_EQ(error.rfind(path + ": ", 0), 0u) << error;
  EXPECT_NE(error.find(GetParam().problem), std::string::npos) << error;
  EXPECT_EQ(test::read_file(path), before) << "the file changed";
  EXPECT_EQ(files_in(dir.path()), names_before);
  // Refused again, the same way: nothing was half done.
  EXPECT_EQ(open_error(path), error);
}

TEST_P(RefusedFile, FailsTheCliWithExit1AndLeavesTheFileAsItWas) {
  test::HqtEnv env;
  Poco::File(Poco::Path(env.db_file).parent()).createDirectories();
  GetParam().make(env.db_file);
  if (HasFatalFailure()) return;
  std::string before = test::read_file(env.db_file);
  auto names_before = files_in(Poco::Path(env.db_file).parent().toString());

  auto result = env.hqt({"project", "list"});
  EXPECT_EQ(result.code, 1);
  EXPECT_EQ(result.err.rfind("hqt: " + env.db_file + ": ", 0), 0u) << result.err;
  EXPECT_NE(result.err.find(GetParam().problem), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
  result = env.hqt({"project", "add", env.make_dir("work")});
  EXPECT_EQ(result.code, 1) << result.err;
  EXPECT_EQ(test::read_file(env.db_file), before) << "the file changed";
  EXPECT_EQ(files_in(Poco::Path(env.db_file).parent().toString()), names_before);
}

INSTANTIATE_TEST_SUITE_P(
    Store, RefusedFile,
    ::testing::Values(Refused{"Newer", make_newer,
                              "database version 7 is newer than this hqt (2); upgrade hqt"},
                      Refused{"NewerWithItsWal", make_newer_with_its_wal,
                              "database version 7 is newer than this hqt (2); upgrade hqt"},
                      Refused{"NotSqlite", make_not_sqlite, "not an SQLite database"},
                      Refused{"Corrupted", make_corrupted, "database is corrupted"},
                      Refused{"Foreign", make_foreign, "not an hqt database"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Store, EmptyFileBecomesAFreshDatabase) {
  test::TempDir dir;
  std::string path = dir.path() + "/hqt.db";
  test::write_file(path, "");
  auto store = open_sqlite_store(path);
  EXPECT_EQ(user_version(path), 2);
  store->add_project("alpha", "/src/alpha");
  EXPECT_EQ(store->projects().size(), 1u);
}

TEST(Store, DirectoryInPlaceOfTheDatabaseIsRefused) {
  test::TempDir dir;
  std::string path = dir.path() + "/hqt.db";
  Poco::File(path).createDirectories();
  EXPECT_EQ(open_error(path), path + ": is a directory, not a database");
}

}  // namespace
}  // namespace hqt
