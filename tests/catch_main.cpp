// Catch2 3 brings its own main (Catch2::Catch2WithMain); Catch2 2 needs one defined here.
#if HOSTCB_CATCH2_MAJOR < 3
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#endif
