# tst_install: `cmake --install` of the build tree into a scratch prefix, then checks of what landed
# there. CTest runs it (label e2e) as
#   cmake -DKILN_SOURCE_DIR=... -DKILN_BINARY_DIR=... -DKILN_VERSION=... -DDESKTOP_FILE_VALIDATE=...
#         -DAPPSTREAMCLI=... -DUPDATE_MIME_DATABASE=... -P tst_install.cmake
# It checks that:
#  - the install succeeds and bin/ holds exactly kiln and kiln-studio (no tests, no benchmarks);
#  - the .desktop file, AppStream metainfo, icon, MIME XML, every example workload of
#    resources/workloads/ and the docs are where packaging/CMakeLists.txt puts them;
#  - desktop-file-validate (no output at all) and `appstreamcli validate --no-net --strict` and
#    `validate-tree` accept the installed files, the metainfo's release is the project's version,
#    and update-mime-database maps *.kiln to application/x-kiln-trace;
#  - the installed kiln runs the installed demo workload: exit 0, one run recorded with status ok.
# The scratch directory (build/tests/tst_install) is removed when every check passes.
cmake_minimum_required(VERSION 3.21)

foreach(var KILN_SOURCE_DIR KILN_BINARY_DIR KILN_VERSION)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "tst_install: -D${var}=... is required")
  endif()
endforeach()

set(work ${KILN_BINARY_DIR}/tests/tst_install)
set(prefix ${work}/prefix)
set(failures 0)

# expect(<TRUE|FALSE> <what>): one check.
function(expect ok what)
  if(ok)
    message(STATUS "PASS   ${what}")
  else()
    message(SEND_ERROR "FAIL!  ${what}")
    math(EXPR n "${failures} + 1")
    set(failures ${n} PARENT_SCOPE)
  endif()
endfunction()

# expect_match(<text> <regex> <what>)
function(expect_match text regex what)
  set(ok FALSE)
  if(text MATCHES "${regex}")
    set(ok TRUE)
  endif()
  expect(${ok} "${what}")
  set(failures ${failures} PARENT_SCOPE)
endfunction()

# expect_file(<path>): a regular file exists there.
function(expect_file path)
  set(ok FALSE)
  if(EXISTS "${path}" AND NOT IS_DIRECTORY "${path}")
    set(ok TRUE)
  endif()
  file(RELATIVE_PATH rel "${prefix}" "${path}")
  expect(${ok} "installed: ${rel}")
  set(failures ${failures} PARENT_SCOPE)
endfunction()

