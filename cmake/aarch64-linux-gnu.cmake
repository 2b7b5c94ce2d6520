# Cross build for 64-bit Arm Linux (the native-arm64 preset): GCC's aarch64-linux-gnu cross
# compiler (Debian: g++-aarch64-linux-gnu), with ctest running the programs under qemu user mode
# (Debian: qemu-user), so the doctest suite runs on an x86 host. On an Arm host the plain native
# preset needs none of this.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

find_program(APG_AARCH64_CXX NAMES aarch64-linux-gnu-g++)
if(NOT APG_AARCH64_CXX)
  message(FATAL_ERROR "aarch64-linux-gnu-g++ not found (Debian: g++-aarch64-linux-gnu)")
endif()
set(CMAKE_CXX_COMPILER "${APG_AARCH64_CXX}")

# The target's C library (the dynamic loader and libstdc++ that qemu needs) lies where the cross
# compiler finds its libc.so.6: <prefix>/aarch64-linux-gnu/lib.
execute_process(COMMAND "${APG_AARCH64_CXX}" -print-file-name=libc.so.6 OUTPUT_VARIABLE apg_libc
  OUTPUT_STRIP_TRAILING_WHITESPACE)
file(REAL_PATH "${apg_libc}" apg_libc)
get_filename_component(apg_libdir "${apg_libc}" DIRECTORY)
get_filename_component(APG_AARCH64_SYSROOT "${apg_libdir}" DIRECTORY)
set(APG_AARCH64_SYSROOT "${APG_AARCH64_SYSROOT}" CACHE PATH "The aarch64 libraries' prefix (qemu -L)")

if(NOT DEFINED CMAKE_CROSSCOMPILING_EMULATOR)
  find_program(APG_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
  if(APG_QEMU_AARCH64)
    set(CMAKE_CROSSCOMPILING_EMULATOR "${APG_QEMU_AARCH64};-L;${APG_AARCH64_SYSROOT}" CACHE STRING
      "How to run an aarch64 test program")
  endif()
endif()

# Libraries come from the target's prefix only; header-only packages (Eigen, doctest's CMake
# scripts) and programs are the host's.
set(CMAKE_FIND_ROOT_PATH "${APG_AARCH64_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
