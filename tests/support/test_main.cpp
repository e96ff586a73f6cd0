// GoogleTest main for single-process tests: the exit code follows test_exit_code.hpp.
#include <gtest/gtest.h>

#include "test_exit_code.hpp"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (RUN_ALL_TESTS() != 0) return 1;
  return haloflag::test::exit_code_of(haloflag::test::verdict_of(*testing::UnitTest::GetInstance()));
}
