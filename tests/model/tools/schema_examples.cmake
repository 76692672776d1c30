# ctest -P script: write the fixtures' documents with `TOOL write OUT`, then
# validate them and DOCUMENTS (the checked-in examples) with VALIDATE.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${TOOL} write ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TOOL} write ${OUT} failed: ${rc}")
endif()
file(GLOB written ${OUT}/*.json)
list(LENGTH written count)
if(count LESS 3)
  message(FATAL_ERROR "expected at least 3 documents in ${OUT}, got ${count}")
endif()
execute_process(COMMAND ${PYTHON} ${VALIDATE} ${written} ${DOCUMENTS}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "validate.py rejected a document (exit ${rc})")
endif()
