#include "attnscope/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <utility>

#include "attnscope/errors.h"

namespace attnscope {
namespace fs = std::filesystem;
namespace {

// Where a path's last symbolic link points (the path itself when it is none). A dangling link
// resolves too: writing through it creates its target, as `echo > link` would.
fs::path through_links(const fs::path& path) {
  fs::path resolved = path;
  for (int hop = 0; hop < 40; ++hop) {  // the kernel's own limit on a chain of links
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(resolved, ec))) return resolved;
    const fs::path next = fs::read_symlink(resolved, ec);
    if (ec) return resolved;
    resolved = next.is_absolute() ? next : resolved.parent_path() / next;
  }
  return resolved;
}

fs::path folder_of(const fs::path& path) {
  return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";  // writing would wait for a reader, maybe forever
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// The checks both kinds of output share: the path names a regular file or nothing, in a folder
// that can be written, and none of the inputs.
void check_writable_file(const std::string& flag, const std::string& path,
                         const std::vector<std::string>& inputs) {
  if (path.empty()) ATTNSCOPE_THROW_INVALID_ARGUMENT(flag, ": the file name is empty");
  struct stat output {};
  const bool exists = ::stat(path.c_str(), &output) == 0;
  if (exists && !S_ISREG(output.st_mode))
    ATTNSCOPE_THROW_INVALID_ARGUMENT(flag, " '", path, "' is ", kind_of(output.st_mode),
                                     ", not a regular file");
  const fs::path folder = folder_of(through_links(path));
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    ATTNSCOPE_THROW_INVALID_ARGUMENT(flag, " '", path, "': the folder '", folder.string(),
                                     "' does not exist");
  // The temporary file goes into the folder, so the folder must take new files even when the
  // file itself exists.
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    ATTNSCOPE_THROW_INVALID_ARGUMENT(flag, " '", path, "': cannot write to the folder '",
                                     folder.string(), "': ", std::strerror(errno));
  if (exists) check_not_an_input(flag, path, inputs);
}

}  // namespace

void check_not_an_input(const std::string& flag, const std::string& path,
                        const std::vector<std::string>& inputs) {
  struct stat output {};
  if (is_standard_output(path) || ::stat(path.c_str(), &output) != 0) return;
  for (const std::string& input : inputs) {
    struct stat read {};
    const bool is_stdin = input == "-";
    if ((is_stdin ? ::fstat(STDIN_FILENO, &read) : ::stat(input.c_str(), &read)) != 0) continue;
    if (read.st_dev == output.st_dev && read.st_ino == output.st_ino)
      ATTNSCOPE_THROW_INVALID_ARGUMENT(
          flag, " '", path, "' is ",
          is_stdin ? std::string("the file standard input reads") : "the input '" + input + "'",
          ": writing it would destroy what the command reads; choose another file name");
  }
}

bool is_standard_output(const std::string& path) {
  return path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1";
}

void check_output_file(const std::string& flag, const std::string& path,
                       const std::vector<std::string>& inputs) {
  if (is_standard_output(path)) return;
  check_writable_file(flag, path, inputs);
}

void check_regular_output_file(const std::string& flag, const std::string& path,
                               const std::vector<std::string>& inputs) {
  if (is_standard_output(path))
    ATTNSCOPE_THROW_INVALID_ARGUMENT(flag, " '", path,
                                     "' is standard output: this output needs a file of its own");
  check_writable_file(flag, path, inputs);
}

OutputFile::OutputFile(std::string what, const std::string& path, bool to_standard_output)
    : what_(std::move(what)), path_(path) {
  if (to_standard_output && is_standard_output(path)) return;
  target_ = through_links(path).string();
  // Unique among this process's files (the counter) and every other process's (the pid).
  static std::atomic<unsigned> counter{0};
  const fs::path target(target_);
  temporary_ = (folder_of(target) / ("." + target.filename().string() + ".tmp." +
                                     std::to_string(::getpid()) + "." + std::to_string(++counter)))
                   .string();
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0) fail(errno);
  // A file written over keeps who may read it (a model shared read-only stays so).
  struct stat existing {};
  if (::stat(target_.c_str(), &existing) == 0) ::fchmod(fd_, existing.st_mode & 07777);
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!temporary_.empty() && !committed_) ::unlink(temporary_.c_str());
}

void OutputFile::fail(int error) const {
  ATTNSCOPE_THROW_RUNTIME_ERROR("cannot write ", what_, " '", path_, "': ", std::strerror(error));
}

void OutputFile::write(std::string_view bytes) {
  if (fd_ < 0) {
    std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!std::cout) fail(errno);
    return;
  }
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

void OutputFile::commit() {
  if (fd_ < 0) {
    std::cout.flush();
    if (!std::cout) fail(errno);
    return;
  }
  // The data reaches the disk before the name does, or a power cut could leave an empty file.
  if (::fsync(fd_) != 0) fail(errno);
  const int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0 || ::rename(temporary_.c_str(), target_.c_str()) != 0) fail(errno);
  committed_ = true;
  const int folder = ::open(folder_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder >= 0) {
    ::fsync(folder);  // best effort: the rename survives a power cut
    ::close(folder);
  }
}

}  // namespace attnscope
