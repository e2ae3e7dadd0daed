// Catch2 2.13 (Debian 12) and 3.x (Ubuntu 24.04) behind one include.
#pragma once
#if HOSTCB_CATCH2_MAJOR >= 3
#include <catch2/catch_test_macros.hpp>
#else
#include <catch2/catch.hpp>
#endif

#include <string>

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