# run_checked(<what> <command>...): runs a command, stops the test when it exits non-zero;
# its stdout and stderr are left in run_output.
function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "FAIL!  ${what}: exit ${rc}\n  command: ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "PASS   ${what}")
  set(run_output "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})

run_checked("cmake --install ${KILN_BINARY_DIR} --prefix ${prefix}"
  ${CMAKE_COMMAND} --install ${KILN_BINARY_DIR} --prefix ${prefix})

# bin/: the two executables and nothing else; no test or benchmark anywhere.
file(GLOB installed_bin RELATIVE ${prefix}/bin ${prefix}/bin/*)
list(SORT installed_bin)
set(ok FALSE)
if(installed_bin STREQUAL "kiln;kiln-studio")
  set(ok TRUE)
endif()
expect(${ok} "bin/ holds exactly kiln and kiln-studio (found: ${installed_bin})")
file(GLOB_RECURSE stray RELATIVE ${prefix} ${prefix}/*)
list(FILTER stray INCLUDE REGEX "(^|/)(tst_[^/]*|kiln-bench[^/]*)$")
set(ok TRUE)
if(stray)
  set(ok FALSE)
endif()
expect(${ok} "no test or benchmark executables installed (found: ${stray})")

set(desktop ${prefix}/share/applications/kiln-studio.desktop)
set(metainfo ${prefix}/share/metainfo/dev.kiln.Studio.metainfo.xml)
set(icon ${prefix}/share/icons/hicolor/scalable/apps/kiln-studio.svg)
set(mime ${prefix}/share/mime/packages/kiln.xml)
foreach(file ${prefix}/bin/kiln ${prefix}/bin/kiln-studio ${desktop} ${metainfo} ${icon} ${mime}
             ${prefix}/share/doc/kiln/README.md)
  expect_file(${file})
endforeach()

# Every example workload and doc of the source tree is installed.
file(GLOB_RECURSE workloads RELATIVE ${KILN_SOURCE_DIR}/resources/workloads
     ${KILN_SOURCE_DIR}/resources/workloads/*.py)
list(FILTER workloads EXCLUDE REGEX "__pycache__")
set(ok FALSE)
if("demo.py" IN_LIST workloads AND "bench/pointwise_chain.py" IN_LIST workloads)
  set(ok TRUE)
endif()
expect(${ok} "the source tree's example workloads: ${workloads}")
foreach(w ${workloads})
  expect_file(${prefix}/share/kiln/workloads/${w})
endforeach()
file(GLOB docs RELATIVE ${KILN_SOURCE_DIR}/docs ${KILN_SOURCE_DIR}/docs/*.md)
foreach(d ${docs})
  expect_file(${prefix}/share/doc/kiln/docs/${d})
endforeach()

# The desktop entry opens .kiln traces and workloads with Studio; the metainfo carries the version.
if(EXISTS ${desktop} AND EXISTS ${metainfo} AND EXISTS ${icon})
  file(READ ${desktop} desktop_text)
  expect_match("${desktop_text}" "\nExec=kiln-studio %f\n" ".desktop: Exec=kiln-studio %f")
  expect_match("${desktop_text}" "\nMimeType=[^\n]*application/x-kiln-trace;"
    ".desktop: MimeType has application/x-kiln-trace")
  expect_match("${desktop_text}" "\nIcon=kiln-studio\n" ".desktop: Icon=kiln-studio (the installed icon)")
  file(READ ${metainfo} metainfo_text)
  expect_match("${metainfo_text}" "<release version=\"${KILN_VERSION}\" date=\"[0-9-]+\""
    "metainfo: <release version=\"${KILN_VERSION}\" date=...>")
  expect_match("${metainfo_text}" "<launchable type=\"desktop-id\">kiln-studio.desktop<"
    "metainfo: launchable is kiln-studio.desktop")
  file(READ ${icon} icon_text)
  expect_match("${icon_text}" "<svg [^>]*viewBox=" "icon: a scalable SVG (it has a viewBox)")
endif()

# The freedesktop.org tools accept the files.
if(NOT DESKTOP_FILE_VALIDATE OR NOT APPSTREAMCLI OR NOT UPDATE_MIME_DATABASE)
  message(FATAL_ERROR "FAIL!  desktop-file-validate, appstreamcli or update-mime-database is "
                      "missing (desktop-file-utils, appstream, shared-mime-info): run "
                      "packaging/install-deps.sh, then configure again")
endif()
run_checked("desktop-file-validate share/applications/kiln-studio.desktop"
  ${DESKTOP_FILE_VALIDATE} ${desktop})
set(ok FALSE)
if(run_output STREQUAL "")
  set(ok TRUE)
endif()
expect(${ok} "desktop-file-validate has no warnings or hints: ${run_output}")
# --strict: warnings and infos fail too (only pedantic hints pass, such as the capital S of the id).
run_checked("appstreamcli validate --no-net --strict share/metainfo/dev.kiln.Studio.metainfo.xml"
  ${APPSTREAMCLI} validate --no-net --strict --no-color ${metainfo})
# validate-tree also checks the metainfo against the tree: its launchable's .desktop file exists.
run_checked("appstreamcli validate-tree --no-net --strict ${prefix}"
  ${APPSTREAMCLI} validate-tree --no-net --strict --no-color ${prefix})
# update-mime-database on a copy of the installed package file: *.kiln is application/x-kiln-trace.
file(COPY ${mime} DESTINATION ${work}/mime/packages)
run_checked("update-mime-database accepts share/mime/packages/kiln.xml"
  ${UPDATE_MIME_DATABASE} ${work}/mime)
file(READ ${work}/mime/globs2 globs)
expect_match("${globs}" "application/x-kiln-trace:\\*\\.kiln\n"
  "MIME database: *.kiln is application/x-kiln-trace")

# The installed kiln runs the installed demo workload, recording into the scratch directory.
run_checked("bin/kiln run share/kiln/workloads/demo.py --db ${work}/demo.kiln"
  ${prefix}/bin/kiln run ${prefix}/share/kiln/workloads/demo.py --db ${work}/demo.kiln --quiet)
run_checked("bin/kiln runs ${work}/demo.kiln" ${prefix}/bin/kiln runs ${work}/demo.kiln)
expect_match("${run_output}" "\n1 +ok " "the installed kiln recorded run 1 with status ok")

if(failures GREATER 0)
  message(FATAL_ERROR "tst_install: ${failures} check(s) failed; the installed tree is in ${prefix}")
endif()
file(REMOVE_RECURSE ${work})
message(STATUS "tst_install: all checks passed")
