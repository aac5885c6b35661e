# kiln_target_defaults(<target>): the warning set and language level every Kiln target uses.
function(kiln_target_defaults target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-unused-parameter
                                           -Wno-missing-field-initializers)
  if(KILN_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# kiln_hot_code(<target>): kernels and the interpreter loop are built with -O3 in every
# optimised configuration; vectorisation of the eager kernels depends on it. The sanitizer
# preset turns KILN_HOT_CODE_O3 off: under ASan + UBSan, -O3 on the templated kernels takes
# GCC many minutes a file on two cores, and a sanitizer run is about checks, not speed.
option(KILN_HOT_CODE_O3 "Build kernels and the interpreter loop with -O3" ON)
function(kiln_hot_code target)
  if(KILN_HOT_CODE_O3)
    target_compile_options(${target} PRIVATE $<$<NOT:$<CONFIG:Debug>>:-O3>)
  endif()
endfunction()
