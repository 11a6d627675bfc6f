// _placesim, the native half of the Python module (python/placesim/__init__.py is the other): a
// subcommand of the program run in this process with the words it would get on the command line
// and --json, answering the JSON document it would print. One code path for both front ends, so
// a Python call and the command it records in a results file give the same records.
#include <dlfcn.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "app/cli/command.hpp"
#include "app/cli/run_to_file.hpp"
#include "sim/core/error.hpp"
#include "app/explore/report.hpp"
#include "app/explore/results_h5.hpp"

namespace py = pybind11;
using namespace placesim;

namespace {

// `placesim NAME ARGS... --json`; the document as JSON text (json.loads in __init__.py). The
// interpreter's other threads run meanwhile.
std::string call(const std::string& name, std::vector<std::string> args) {
  args.push_back("--json");
  cli::JsonCapture capture;
  {
    py::gil_scoped_release free_interpreter;
    cli::command_named(name).main(args);
  }
  if (!capture.captured())
    throw std::invalid_argument(fmt::format("placesim {} printed no JSON document (was --help given?)", name));
  return capture.document().dump();
}

// A results file's runs, as `placesim run --json` prints them (placement times included).
std::string results(const std::string& path) {
  explore::RunSet set;
  {
    py::gil_scoped_release free_interpreter;
    set = explore::read_results_h5(path);
  }
  return explore::runs_to_json(set, true).dump();
}

// The modules placesim loads (libplacesim_milp.so, ...) resolve placesim's functions in the code
// that loads them (sim/core/module.hpp). Python opens this library with RTLD_LOCAL, which hides
// them: opening it again with RTLD_GLOBAL makes them visible to the modules.
void make_symbols_global() {
  Dl_info self{};
  if (!dladdr(reinterpret_cast<const void*>(&make_symbols_global), &self) || !self.dli_fname)
    throw std::runtime_error("placesim: cannot find the module's own file (dladdr)");
  if (!dlopen(self.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD))
    throw std::runtime_error(fmt::format("placesim: cannot reopen {}: {}", self.dli_fname, dlerror()));
}

}  // namespace

PYBIND11_MODULE(_placesim, m) {
  make_symbols_global();
  m.doc() = "placesim's subcommands in this process (use the package placesim, not this module)";
  m.attr("version") = PLACESIM_VERSION_STRING;
  // Bad input (a scenario's file:line:column and what was expected): what exits 2 on the command line.
  static py::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      input_error(e.what());
    } catch (const OutputError& e) {  // a full disk: the results file keeps what was written
      PyErr_SetString(PyExc_OSError, e.what());
    } catch (const cli::Interrupted& e) {  // Ctrl-C during a sweep: the file is whole and resumable
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    }
  });
  m.def("call", &call, py::arg("command"), py::arg("args"),
        "placesim COMMAND ARGS... --json in this process; the JSON document as text");
  m.def("results", &results, py::arg("path"), "a results file's runs as JSON text, as run --json prints them");
}
