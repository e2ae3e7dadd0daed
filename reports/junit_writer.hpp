// JUnit XML, as CI systems read it: <testsuites>, one <testsuite> per family, one
// <testcase> per scenario (classname = family, name = the rest of the id). The format
// is pinned down by reports/junit.xsd, against which the tests validate our output.
#pragma once
#include <string>

#include "model/result.hpp"

namespace hostcb {

std::string junit_xml(const RunReport& report);

}  // namespace hostcb
