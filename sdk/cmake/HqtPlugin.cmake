# hqt_add_plugin(<name> SOURCES <files...> [LIBRARIES <libs...>] [OUTPUT_DIRECTORY <dir>]
#                [INSTALL_DIRECTORY <dir>] [NO_INSTALL])
#
# Builds a loadable hqt plugin "hqt-<name>.so": a MODULE library against hqt::sdk that exports
# only the `hqt_plugin_entry` symbol and links with -z defs (every symbol resolved at link time).
# It installs to INSTALL_DIRECTORY (default lib/hqt/plugins under the install prefix); point hqt at
# it with `plugin_dirs:` in the config, or install under ~/.local/lib/hqt/plugins.
set(_HQT_PLUGIN_MAP "${CMAKE_CURRENT_LIST_DIR}/hqt-plugin.map")

function(hqt_add_plugin name)
  cmake_parse_arguments(ARG "NO_INSTALL" "OUTPUT_DIRECTORY;INSTALL_DIRECTORY" "SOURCES;LIBRARIES"
                        ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "hqt_add_plugin(${name}): SOURCES is required")
  endif()
  set(target "hqt-plugin-${name}")
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE hqt::sdk ${ARG_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    OUTPUT_NAME "hqt-${name}"
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS "${_HQT_PLUGIN_MAP}")
  target_link_options(${target} PRIVATE "LINKER:--version-script=${_HQT_PLUGIN_MAP}"
                      "LINKER:-z,defs")
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}")
  endif()
  if(NOT ARG_NO_INSTALL)
    if(NOT ARG_INSTALL_DIRECTORY)
      set(ARG_INSTALL_DIRECTORY "lib/hqt/plugins")
    endif()
    install(TARGETS ${target} LIBRARY DESTINATION "${ARG_INSTALL_DIRECTORY}")
  endif()
endfunction()
