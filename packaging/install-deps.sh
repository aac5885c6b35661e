#!/usr/bin/env bash
# Installs everything Kiln needs to build, test and run on Debian 12 (bookworm), with apt-get.
# Idempotent: when every package is already installed it changes nothing and takes a second.
# Run as root, or as a user with sudo.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git
  # engine: SQLite trace database, LLVM 19 for CPU codegen; the CPU math libraries (see
  # docs/compiler.md): oneDNN (float32/bf16 products), BLIS's OpenMP build (float64 products),
  # SLEEF (vectorised elementary functions)
  libsqlite3-dev llvm-19-dev libzstd-dev libedit-dev libffi-dev
  libdnnl-dev libblis-openmp-dev libsleef-dev
  # oneDNN's CMake package config looks for OpenCL (headers and the ICD loader) and fails the
  # configure without them; apt only recommends them, and --no-install-recommends skips them
  ocl-icd-opencl-dev opencl-c-headers
  # engine/import: the JSON of PyTorch structured-trace logs
  nlohmann-json3-dev
  # Kiln Studio and its tests: Qt 6 (Widgets, Svg, Charts, Test), Graphviz for graph diagrams
  qt6-base-dev qt6-svg-dev qt6-charts-dev libqt6opengl6-dev libgl-dev libxkbcommon-dev
  libgraphviz-dev graphviz
  # the fuzz preset (docs/fuzzing.md): clang with libFuzzer and the sanitizer runtimes
  clang libclang-rt-14-dev
  # screenshots of the GUI under a virtual display
  xvfb xauth imagemagick
  # packaging: the .deb (CPack runs dpkg-shlibdeps and file), and the install test's checks of the
  # .desktop file, the AppStream metainfo and the MIME type
  dpkg-dev file desktop-file-utils appstream shared-mime-info
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "install-deps: run as root or install sudo; missing: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "install-deps: done"
