# apertura_add_mpi_test(NAME SOURCES ... [LIBS ...] [RANKS 1 2 3] [LABELS ...])
# Builds one Qt Test program linked with apertura_mpi and registers it once per rank count as
# NAME_npN, run by tests/mpi/run_mpi.sh under `mpirun --allow-run-as-root --oversubscribe -np N`
# (label mpi). The program must start an MpiSession before QTest::qExec (see tests/mpi). Without
# mpirun on PATH the tests report skipped (77). A rank that fails a check while the others wait in
# a collective would hang: TIMEOUT turns that into a failure.
function(apertura_add_mpi_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;RANKS;LABELS" ${ARGN})
  if(NOT T_RANKS)
    set(T_RANKS 1 2 3)
  endif()
  add_executable(${name} ${T_SOURCES})
  apertura_test_moc(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE Qt6::Test apertura_test_support apertura_warnings
                                        apertura_mpi ${T_LIBS})
  foreach(np ${T_RANKS})
    add_test(NAME ${name}_np${np}
             COMMAND sh ${PROJECT_SOURCE_DIR}/tests/mpi/run_mpi.sh ${np} $<TARGET_FILE:${name}>)
    set_tests_properties(${name}_np${np} PROPERTIES
      LABELS "mpi;${T_LABELS}" SKIP_RETURN_CODE 77 TIMEOUT 180 PROCESSORS ${np}
      ENVIRONMENT "APERTURA_SHARED_DATA=${APERTURA_SHARED_DATA};APERTURA_TEST_ARTIFACTS=${APERTURA_TEST_ARTIFACTS}")
  endforeach()
endfunction()
