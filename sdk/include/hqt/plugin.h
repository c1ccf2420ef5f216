/* hqt plugin ABI.
 *
 * A plugin is a shared library that exports exactly one symbol, `hqt_plugin_entry`, of type
 * `const hqt_plugin_entry`. Everything else is reached through it. This header is pure C (C11) and
 * also compiles as C++17/20; no C++ type crosses it.
 *
 * Rules that keep the ABI stable:
 *  - A published field never changes place, type or meaning. A struct that starts with
 *    `struct_size` may gain fields at its end in a new minor version; the reader uses a field
 *    only when `struct_size` covers it (older code wrote a shorter struct). Anything more than
 *    that gets a new interface id (e.g. "hqt.harnesses/2") and a new struct.
 *  - Ownership is written next to every field. Text that comes out of a plugin with a length the
 *    host cannot know (argv, ids, errors) goes through an `hqt_sink` the host provides, so
 *    neither side ever frees memory the other allocated.
 *
 * Versioning: the host loads a plugin when its ABI major equals the host's and its minor is not
 * newer than the host's. The patch number is informational.
 */
#ifndef HQT_PLUGIN_H
#define HQT_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HQT_ABI_VERSION_MAJOR 1
#define HQT_ABI_VERSION_MINOR 1
#define HQT_ABI_VERSION_PATCH 0

/* The name of the one exported symbol. */
#define HQT_PLUGIN_ENTRY_SYMBOL "hqt_plugin_entry"

#if defined(_WIN32)
#define HQT_PLUGIN_EXPORT __declspec(dllexport)
#else
#define HQT_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

typedef struct hqt_version {
  uint32_t major;
  uint32_t minor;
  uint32_t patch;
} hqt_version;

#define HQT_ABI_VERSION \
  { HQT_ABI_VERSION_MAJOR, HQT_ABI_VERSION_MINOR, HQT_ABI_VERSION_PATCH }

/* A writer the host hands to the plugin for variable-length output. The plugin calls `write`
 * once per string (for an argv: once per argument, in order). `text` is NUL-terminated and only
 * needs to stay valid for the duration of the call: the host copies it. */
typedef struct hqt_sink {
  void* ctx; /* host-owned; pass back unchanged */
  void (*write)(void* ctx, const char* text);
} hqt_sink;

/* What a harness's screen says it is doing. */
typedef enum hqt_status {
  HQT_STATUS_UNKNOWN = 0, /* the parser cannot tell; the host falls back to pane activity */
  HQT_STATUS_WORKING = 1, /* busy: generating, running tools */
  HQT_STATUS_WAITING = 2, /* asks the user something (approval, question) */
  HQT_STATUS_IDLE = 3     /* at its prompt, nothing to do */
} hqt_status;

/* Bind flags. A bind without HQT_BIND_FILE is a directory. */
#define HQT_BIND_FILE 1u     /* the path is a regular file, not a directory */
#define HQT_BIND_WRITABLE 2u /* bound read-write; otherwise read-only */
#define HQT_BIND_CREATE                                               \
  4u /* create it on the host when missing (a file is created as "{}" \
        when its name ends in .json, else empty; a directory empty) */

/* A host path exposed inside the sandbox at the same place. */
typedef struct hqt_bind {
  const char* path; /* may start with "~/" (the user's home); owned by the plugin */
  uint32_t flags;   /* HQT_BIND_* */
} hqt_bind;

/* Input to build_spawn_argv / build_resume_argv. Host-owned; valid for the call only. */
typedef struct hqt_argv_request {
  size_t struct_size;      /* sizeof(hqt_argv_request) as the host knows it */
  const char* project_dir; /* absolute, canonical */
  const char* session_id;  /* the harness's conversation id; "" when none is known */
  const char* model;       /* "" when none was chosen */
  bool sandboxed;          /* true: the command runs inside bwrap; add skip-permission flags */
} hqt_argv_request;

/* Input to capture_session_id. Host-owned; valid for the call only. */
typedef struct hqt_capture_request {
  size_t struct_size;
  const char* project_dir;      /* absolute, canonical */
  double started_at;            /* unix time (seconds) just before the harness was spawned */
  const char* const* taken_ids; /* NULL-terminated; ids other sessions already own */
  /* Since 1.1. NULL-terminated; the files the session's processes (the pane's process and its
   * descendants) hold open, as those processes name them; empty when none runs. The surest
   * sign of which conversation is the session's own. */
  const char* const* open_files;
} hqt_capture_request;

