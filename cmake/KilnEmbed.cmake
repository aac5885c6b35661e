# kiln_embed_python(<target> OUTPUT <cpp> MODULES <name> <file> [<name> <file> ...])
# Generates a C++ source that holds the given Python files as string literals, so bundled
# library modules (torch.nn, ...) ship inside the binary. Re-runs when a file changes.
function(kiln_embed_python target)
  cmake_parse_arguments(ARG "" "OUTPUT" "MODULES" ${ARGN})
  set(files)
  set(args)
  list(LENGTH ARG_MODULES count)
  math(EXPR last "${count} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET ARG_MODULES ${i} name)
    list(GET ARG_MODULES ${j} file)
    list(APPEND files ${file})
    list(APPEND args "${name}=${file}")
  endforeach()
  string(REPLACE ";" "|" joined "${args}")
  add_custom_command(
    OUTPUT ${ARG_OUTPUT}
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${ARG_OUTPUT}" "-DMODULES=${joined}"
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_sources.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/embed_sources.cmake
    COMMENT "Embedding bundled Python modules"
    VERBATIM)
  target_sources(${target} PRIVATE ${ARG_OUTPUT})
endfunction()
