#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: installs the packages, builds, then
#   ./build.sh run [SENTENCE]   starts attnscope (the desktop app) with the shipped models
#   ./build.sh test             runs the whole test suite
#   ./build.sh build            only builds
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-run}
shift || true

packages=(
  cmake ninja-build g++ pkg-config
  libtorch-dev libopenblas0-openmp   # OpenBLAS: without it libtorch falls back to reference BLAS, ~10x slower
  nlohmann-json3-dev libcli11-dev libicu-dev zlib1g-dev
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev
  googletest libgtest-dev
  xvfb xauth xdotool imagemagick     # the GUI tests drive a real window on a virtual display
)

install_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

build() {
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build
}

install_packages
build
case "$mode" in
  build) ;;
  test)
    ctest --test-dir build --output-on-failure -j1
    ;;
  run)
    if [ -x build/app/attnscope ]; then
      exec build/app/attnscope "$@"
    fi
    exec build/app/attnscope-cli translate --score additive "${@:-A little girl climbing into a wooden playhouse.}"
    ;;
  *)
    echo "usage: $0 [run [SENTENCE] | test | build]" >&2
    exit 2
    ;;
esac