/* One harness. Plugin-owned: every pointer in it stays valid until the plugin's deinit. */
typedef struct hqt_harness {
  size_t struct_size;       /* sizeof(hqt_harness) as the plugin knows it */
  const char* name;         /* unique, [a-z0-9_-]+, e.g. "claude" */
  const char* display_name; /* e.g. "Claude Code" */
  const char* executable;   /* looked up on PATH, e.g. "claude" */
  bool captures_session_id; /* the id is only known after start: host calls capture_session_id */
  const char* const* skip_permission_flags; /* NULL-terminated; added only when sandboxed */
  const hqt_bind* binds;                    /* sandbox binds; `bind_count` entries */
  size_t bind_count;
  const char* const* sandbox_env; /* NULL-terminated env names passed into the sandbox */
  void* data;                     /* plugin-private */

  /* Writes the id the harness will be started with, or nothing when the harness assigns its own.
   * Returns false on failure. */
  bool (*generate_session_id)(const struct hqt_harness* self, hqt_sink* id);
  /* Writes argv (argv[0] first) for a new conversation. Returns false on failure. */
  bool (*build_spawn_argv)(const struct hqt_harness* self, const hqt_argv_request* request,
                           hqt_sink* argv);
  /* Writes argv that resumes `request->session_id`. Returns false when it cannot resume. */
  bool (*build_resume_argv)(const struct hqt_harness* self, const hqt_argv_request* request,
                            hqt_sink* argv);
  /* Reads the visible pane text (`length` bytes, not NUL-terminated). May be NULL. */
  hqt_status (*parse_status)(const struct hqt_harness* self, const char* text, size_t length);
  /* Writes the id of the conversation started at `request->started_at`, or nothing when it is
   * not there yet. Returns false on failure. May be NULL unless captures_session_id. */
  bool (*capture_session_id)(const struct hqt_harness* self, const hqt_capture_request* request,
                             hqt_sink* id);
} hqt_harness;

/* Interface "hqt.harnesses/1": the harnesses a plugin provides. Plugin-owned, static or valid
 * until deinit; each returned harness is valid until deinit. */
#define HQT_HARNESSES_V1 "hqt.harnesses/1"
typedef struct hqt_harnesses_v1 {
  size_t (*count)(void);
  const hqt_harness* (*get)(size_t index);
} hqt_harnesses_v1;

/* A command harness declared in the user's config file (for the generic plugin). Host-owned;
 * valid only during init: copy what you keep. */
typedef struct hqt_command_decl {
  size_t struct_size;
  const char* name;
  const char* display_name;                 /* "" when not configured */
  const char* const* command;               /* NULL-terminated argv, at least one entry */
  const char* const* skip_permission_flags; /* NULL-terminated */
  const hqt_bind* binds;
  size_t bind_count;
  const char* const* env; /* NULL-terminated */
} hqt_command_decl;

/* Host interface "hqt.host.commands/1": the configured command harnesses. */
#define HQT_HOST_COMMANDS_V1 "hqt.host.commands/1"
typedef struct hqt_host_commands_v1 {
  size_t count;
  const hqt_command_decl* decls; /* `count` entries */
} hqt_host_commands_v1;

/* What the host offers a plugin. Host-owned; valid only during init. */
typedef struct hqt_host {
  size_t struct_size;
  hqt_version abi; /* the host's ABI version */
  /* Returns a host interface by id, or NULL when the host has none by that name. */
  const void* (*get_interface)(const struct hqt_host* host, const char* id);
  void* ctx; /* host-private */
} hqt_host;

/* The one exported symbol. Static data of the plugin. */
typedef struct hqt_plugin_entry {
  hqt_version abi;     /* HQT_ABI_VERSION of the SDK the plugin was built with */
  const char* name;    /* plugin name, e.g. "claude"; static */
  const char* version; /* the plugin's own version text; static */
  /* Called once after loading. Returns false (writing a reason to `error`) to refuse; the host
   * then unloads the plugin without calling deinit. */
  bool (*init)(const hqt_host* host, hqt_sink* error);
  /* Called once before unloading. Everything the plugin handed out becomes invalid. */
  void (*deinit)(void);
  /* Returns an interface by id ("hqt.harnesses/1"), or NULL. */
  const void* (*get_interface)(const char* id);
} hqt_plugin_entry;

/* Defines the exported entry under the C identifier `var` (the symbol is still
 * `hqt_plugin_entry`; the type's name cannot also name a variable):
 *
 *   HQT_DEFINE_PLUGIN_ENTRY(my_entry) = {HQT_ABI_VERSION, "name", "0.1.0", init, deinit, get};
 */
#define HQT_DEFINE_PLUGIN_ENTRY(var)                                                    \
  extern HQT_PLUGIN_EXPORT const hqt_plugin_entry var __asm__(HQT_PLUGIN_ENTRY_SYMBOL); \
  const hqt_plugin_entry var

#ifdef __cplusplus
}
#endif

#endif /* HQT_PLUGIN_H */
