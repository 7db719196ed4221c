#pragma once
// Where a command writes a file. Checked before any work (so a bad path fails in a second, not
// after an hour of training), never over one of the command's own inputs however its path is
// spelled, and written atomically: readers see the old file or the whole new one, never half.
#include <string>
#include <string_view>
#include <vector>

namespace attnscope {

/// "-" and the names Linux gives standard output ("/dev/stdout", "/dev/fd/1",
/// "/proc/self/fd/1"): a legitimate place for an output, written as a stream.
bool is_standard_output(const std::string& path);

/// Throws std::invalid_argument("FLAG 'PATH': problem") when PATH cannot take an output: empty,
/// a folder, an existing file that is not a regular file (a FIFO would block forever, a device
/// would be replaced), a folder that does not exist or cannot be written, or the same file as
/// one of `inputs` (compared by device and inode, so links and other spellings count; "-" among
/// the inputs stands for standard input). Standard output passes.
void check_output_file(const std::string& flag, const std::string& path,
                       const std::vector<std::string>& inputs = {});

/// As check_output_file(), for outputs that must be a file of their own: a model, or a file that
/// grows while a command runs (training snapshots). Standard output is refused too.
void check_regular_output_file(const std::string& flag, const std::string& path,
                               const std::vector<std::string>& inputs = {});

/// Throws std::invalid_argument("FLAG 'PATH' is the input 'INPUT': ...") when PATH exists and is
/// the same file as one of `inputs` (by device and inode; "-" stands for standard input).
void check_not_an_input(const std::string& flag, const std::string& path,
                        const std::vector<std::string>& inputs);

/// A file written through a temporary file in the target's folder and renamed over the target
/// by commit(). A symbolic link keeps pointing where it did (its target is replaced), and an
/// existing file keeps its permissions. Destroyed without commit(), it leaves the target as it
/// was. With `to_standard_output` and a name of standard output (is_standard_output()) it writes
/// to std::cout and commit() flushes; without, "-" is a file of that name.
class OutputFile {
 public:
  /// `what` names the output in messages: "cannot write WHAT 'PATH': No space left on device".
  /// Check the path first (check_output_file).
  OutputFile(std::string what, const std::string& path, bool to_standard_output = false);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Throws std::runtime_error naming the output and the system's reason.
  void write(std::string_view bytes);
  /// Syncs the data to disk and puts the file in place.
  void commit();

 private:
  [[noreturn]] void fail(int error) const;
  std::string what_, path_, target_, temporary_;
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace attnscope
