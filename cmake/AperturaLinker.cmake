# The gold linker (part of binutils, so present wherever g++ is) links a test or the application
# against Qt, VTK and casacore about six times faster than the default BFD linker: on two cores
# that was two minutes of a cold build. Off, or where the compiler cannot use it, the default
# linker is used. Only C and C++ links: nvcc does not know the option.
option(APERTURA_GOLD_LINKER "Link with the gold linker when the compiler supports it" ON)
if(APERTURA_GOLD_LINKER)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=gold" APERTURA_HAS_GOLD_LINKER)
  if(APERTURA_HAS_GOLD_LINKER)
    add_link_options("$<$<LINK_LANGUAGE:CXX,C>:-fuse-ld=gold>")
  endif()
endif()
