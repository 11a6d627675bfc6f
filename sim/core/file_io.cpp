#include "sim/core/file_io.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

#include "sim/core/error.hpp"

namespace placesim {

namespace fs = std::filesystem;

std::string read_input_file(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(SourceLoc{path}, "is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path}, "cannot open file");
  std::string text;
  // One read of the whole file where its size is known (a 400 MB graph), else a stream (a pipe).
  in.seekg(0, std::ios::end);
  const std::streamoff size = in ? std::streamoff(in.tellg()) : -1;
  if (size >= 0) {
    text.resize(static_cast<size_t>(size));
    in.seekg(0);
    in.read(text.data(), size);
    text.resize(static_cast<size_t>(in.gcount()));
  } else {
    in.clear();
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (in.bad()) throw InputError(SourceLoc{path}, "cannot read file");
  return text;
}

std::string file_safe_name(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return out;
}

std::string temp_path_for(const std::string& path) {
  if (path.empty()) throw InputError("an output path is empty (-o ''): name the file to write");
  return path + ".tmp-" + std::to_string(::getpid());
}

void check_writable(const std::string& path) {
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  const fs::file_status st = fs::status(path, ec);
  if (!ec && fs::exists(st) && !fs::is_regular_file(st))
    throw InputError(SourceLoc{path}, "is not a regular file: placesim writes only to a new path or over a regular file");
  const std::string tmp = temp_path_for(path);
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw InputError(SourceLoc{path}, std::string("cannot write file: ") + std::strerror(errno));
  std::fclose(f);
  fs::remove(tmp, ec);
}

void commit_temp_file(const std::string& tmp, const std::string& path) {
  std::error_code ec, ignored;
  // Only a regular file is replaced: a rename over a device, a FIFO or (through a symlink) any
  // other special file would put a regular file in its place (`-o /dev/null` as root).
  const fs::file_status st = fs::status(path, ec);
  if (!ec && fs::exists(st) && !fs::is_regular_file(st)) {
    fs::remove(tmp, ignored);
    throw InputError(SourceLoc{path}, "is not a regular file: placesim writes only to a new path or over a regular file");
  }
  ec.clear();
  fs::rename(tmp, path, ec);
  if (ec) {
    const std::string why = ec.message();  // before remove() can overwrite it
    fs::remove(tmp, ignored);
    throw InputError(SourceLoc{path}, "cannot write file: " + why);
  }
}

void write_file_atomic(const std::string& path, const std::function<void(std::ostream&)>& write) {
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  const std::string tmp = temp_path_for(path);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(SourceLoc{path}, "cannot write file (is the directory writable?)");
    try {
      write(out);
    } catch (...) {
      out.close();
      fs::remove(tmp, ec);
      throw;
    }
    out.flush();
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      throw InputError(SourceLoc{path}, "cannot write file (disk full?)");
    }
  }
  commit_temp_file(tmp, path);
}

void write_file_atomic(const std::string& path, const std::string& text) {
  write_file_atomic(path, [&](std::ostream& o) { o << text; });
}

}  // namespace placesim
