// The SDK as a third party uses it: install hqt, build a plugin out of tree against the installed
// package, and have the installed hqt load it.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "integration/test_util.h"

namespace hqt {
namespace {

namespace fs = std::filesystem;

std::string output_of(const test::RunResult& r) { return r.out + r.err; }

Poco::JSON::Array::Ptr plugins_json(const std::string& hqt, const test::HqtEnv& env) {
  auto r = test::run_process({hqt, "plugins", "list", "--json"}, env.env);
  EXPECT_EQ(r.code, 0) << r.err;
  return Poco::JSON::Parser().parse(r.out).extract<Poco::JSON::Array::Ptr>();
}

Poco::JSON::Object::Ptr entry_for(const Poco::JSON::Array::Ptr& plugins, const std::string& path) {
  for (size_t i = 0; i < plugins->size(); ++i) {
    auto plugin = plugins->getObject(static_cast<unsigned>(i));
    if (plugin->getValue<std::string>("path") == path) return plugin;
  }
  return nullptr;
}

void expect_acme_loaded(const Poco::JSON::Array::Ptr& plugins, const std::string& path) {
  auto acme = entry_for(plugins, path);
  ASSERT_TRUE(acme) << "no entry for " << path;
  EXPECT_TRUE(acme->getValue<bool>("loaded")) << acme->getValue<std::string>("reason");
  EXPECT_EQ(acme->getValue<std::string>("name"), "acme");
  EXPECT_EQ(acme->getValue<std::string>("version"), "0.3.0");
  auto harnesses = acme->getArray("harnesses");
  ASSERT_EQ(harnesses->size(), 1u);
  EXPECT_EQ(harnesses->getObject(0)->getValue<std::string>("name"), "acme");
  EXPECT_EQ(harnesses->getObject(0)->getValue<std::string>("display_name"), "Acme Agent");
  EXPECT_EQ(harnesses->getObject(0)->getValue<std::string>("executable"), "acme-agent");
}

TEST(SdkPackage, InstalledHqtLoadsAThirdPartyPluginBuiltAgainstTheInstalledSdk) {
  test::TempDir work;
  const std::string prefix = work.path() + "/prefix";
  const std::string build = work.path() + "/acme-build";
  // Only what this test passes decides where CMake looks.
  const std::map<std::string, std::string> cmake_env{{"CMAKE_PREFIX_PATH", ""},
                                                     {"CMAKE_GENERATOR", ""}};

  auto install =
      test::run_process({"cmake", "--install", HQT_BUILD_DIR, "--prefix", prefix}, cmake_env);
  ASSERT_EQ(install.code, 0) << output_of(install);
  const std::string hqt = prefix + "/bin/hqt";
  ASSERT_TRUE(fs::exists(hqt)) << output_of(install);
  EXPECT_TRUE(fs::exists(prefix + "/include/hqt/plugin.h")) << output_of(install);

  auto configure = test::run_process(
      {"cmake", "-S", std::string(HQT_SOURCE_DIR) + "/tests/fixtures/third_party", "-B", build,
       "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_PREFIX_PATH=" + prefix},
      cmake_env);
  ASSERT_EQ(configure.code, 0) << output_of(configure);
  auto compile = test::run_process({"cmake", "--build", build, "-j", "2"}, cmake_env);
  ASSERT_EQ(compile.code, 0) << output_of(compile);
  const std::string built = build + "/hqt-acme.so";
  ASSERT_TRUE(fs::exists(built)) << output_of(compile);

  // The installed hqt, pointed at the third-party build output.
  test::HqtEnv env;
  env.write_config("plugin_dirs: [" + build + "]\n");
  auto plugins = plugins_json(hqt, env);
  expect_acme_loaded(plugins, built);

  // It found its own installed plugins, and nothing from the build tree.
  const std::string installed_dir = prefix + "/lib/hqt/plugins";
  size_t installed = 0;
  if (fs::is_directory(installed_dir)) {
    for (const auto& file : fs::directory_iterator(installed_dir)) {
      if (file.path().extension() != ".so") continue;
      ++installed;
      auto plugin = entry_for(plugins, file.path().string());
      ASSERT_TRUE(plugin) << "installed plugin not listed: " << file.path();
      EXPECT_TRUE(plugin->getValue<bool>("loaded"))
          << file.path() << ": " << plugin->getValue<std::string>("reason");
    }
  }
  EXPECT_EQ(plugins->size(), installed + 1);
  for (size_t i = 0; i < plugins->size(); ++i) {
    std::string path = plugins->getObject(static_cast<unsigned>(i))->getValue<std::string>("path");
    EXPECT_NE(path.rfind(HQT_BUILD_DIR, 0), 0u) << "the installed hqt loaded " << path;
  }

  // Installed next to hqt's own plugins, it is found with no config at all.
  auto install_acme =
      test::run_process({"cmake", "--install", build, "--prefix", prefix}, cmake_env);
  ASSERT_EQ(install_acme.code, 0) << output_of(install_acme);
  env.write_config("{}\n");
  expect_acme_loaded(plugins_json(hqt, env), installed_dir + "/hqt-acme.so");
}

}  // namespace
}  // namespace hqt
