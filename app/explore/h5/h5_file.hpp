// Small helpers over the HDF5 C API shared by the results and validation files: failures as
// exceptions, identifiers closed by RAII, UTF-8 variable-length strings, scalar attributes and
// 1-D tables of compound rows.
#pragma once

#include <hdf5.h>

#include <string>
#include <utility>
#include <vector>

namespace placesim::explore::h5 {

// Thrown by every failed HDF5 call; turned into an InputError naming the file.
struct H5Failure {
  std::string what;
};

inline hid_t check(hid_t id, const char* what) {
  if (id < 0) throw H5Failure{what};
  return id;
}

inline void check(herr_t status, const char* what) {
  if (status < 0) throw H5Failure{what};
}

// Owns one HDF5 identifier and closes it with the function of its kind.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t), const char* what) : id_(check(id, what)), close_(close) {}
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle& operator=(Handle&&) = delete;
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  operator hid_t() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

inline Handle string_type() {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
  check(H5Tset_size(t, H5T_VARIABLE), "string type");
  check(H5Tset_cset(t, H5T_CSET_UTF8), "string type");
  return t;
}

inline void write_string_attr(hid_t file, const char* name, const std::string& value) {
  Handle str = string_type();
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, name);
  Handle attr(H5Acreate2(file, name, str, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  const char* text = value.c_str();
  check(H5Awrite(attr, str, &text), name);
}

inline void write_int_attr(hid_t file, const char* name, int value) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, name);
  Handle attr(H5Acreate2(file, name, H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  check(H5Awrite(attr, H5T_NATIVE_INT, &value), name);
}

// A file built in memory (HDF5's core driver, nothing on disk) whose bytes image() returns: the
// program writes them (h5_calls.cpp, through file_io.hpp), so a full disk or the file size limit
// is a plain failed write there, never a failure inside HDF5 that leaves its state broken for
// the next file and for its teardown at exit.
class MemoryFile {
 public:
  MemoryFile() : access_(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access"), file_(create(access_), H5Fclose, "create") {}
  operator hid_t() const { return file_; }
  std::string image() const {
    check(H5Fflush(file_, H5F_SCOPE_GLOBAL), "flush");  // the metadata cache into the image
    const ssize_t size = H5Fget_file_image(file_, nullptr, 0);
    if (size < 0) throw H5Failure{"file image"};
    std::string bytes(static_cast<std::size_t>(size), '\0');
    if (H5Fget_file_image(file_, bytes.data(), bytes.size()) != size) throw H5Failure{"file image"};
    return bytes;
  }

 private:
  static hid_t create(hid_t access) {
    check(H5Pset_fapl_core(access, 1 << 20, false), "core driver");
    static int files = 0;  // a name of its own per file: HDF5 tells open files apart by name
    const std::string name = "placesim-memory-file-" + std::to_string(++files);
    return H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access);
  }
  Handle access_;
  Handle file_;
};

// Creation properties of datasets and groups without modification times, so that the same
// content gives the same bytes.
inline Handle untimed(hid_t cls) {
  Handle p(H5Pcreate(cls), H5Pclose, "creation properties");
  check(H5Pset_obj_track_times(p, false), "creation properties");
  return p;
}

// A 1-D dataset of `n` elements of memory type `mem` at `data`, stored in file type `file_type`.
inline void write_array(hid_t where, const char* name, hid_t file_type, hid_t mem, hsize_t n, const void* data) {
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose, name);
  Handle props = untimed(H5P_DATASET_CREATE);
  Handle set(H5Dcreate2(where, name, file_type, space, H5P_DEFAULT, props, H5P_DEFAULT), H5Dclose, name);
  if (n > 0) check(H5Dwrite(set, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), name);
}

// A 1-D dataset of `rows` in memory type `mem`, stored as its packed copy.
template <class Row>
void write_table(hid_t file, const char* name, hid_t mem, const std::vector<Row>& rows) {
  Handle file_type(H5Tcopy(mem), H5Tclose, name);
  check(H5Tpack(file_type), name);
  write_array(file, name, file_type, mem, rows.size(), rows.data());
}

// Root attributes every placesim file carries, to say what wrote it: schema_version,
// placesim_version, git_commit (the commit the build was configured at) and command (the
// command line that wrote it). Defined in h5_provenance.cpp, which the build gives the commit.
void write_provenance(hid_t file, int schema_version, const std::string& command);

}  // namespace placesim::explore::h5
