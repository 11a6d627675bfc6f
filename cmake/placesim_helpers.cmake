# placesim_library(NAME DIR DEPS ...): one static library per layer, built from every .cpp
# under DIR (excluding EXCLUDE globs), with a namespaced alias (placesim::NAME) and the
# repository root as include root. Layers link only downwards (README.md, "Layout").
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
  target_include_directories(placesim_${name} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated)
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
  target_include_directories(placesim_${name} PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated)
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
    target_compile_definitions(${target} PRIVATE PLACESIM_HUGE_PAGES=1)  # tests/core/huge_pages_test.cpp
  endif()
  set_target_properties(${target} PROPERTIES ENABLE_EXPORTS ON)
  get_property(modules GLOBAL PROPERTY PLACESIM_MODULES)
  if(modules)
    add_dependencies(${target} ${modules})
  endif()
endfunction()
