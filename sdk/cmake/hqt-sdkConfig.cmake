# find_package(hqt-sdk) gives the target hqt::sdk and the function hqt_add_plugin().
include("${CMAKE_CURRENT_LIST_DIR}/hqt-sdk-targets.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/HqtPlugin.cmake")
