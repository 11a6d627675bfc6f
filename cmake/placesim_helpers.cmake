# placesim_library(NAME DIR DEPS ...): one static library per layer, built from every .cpp
# under DIR (excluding EXCLUDE globs), with a namespaced alias (placesim::NAME) and the
# repository root as include root. Layers link only downwards (DESIGN.md "Layout").
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

# placesim_loads_cuda(TARGET): a program that may load the CUDA module (hw/backend/cuda_api.hpp)
# exports its symbols, which the module calls, and has the module built with it.
function(placesim_loads_cuda target)
  if(TARGET placesim_cuda)
    set_target_properties(${target} PROPERTIES ENABLE_EXPORTS ON)
    add_dependencies(${target} placesim_cuda)
  endif()
endfunction()
