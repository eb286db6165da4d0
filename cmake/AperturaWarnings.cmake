# One interface target carries the project's warning policy so every target opts in the same way.
add_library(apertura_warnings INTERFACE)
target_compile_options(apertura_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${APERTURA_WERROR}>>:-Werror>)
