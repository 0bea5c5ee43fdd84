# Links Shoal's runtime the three ways a game does and checks each program prints the hash
# shoal-cli prints for the same level and steps:
#   1. find_package(Shoal) against `cmake --install` into a scratch prefix, the program built
#      -O3 -march=native, and again with -ffast-math for the game's own code; and the C
#      program on the C API (examples/minimal-c), a project with a C compiler only; with
#      -DSDL2_GAME=1, examples/sdl2-game too, run headless (SDL's dummy video driver) one
#      step per frame;
#   2. pkg-config (shoal.pc) from the same prefix, compiled by hand (the C program by the C
#      compiler, as strict C99);
#   3. add_subdirectory of the source tree by a parent project that sets no option of Shoal's:
#      it must configure without Qt and leave the parent's build type alone; the parent builds
#      shared libraries (BUILD_SHARED_LIBS), so this also checks the shared runtime and that
#      it exports the public API only (the C++ API and the C API's shoal_* functions).
# Usage: cmake -DBUILD_DIR= -DSOURCE_DIR= -DCLI= -DCXX= -DCC= -DGENERATOR= -DWORK_DIR=
#        [-DSDL2_GAME=1]
#        -P install_test.cmake
cmake_minimum_required(VERSION 3.21)
foreach(var BUILD_DIR SOURCE_DIR CLI CXX CC GENERATOR WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "pass -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
set(scene "${SOURCE_DIR}/resources/scenes/demo.json")
set(steps 300)
set(failures 0)

function(check_run label expected)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
  string(STRIP "${out}" out)
  if(NOT code EQUAL 0 OR NOT out STREQUAL expected)
    message(STATUS "FAIL: ${label}: exit ${code}, printed '${out}' (want '${expected}') ${err}")
    math(EXPR failures "${failures} + 1")
    set(failures ${failures} PARENT_SCOPE)
  else()
    message(STATUS "ok: ${label}: ${out}")
  endif()
endfunction()

function(must label)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${label} failed (exit ${code}):\n${out}\n${err}")
  endif()
  set(last_output "${out}${err}" PARENT_SCOPE)
endfunction()

# What the editor's runtime says: the reference.
execute_process(COMMAND "${CLI}" run "${scene}" --steps ${steps}
  OUTPUT_VARIABLE cli_out RESULT_VARIABLE code)
string(REGEX MATCH "hash: [0-9a-f]+" expected "${cli_out}")
if(NOT code EQUAL 0 OR NOT expected)
  message(FATAL_ERROR "shoal-cli run gave no hash (exit ${code}):\n${cli_out}")
endif()
message(STATUS "shoal-cli: ${expected}")

# 1. Installed, found with find_package, built with the game's flags.
must("cmake --install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
foreach(required include/shoal/world.h include/shoal/version.h include/shoal/export.h
                 include/shoal/shoal_c.h
                 lib/cmake/Shoal/ShoalConfig.cmake lib/cmake/Shoal/ShoalConfigVersion.cmake
                 lib/pkgconfig/shoal.pc)
  if(NOT EXISTS "${prefix}/${required}")
    message(STATUS "FAIL: the install has no ${required}")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
set(variants "native" "native-fast-math")
set(flags_native "-O3 -march=native")
set(flags_native-fast-math "-O3 -march=native -ffast-math")
foreach(variant ${variants})
  set(dir "${WORK_DIR}/minimal-${variant}")
  must("configure minimal (${variant})" "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/examples/minimal"
    -B "${dir}" -G "${GENERATOR}" -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix}
    "-DCMAKE_CXX_FLAGS=${flags_${variant}}")
  must("build minimal (${variant})" "${CMAKE_COMMAND}" --build "${dir}")
  check_run("find_package, ${flags_${variant}}" "${expected}" "${dir}/minimal" "${scene}" ${steps})
endforeach()
set(dir "${WORK_DIR}/minimal-c")
must("configure minimal-c" "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/examples/minimal-c" -B "${dir}"
  -G "${GENERATOR}" -DCMAKE_C_COMPILER=${CC} -DCMAKE_PREFIX_PATH=${prefix}
  "-DCMAKE_C_FLAGS=-O3 -march=native")
must("build minimal-c" "${CMAKE_COMMAND}" --build "${dir}")
check_run("find_package, C API, -O3 -march=native" "${expected}" "${dir}/minimal-c" "${scene}"
  ${steps})
if(SDL2_GAME)
  set(dir "${WORK_DIR}/sdl2-game")
  must("configure sdl2-game" "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/examples/sdl2-game" -B "${dir}"
    -G "${GENERATOR}" -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_TYPE=Release)
  must("build sdl2-game" "${CMAKE_COMMAND}" --build "${dir}")
  set(ENV{SDL_VIDEODRIVER} dummy)
  check_run("sdl2-game (find_package), headless, --fixed" "${expected}" "${dir}/sdl2-game"
    "${scene}" --frames ${steps} --fixed)
  unset(ENV{SDL_VIDEODRIVER})
endif()

# 2. pkg-config, compiled by hand.
find_program(PKG_CONFIG pkg-config)
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "pkg-config is missing (Debian: pkgconf); scripts/setup installs it")
endif()
set(ENV{PKG_CONFIG_PATH} "${prefix}/lib/pkgconfig")
must("pkg-config" "${PKG_CONFIG}" --cflags --libs shoal)
string(STRIP "${last_output}" pc_flags)
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
must("pkg-config build" "${CXX}" -std=c++17 -O3 -march=native
  "${SOURCE_DIR}/examples/minimal/main.cpp" -o "${WORK_DIR}/minimal-pc" ${pc_flags})
