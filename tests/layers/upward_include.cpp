// Code of the hw layer including a header of the application layer above it: with the hw
// layer's include roots the header is not found, so the wrong-way include cannot compile.
#include "app/explore/scenario.hpp"
