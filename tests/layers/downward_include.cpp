// Code of the hw layer including its own layer's headers and the ground's: compiles with the hw
// layer's include roots (the control for upward_include.cpp).
#include "hw/topology.hpp"
#include "sim/core/error.hpp"