check_run("pkg-config, -O3 -march=native" "${expected}" "${WORK_DIR}/minimal-pc" "${scene}" ${steps})
must("pkg-config build (C)" "${CC}" -std=c99 -Wall -Wextra -pedantic -Werror -O3 -march=native
  "${SOURCE_DIR}/examples/minimal-c/main.c" -o "${WORK_DIR}/minimal-c-pc" ${pc_flags})
check_run("pkg-config, C API, C99" "${expected}" "${WORK_DIR}/minimal-c-pc" "${scene}" ${steps})

# 3. A parent project that adds the source tree and sets nothing.
set(parent "${WORK_DIR}/parent")
file(MAKE_DIRECTORY "${parent}")
file(WRITE "${parent}/CMakeLists.txt" "cmake_minimum_required(VERSION 3.21)
project(game LANGUAGES C CXX)
add_subdirectory(\"${SOURCE_DIR}\" shoal)
add_executable(game \"${SOURCE_DIR}/examples/minimal/main.cpp\")
target_link_libraries(game PRIVATE Shoal::core)
add_executable(game-c \"${SOURCE_DIR}/examples/minimal-c/main.c\")
target_link_libraries(game-c PRIVATE Shoal::core)
")
must("configure the parent" "${CMAKE_COMMAND}" -S "${parent}" -B "${parent}/build"
  -G "${GENERATOR}" -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_C_COMPILER=${CC}
  "-DCMAKE_CXX_FLAGS=-O2 -march=native" -DBUILD_SHARED_LIBS=ON)
file(STRINGS "${parent}/build/CMakeCache.txt" build_type REGEX "^CMAKE_BUILD_TYPE:")
file(STRINGS "${parent}/build/CMakeCache.txt" qt REGEX "^Qt6")
if(NOT build_type STREQUAL "CMAKE_BUILD_TYPE:STRING=" OR qt)
  message(STATUS "FAIL: the subproject changed the parent: '${build_type}', Qt: '${qt}'")
  math(EXPR failures "${failures} + 1")
else()
  message(STATUS "ok: add_subdirectory needs no Qt and leaves the build type alone")
endif()
must("build the parent" "${CMAKE_COMMAND}" --build "${parent}/build" --target game game-c)
check_run("add_subdirectory, shared, -O2 -march=native" "${expected}" "${parent}/build/game"
  "${scene}" ${steps})
check_run("add_subdirectory, shared, C API" "${expected}" "${parent}/build/game-c" "${scene}"
  ${steps})
file(GLOB_RECURSE shared "${parent}/build/libshoal.so")
find_program(NM nm)
if(NOT shared OR NOT NM)
  message(STATUS "FAIL: no shared libshoal.so in the parent's build ('${shared}') or no nm")
  math(EXPR failures "${failures} + 1")
else()
  # The public API is exported (World); the implementation is not (the body pass, the grid).
  must("nm" "${NM}" -D -C --defined-only "${shared}")
  string(FIND "${last_output}" "shoal::World::step" world_at)
  string(FIND "${last_output}" "shoal::BodyPass" pass_at)
  string(FIND "${last_output}" "shoal::UniformGrid" grid_at)
  if(world_at EQUAL -1 OR NOT pass_at EQUAL -1 OR NOT grid_at EQUAL -1)
    message(STATUS "FAIL: libshoal.so exports: World::step ${world_at}, BodyPass ${pass_at}, "
      "UniformGrid ${grid_at} (want the first only)")
    math(EXPR failures "${failures} + 1")
  else()
    message(STATUS "ok: libshoal.so exports the public API and hides the implementation")
  endif()
  # Of the C symbols (not C++-mangled), only the C API's: every one starts shoal_.
  must("nm" "${NM}" -D --defined-only --format=posix "${shared}")
  string(REPLACE "\n" ";" symbols "${last_output}")
  set(c_api 0)
  set(create_at -1)
  set(foreign "")
  foreach(symbol ${symbols})
    string(REGEX REPLACE " .*" "" name "${symbol}")
    if(name MATCHES "^shoal_")
      math(EXPR c_api "${c_api} + 1")
      if(name STREQUAL "shoal_world_create_from_file")
        set(create_at ${c_api})
      endif()
    elseif(name AND NOT name MATCHES "^_Z")
      list(APPEND foreign "${name}")
    endif()
  endforeach()
  if(create_at EQUAL -1 OR foreign)
    message(STATUS "FAIL: libshoal.so exports ${c_api} shoal_* C functions and other C "
      "symbols: '${foreign}'")
    math(EXPR failures "${failures} + 1")
  else()
    message(STATUS "ok: libshoal.so exports ${c_api} shoal_* C functions and no other C symbol")
  endif()
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} check(s) failed")
endif()
