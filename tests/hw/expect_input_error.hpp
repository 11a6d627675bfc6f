// Shared check for the bad-input tests: loading `yaml` as "t.yaml" must throw an InputError
// located at `where` ("t.yaml:line:column") whose message contains `what`.
#pragma once

#include <gtest/gtest.h>
#include <string>

#include "hw/topology_yaml.hpp"

inline void expect_input_error(const std::string& yaml, const std::string& where, const std::string& what) {
  try {
    placesim::hw::load_topology_text(yaml, "t.yaml");
    ADD_FAILURE() << "expected an InputError containing '" << what << "'";
  } catch (const placesim::InputError& e) {
    EXPECT_EQ(e.loc().str(), where) << e.what();
    EXPECT_NE(std::string(e.what()).find(where + ": "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}
