/// @file
/// Choosing a rank grid automatically (Comb's -divide when no grid is given).
#pragma once

#include "haloflag/halo/index3.hpp"

namespace haloflag::halo {

/// Factors `ranks` into px*py*pz so that the largest subdomain has the smallest surface (the
/// most cubic split, hence the least halo traffic). Grids that would leave a rank without cells
/// are not considered. Ties go to the lexicographically largest (px, py, pz), i.e. x is split
/// first, so the choice is deterministic. Throws GeometryError when ranks <= 0, a size is <= 0,
/// or no grid gives every rank at least one cell.
RankGrid auto_divide(int ranks, const Index3& global_size);

}  // namespace haloflag::halo
