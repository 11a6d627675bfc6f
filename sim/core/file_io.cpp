#include "sim/core/file_io.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <streambuf>
#include <iterator>
#include <memory>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "sim/core/error.hpp"

namespace placesim {

namespace fs = std::filesystem;

std::string read_input_file(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(SourceLoc{path}, "is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path}, std::string("cannot open file (") + std::strerror(errno) + ")");
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

namespace {

// Only a regular file is replaced: a rename over a device, a FIFO or (through a symlink) any
// other special file would put a regular file in its place (`-o /dev/null` as root).
bool special_file(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  return !ec && fs::exists(st) && !fs::is_regular_file(st);
}

[[noreturn]] void refuse_special_file(const std::string& path) {
  throw InputError(SourceLoc{path}, "is not a regular file: placesim writes only to a new path or over a regular file");
}

}  // namespace

void check_writable(const std::string& path) {
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (special_file(path)) refuse_special_file(path);
  const std::string tmp = temp_path_for(path);
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw InputError(SourceLoc{path}, std::string("cannot write file: ") + std::strerror(errno));
  std::fclose(f);
  fs::remove(tmp, ec);
}

void remove_stale_temps(const std::string& path) {
  const fs::path p(path);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  const std::string prefix = p.filename().string() + ".tmp-";
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string pid = name.substr(prefix.size());
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos || pid.size() > 9) continue;
    if (::kill(static_cast<pid_t>(std::stol(pid)), 0) != 0 && errno == ESRCH) fs::remove(e.path(), ec);
  }
}

void commit_temp_file(const std::string& tmp, const std::string& path) {
  std::error_code ec, ignored;
  if (special_file(path)) {
    fs::remove(tmp, ignored);
    refuse_special_file(path);
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    const std::string why = ec.message();  // before remove() can overwrite it
    fs::remove(tmp, ignored);
    throw InputError(SourceLoc{path}, "cannot write file: " + why);
  }
}

namespace {

// An ostream's buffer over a file descriptor that keeps the errno of the first write(2) that
// failed: std::ofstream loses it, and "No space left on device" or "File too large" is what a
// user needs to read.
class FdBuf final : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    while (p < pptr() && !error_) {
      const ssize_t n = ::write(fd_, p, static_cast<size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) error_ = n < 0 ? errno : EIO;
      else p += n;
    }
    setp(buf_, buf_ + sizeof buf_);
    return !error_;
  }

  int fd_;
  int error_ = 0;
  char buf_[1 << 16];
};

}  // namespace

struct AtomicFile::Impl {
  std::string path, tmp;
  int fd = -1;
  FdBuf buf;
  std::ostream out;
  bool done = false;
  Impl(std::string p, std::string t, int f) : path(std::move(p)), tmp(std::move(t)), fd(f), buf(f), out(&buf) {}
};

AtomicFile::AtomicFile(const std::string& path) {
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  // Refused now as well as at commit(): a trace streamed to /dev/null would otherwise be
  // refused only once its run is over.
  if (special_file(path)) refuse_special_file(path);
  remove_stale_temps(path);
  std::string tmp = temp_path_for(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw InputError(SourceLoc{path}, std::string("cannot write file: ") + std::strerror(errno));
  impl_ = std::make_unique<Impl>(path, std::move(tmp), fd);
}

AtomicFile::~AtomicFile() {
  if (impl_->done) return;
  ::close(impl_->fd);
  std::error_code ec;
  fs::remove(impl_->tmp, ec);
}

std::ostream& AtomicFile::out() { return impl_->out; }

void AtomicFile::commit() {
  Impl& f = *impl_;
  f.done = true;
  std::error_code ec;
  // A write the device refused (ENOSPC, EFBIG past `ulimit -f`, EIO) is kept by the buffer; a
  // close can still report one (NFS).
  f.out.flush();
  int why = f.buf.error();
  if (::close(f.fd) != 0 && !why) why = errno;
  if (why || !f.out) {
    fs::remove(f.tmp, ec);
    throw OutputError(fmt::format("cannot write {}: {}{}", f.path, std::strerror(why ? why : EIO),
                                  fs::exists(f.path, ec) ? " (the file there is left as it was)" : ""));
  }
  commit_temp_file(f.tmp, f.path);
}

void write_file_atomic(const std::string& path, const std::function<void(std::ostream&)>& write) {
  AtomicFile file(path);
  write(file.out());  // a throw leaves the temporary file to the destructor, which removes it
  file.commit();
}

void write_file_atomic(const std::string& path, const std::string& text) {
  write_file_atomic(path, [&](std::ostream& o) { o << text; });
}

}  // namespace placesim
