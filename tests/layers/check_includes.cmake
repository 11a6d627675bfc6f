# Compiles tests/layers/*.cpp as code of the hw layer, with that layer's include roots (ROOTS):
# downward_include.cpp must compile and upward_include.cpp must fail for want of the app/ header
# (gcc says "No such file", clang "file not found").
# Run by ctest (tests/CMakeLists.txt): cmake -DCXX=... -DROOTS=a;b -DDIR=... -P this file.
set(flags -std=c++20 -fsyntax-only)
foreach(root ${ROOTS})
  list(APPEND flags -I${root})
endforeach()
execute_process(COMMAND ${CXX} ${flags} ${DIR}/downward_include.cpp RESULT_VARIABLE down ERROR_VARIABLE down_err)
if(NOT down EQUAL 0)
  message(FATAL_ERROR "downward_include.cpp did not compile with the hw layer's roots:\n${down_err}")
endif()
execute_process(COMMAND ${CXX} ${flags} ${DIR}/upward_include.cpp RESULT_VARIABLE up ERROR_VARIABLE up_err)
if(up EQUAL 0)
  message(FATAL_ERROR "upward_include.cpp compiled: code of the hw layer can include app/")
endif()
if(NOT up_err MATCHES "app/explore/scenario.hpp.*(No such file|file not found)")
  message(FATAL_ERROR "upward_include.cpp failed, but not for want of app/explore/scenario.hpp:\n${up_err}")
endif()
message(STATUS "hw code compiles against its own layer and the ground, and cannot include app/")
