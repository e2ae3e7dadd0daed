// hostcb report --summary: short, bounded, and saying the verdict, the counts per
// environment and layer, what differs and the first failures.
#include <string>

#include "catch_compat.hpp"
#include "recorded_runs.hpp"
#include "matrix/matrix.hpp"
#include "matrix/summary_writer.hpp"

using namespace hostcb;

TEST_CASE("the summary of one run says 1 environment, the verdict, the layer's counts and the first failures", "[summary]") {
  MatrixReport report;
  add_results_file(report.matrix, recorded_cuda_bindings_run("13.3.1"));
  const std::string md = matrix_summary(report);
  CHECK(contains(md, "## hostcb: 160 scenarios in 1 environment\n"));
  CHECK_FALSE(contains(md, "1 environments"));
  CHECK(contains(md, "**red**: 88 failed, error or xpass cell(s)"));
  CHECK(contains(md, "| 66 passed, 0 failed, 88 error, 6 skipped |"));
  CHECK(contains(md, "cuda\\_bindings\\_runtime\\: 160 \\(66 passed, 0 failed, 88 error, 6 skipped\\)"));
  CHECK(contains(md, "### First failures: 10 of 88"));
  CHECK(contains(md, "the worker killed by signal SIGSEGV \\(11\\) at launch 2 of 2"));
  CHECK(contains(md, "### What differs: 0 scenario(s)"));
  // Each environment row names the file it came from: in a CI merge, the job's folder
  // (issue 43, item 4: two jobs on one machine and layer read the same).
  CHECK(contains(md, "| from |"));
  CHECK(contains(md, "cuda-bindings-13.3.1.json |\n"));
}

TEST_CASE("the summary of two layer versions says what differs between them, and green when all pass", "[summary]") {
  MatrixReport fixed;
  add_results_file(fixed.matrix, recorded_cuda_bindings_run("13.5.0"));
  CHECK(contains(matrix_summary(fixed), "**green**"));
  CHECK_FALSE(contains(matrix_summary(fixed), "First failures"));

  MatrixReport both;
  add_results_file(both.matrix, recorded_cuda_bindings_run("13.3.1"));
  add_results_file(both.matrix, recorded_cuda_bindings_run("13.5.0"));
  const std::string md = matrix_summary(both);
  CHECK(contains(md, "160 scenarios in 2 environments"));
  CHECK(contains(md, "### What differs: 88 scenario(s)"));
  CHECK(contains(md, "error in \\#1, passed in \\#2"));
}

TEST_CASE("the summary stays under 60 KB however large the matrix", "[summary]") {
  MatrixReport report;
  Matrix& m = report.matrix;
  const std::string long_text(3000, 'x');
  for (std::size_t c = 0; c < 60; ++c) {
    MatrixColumn column;
    column.key = column.label = "env" + std::to_string(c) + long_text;
    column.driver = "580." + std::to_string(c);
    column.layers = {{"layer" + long_text, "", {{"pkg", "1.0"}}}};
    m.columns.push_back(column);
  }
  for (std::size_t s = 0; s < 2000; ++s) {
    const std::string id = "fam/case=" + std::to_string(s) + "/" + long_text;
    m.scenarios.push_back(id);
    for (std::size_t c = 0; c < m.columns.size(); ++c)
      m.cells[id][c] = {c % 2 ? Status::error : Status::passed, "boom " + long_text};
  }
  const std::string md = matrix_summary(report);
  CHECK(md.size() < kSummaryMaxBytes);
  CHECK(contains(md, "and 20 more environment(s)"));
  CHECK(contains(md, "### First failures: 10 of 60000"));
}
