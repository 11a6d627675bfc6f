# The layers, lowest first (docs/architecture.md): each top folder is one, and each has an include
# root of its own, build/include/<layer>/, holding only a link to that folder. A layer's code is
# compiled with its own root and those below it, so that it includes "hw/topology.hpp" as written
# everywhere, while an include of a higher layer's header finds no file.
set(PLACESIM_LAYERS sim hw models scheduler backend app)
foreach(layer ${PLACESIM_LAYERS})
  file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/include/${layer})
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${layer} ${PROJECT_BINARY_DIR}/include/${layer}/${layer} SYMBOLIC)
endforeach()

# Tests (and the benchmark that shares their SimGrid peer) include their helpers as "tests/...":
# a root of their own that holds only tests/.
set(PLACESIM_TESTS_ROOT ${PROJECT_BINARY_DIR}/include/tests)
file(MAKE_DIRECTORY ${PLACESIM_TESTS_ROOT})
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/tests ${PLACESIM_TESTS_ROOT}/tests SYMBOLIC)

# placesim_layer_roots(OUT PATH): the include roots of the code under PATH (a folder or file of a
# layer): that layer's and every lower one's, and the generated headers.
function(placesim_layer_roots out path)
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${path})
  string(REGEX MATCH "^[^/]+" layer "${rel}")
  list(FIND PLACESIM_LAYERS "${layer}" top)
  if(top LESS 0)
    message(FATAL_ERROR "${path} is in no layer (${PLACESIM_LAYERS})")
  endif()
  set(roots ${PROJECT_BINARY_DIR}/generated)
  foreach(i RANGE ${top})
    list(GET PLACESIM_LAYERS ${i} below)
    list(APPEND roots ${PROJECT_BINARY_DIR}/include/${below})
  endforeach()
  set(${out} ${roots} PARENT_SCOPE)
endfunction()

# placesim_library(NAME DIR DEPS ...): one static library per part of a layer, built from every
# .cpp under DIR (excluding EXCLUDE globs) and SOURCES, with a namespaced alias (placesim::NAME)
# and the include roots of its layer (placesim_layer_roots). Layers link only downwards.
function(placesim_library name)
  cmake_parse_arguments(ARG "" "DIR" "SOURCES;DEPS;EXCLUDE" ${ARGN})
  set(srcs ${ARG_SOURCES})
  if(ARG_DIR)
    file(GLOB_RECURSE found CONFIGURE_DEPENDS ${ARG_DIR}/*.cpp)
    foreach(ex ${ARG_EXCLUDE})
      list(FILTER found EXCLUDE REGEX "${ex}")
    endforeach()
    list(APPEND srcs ${found})
  endif()
  add_library(placesim_${name} STATIC ${srcs})
  add_library(placesim::${name} ALIAS placesim_${name})
  placesim_layer_roots(roots ${CMAKE_CURRENT_SOURCE_DIR})
  target_include_directories(placesim_${name} PUBLIC ${roots})
  target_link_libraries(placesim_${name} PUBLIC ${ARG_DEPS})
endfunction()

# placesim_module(NAME SOURCES ... DEPS ...): libplacesim_NAME.so in the build root, the part of
# placesim that needs a heavy library (DEPS), loaded with dlopen on first use (sim/core/module.hpp).
# It is compiled against placesim's headers but links none of its layers: it calls the ones of
# the program that loads it (placesim_program). Only its entry, placesim_module_NAME, is
# exported (hidden visibility), so its own functions never stand in for the program's.
function(placesim_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(placesim_${name} MODULE ${ARG_SOURCES})
  placesim_layer_roots(roots ${CMAKE_CURRENT_SOURCE_DIR})
  target_include_directories(placesim_${name} PRIVATE ${roots})
  target_link_libraries(placesim_${name} PRIVATE ${ARG_DEPS})
  set_target_properties(placesim_${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}
    CXX_VISIBILITY_PRESET hidden CUDA_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  set_property(GLOBAL APPEND PROPERTY PLACESIM_MODULES placesim_${name})
  install(TARGETS placesim_${name} LIBRARY DESTINATION lib/placesim)
endfunction()

# placesim_program(TARGET): what every placesim program (the CLI, tests, benchmarks, fuzz
# targets) has. It may load modules: it exports its symbols, which the modules call, and has the
# modules built with it. Called after every module is declared (tests/ and bench/ come last). A
# module calls only what every program that calls it links anyway (the layer that declares its
# API and the ones below: loading it checks, RTLD_NOW). Its operator new asks for huge pages for
# large arrays (sim/core/huge_pages.cpp), except under the sanitizers, which bring their own.
function(placesim_program target)
  if(NOT PLACESIM_SANITIZE AND NOT PLACESIM_FUZZ)
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/sim/core/huge_pages.cpp)
    target_compile_definitions(${target} PRIVATE PLACESIM_HUGE_PAGES=1)  # tests/sim/core/huge_pages_test.cpp
  endif()
  set_target_properties(${target} PROPERTIES ENABLE_EXPORTS ON)
  get_property(modules GLOBAL PROPERTY PLACESIM_MODULES)
  if(modules)
    add_dependencies(${target} ${modules})
  endif()
endfunction()
