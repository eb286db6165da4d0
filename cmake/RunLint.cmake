# Lint gate run by CTest: clang-format (all C++ sources) and clang-tidy (core/ and app/cli/, using
# the build's compile_commands.json). Usage:
#   cmake -DSOURCE_DIR=... -DBUILD_DIR=... -DTOOL=format|tidy -P RunLint.cmake
file(GLOB_RECURSE _all RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/core/*.cpp ${SOURCE_DIR}/core/*.h ${SOURCE_DIR}/core/*.cu
     ${SOURCE_DIR}/gui/*.cpp ${SOURCE_DIR}/gui/*.h ${SOURCE_DIR}/app/*.cpp ${SOURCE_DIR}/app/*.h
     ${SOURCE_DIR}/plugins/*.cpp ${SOURCE_DIR}/plugins/*.h
     ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/tests/*.h ${SOURCE_DIR}/tests/*.cu)

if(TOOL STREQUAL "format")
  find_program(_fmt NAMES clang-format clang-format-14)
  if(NOT _fmt)
    message("SKIPPED: clang-format not installed")
    return()
  endif()
  execute_process(COMMAND ${_fmt} --dry-run -Werror ${_all} WORKING_DIRECTORY ${SOURCE_DIR}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "clang-format: files above are not formatted (run clang-format -i)")
  endif()
elseif(TOOL STREQUAL "tidy")
  find_program(_tidy NAMES clang-tidy clang-tidy-14)
  if(NOT _tidy)
    message("SKIPPED: clang-tidy not installed")
    return()
  endif()
  set(_candidates ${_all})
  list(FILTER _candidates INCLUDE REGEX "^(core|app/cli)/.*\\.cpp$")
  # PART a/b splits the files in two halves so CTest can run them on two cores.
  set(_units)
  set(_i 0)
  foreach(_f ${_candidates})
    math(EXPR _odd "${_i} % 2")
    if(NOT PART OR (PART STREQUAL "a" AND _odd EQUAL 0) OR (PART STREQUAL "b" AND _odd EQUAL 1))
      list(APPEND _units ${_f})
    endif()
    math(EXPR _i "${_i} + 1")
  endforeach()
  # GCC's precompiled headers are no PCH to clang: lint from a copy of the compile commands
  # without them (one copy per part, as the parts run at once).
  file(READ ${BUILD_DIR}/compile_commands.json _commands)
  string(REGEX REPLACE "-Winvalid-pch|-include [^ ]*cmake_pch\\.hxx" "" _commands "${_commands}")
  set(_lint_dir ${BUILD_DIR}/lint-${PART})
  file(WRITE ${_lint_dir}/compile_commands.json "${_commands}")
  execute_process(COMMAND ${_tidy} -p ${_lint_dir} --quiet ${_units}
                  WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "clang-tidy reported problems (see above)")
  endif()
else()
  message(FATAL_ERROR "TOOL must be format or tidy")
endif()
