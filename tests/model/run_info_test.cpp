// The MPI settings recorded beside every measurement: the transport entries of the environment,
// sorted, and none of the entries Open MPI's launcher sets for itself.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "run_info.hpp"

namespace {

using haloflag::model::calibration::describe_mpi_settings;
using haloflag::model::calibration::mpi_settings_of;

TEST(RunInfo, MpiSettingsKeepTheTransportEntriesSorted) {
  const char* environment[] = {"PATH=/usr/bin",
                               "OMPI_MCA_btl_vader_single_copy_mechanism=cma",
                               "OMPI_MCA_orte_hnp_uri=929955840.0;tcp://192.0.2.2:46551",
                               "OMPI_MCA_ess_base_vpid=0",
                               "UCX_TLS=sm,self",
                               "MPIR_CVAR_CH4_SHM_POSIX_EAGER=iqueue",
                               "OMPI_MCA_pml=ob1",
                               "HOME=/root",
                               nullptr};
  const std::vector<std::string> expected = {"MPIR_CVAR_CH4_SHM_POSIX_EAGER=iqueue",
                                             "OMPI_MCA_btl_vader_single_copy_mechanism=cma",
                                             "OMPI_MCA_pml=ob1", "UCX_TLS=sm,self"};
  EXPECT_EQ(mpi_settings_of(environment), expected);
  EXPECT_EQ(describe_mpi_settings(expected),
            "MPIR_CVAR_CH4_SHM_POSIX_EAGER=iqueue OMPI_MCA_btl_vader_single_copy_mechanism=cma "
            "OMPI_MCA_pml=ob1 UCX_TLS=sm,self");
}

TEST(RunInfo, NoSettingsIsSaidInWords) {
  const char* environment[] = {"PATH=/usr/bin", nullptr};
  EXPECT_TRUE(mpi_settings_of(environment).empty());
  EXPECT_TRUE(mpi_settings_of(nullptr).empty());
  EXPECT_EQ(describe_mpi_settings({}), "none set in the environment");
}

}  // namespace
