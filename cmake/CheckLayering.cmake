# The include rules of docs/architecture.md, checked over the sources (a CTest: `layering`).
# Run as: cmake -DSOURCE_DIR=<repo> -P cmake/CheckLayering.cmake
#
# Linking catches most wrong-way dependencies, but not a header-only include; these rules are
# the ones the house keeps by hand: the compiler layers never see the torch bindings (they read
# the configuration through support/compile_config.h), and the engine never sees Qt.
set(violations "")
function(forbid dirs pattern why)
  foreach(dir IN LISTS dirs)
    file(GLOB_RECURSE files "${SOURCE_DIR}/${dir}/*.h" "${SOURCE_DIR}/${dir}/*.cpp")
    foreach(file IN LISTS files)
      file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]${pattern}")
      foreach(line IN LISTS lines)
        file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
        list(APPEND violations "${rel}: ${line} (${why})")
      endforeach()
    endforeach()
  endforeach()
  set(violations "${violations}" PARENT_SCOPE)
endfunction()

forbid("engine/capture;engine/compiler;engine/inductor;engine/codegen" "torchapi/"
       "the compiler layers read options through support/, torchapi binds them for scripts")
forbid("engine/import" "(torchapi|capture|compiler|inductor|codegen|lang|api)/"
       "an imported run is read from a log, never run: import/ sees only support/ and trace/")
forbid("engine" "Q[A-Za-z]+" "the engine has no Qt")
forbid("engine" "(app|views|bench)/" "the engine includes only engine layers")
forbid("app;views" "(\\.\\./)*bench/"
       "front ends use engine/api (kiln bench's measuring code is api/compiler_bench)")

if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "include rules broken:\n  ${text}")
endif()
message(STATUS "include rules hold")
