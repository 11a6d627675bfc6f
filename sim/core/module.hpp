// Modules: the parts of placesim that need a heavy library (HDF5, COIN-OR CBC, ONNX and
// protobuf, Open MPI, CUDA) are shared objects of their own, libplacesim_NAME.so, loaded with
// dlopen the first time one of their functions is called. A program that links those libraries
// pays for loading them (and the dozens they pull in: HDF5 alone brings curl, GnuTLS and
// Kerberos) at every start, `placesim --help` included: 30 ms of which two thirds went to the
// dynamic loader's symbol lookups.
//
// A module exports one C function, `const void* placesim_module_NAME()`, returning a struct of
// function pointers (its API, declared in a header the program and the module share). The
// entry's type is the same for every module, as the loader calls it (UBSan's -fsanitize=function
// holds it to that). The module
// resolves the placesim functions it calls in the program that loads it, which exports them
// (placesim_program() in cmake/placesim_helpers.cmake), so both share one copy of
// placesim's state (the log level, the interrupt flag, progress).
//
// Where a module is looked for: beside the running executable (build/placesim's are in build/),
// in ../lib/placesim/ from it (an installed placesim: `cmake --install`), then in the build root
// this program was built in (tests and benchmarks run from build/tests/ and build/bench/).
#pragma once

#include <string>

// What a module's entry is declared with: the one symbol it exports, of type const void* ().
#define PLACESIM_MODULE_ENTRY extern "C" __attribute__((visibility("default")))

namespace placesim {

// The entry's answer, loaded once per module (later calls return the same pointer); nullptr when
// the module cannot be loaded, and then `why` says why (a module this build left out, a file
// missing, a symbol it cannot resolve).
const void* load_module(const std::string& name, std::string& why);

// Throws std::runtime_error naming the module and why it cannot be loaded: a broken build or
// installation, not the user's input.
[[noreturn]] void throw_module_error(const std::string& name, const std::string& why);

// The module's API, for modules every build has (their callers are not compiled without them).
template <class Api>
const Api& module_api(const std::string& name) {
  std::string why;
  const void* api = load_module(name, why);
  if (!api) throw_module_error(name, why);
  return *static_cast<const Api*>(api);
}

// What a module calls in the program that no caller of its API may refer to itself: each module's
// program side (its *_calls.cpp or solve.cpp) keeps their addresses in a [[gnu::used]] array,
// because the linker takes from placesim's static layers only what a program refers to, and a
// module missing one fails to load. (Functions of classes every such program uses, InputError,
// Graph, milp::Model, need no entry.)
template <class R, class... A>
const void* module_import(R (*f)(A...)) {
  return reinterpret_cast<const void*>(f);
}

}  // namespace placesim
