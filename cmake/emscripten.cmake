# The wasm presets' toolchain: Emscripten's own CMake toolchain file, found from the emcc on PATH
# (or from EMSCRIPTEN_ROOT_PATH, or the EMSCRIPTEN environment variable) instead of a fixed path.
# emcc is a symlink on Debian and a script inside the Emscripten folder elsewhere; either way its
# real location is the folder that holds cmake/Modules/Platform/Emscripten.cmake.
if(NOT EMSCRIPTEN_ROOT_PATH)
  if(DEFINED ENV{EMSCRIPTEN})
    set(EMSCRIPTEN_ROOT_PATH "$ENV{EMSCRIPTEN}")
  else()
    find_program(APG_EMCC emcc)
    if(NOT APG_EMCC)
      message(FATAL_ERROR "emcc not found: install emscripten (scripts/setup.sh) or set EMSCRIPTEN_ROOT_PATH")
    endif()
    file(REAL_PATH "${APG_EMCC}" apg_emcc_real)
    get_filename_component(EMSCRIPTEN_ROOT_PATH "${apg_emcc_real}" DIRECTORY)
  endif()
endif()
set(EMSCRIPTEN_ROOT_PATH "${EMSCRIPTEN_ROOT_PATH}" CACHE PATH "Emscripten's folder (holds emcc.py and cmake/)")

# Header-only packages (Eigen, doctest's CMake scripts) are the host's, outside the wasm sysroot.
if(NOT CMAKE_FIND_ROOT_PATH_MODE_PACKAGE)
  set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
endif()

include("${EMSCRIPTEN_ROOT_PATH}/cmake/Modules/Platform/Emscripten.cmake")
