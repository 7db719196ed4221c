#!/usr/bin/env bash
# Checks that every C++ file in the repository is laid out as .clang-format says (Google style,
# 100 columns), with Debian's clang-format. Lists the files that are not; `clang-format -i FILE`
# fixes one.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "clang-format is not installed" >&2; exit 2; }
status=0
while IFS= read -r file; do
  if ! clang-format --dry-run --Werror "$file" >/dev/null 2>&1; then
    echo "not formatted: $file"
    status=1
  fi
done < <(git ls-files '*.cpp' '*.h')
[ $status -eq 0 ] && echo "clang-format: every C++ file is formatted ($(clang-format --version))"
exit $status
