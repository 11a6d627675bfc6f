// Bad cluster and device input: each case fails with an InputError at the offending key or value
// ("t.yaml:line:column", counted by hand from the text) saying what was expected.
#include <gtest/gtest.h>

#include "expect_input_error.hpp"

namespace {

// Lines 1-7: a node template `box` with a GPU, host memory, a switch and a NIC.
const std::string kBox =
    "node_templates:\n"
    "  box:\n"
    "    devices:\n"
    "      - {id: host, type: host_memory, memory: 1GiB}\n"
    "      - {id: gpu0, type: gpu, memory: 1GiB, memory_bw: 1GB/s, fp32: 1TFLOPS}\n"
    "      - {id: nic0, type: nic}\n"
    "    links: [{a: host, b: gpu0, bw: 1GB/s}, {a: host, b: nic0, bw: 1GB/s}]\n";
const std::string kFabric = "fabric: {type: switch, link: {bw: 1GB/s}}\n";

TEST(HwClusterBadInput, ZeroNodes) {
  expect_input_error(kBox + "nodes: []\n", "t.yaml:8:8", "a cluster with zero nodes");
}

TEST(HwClusterBadInput, ZeroCount) {
  // Line 8 "nodes:", line 9 "  - {template: box, count: 0}": the 0 is at column 29.
  expect_input_error(kBox + "nodes:\n  - {template: box, count: 0}\n", "t.yaml:9:28", "expected 1 to 16384 nodes");
}

// Caps checked as the file is read, before a node is built (a 100,000-node cluster took 20 min).
TEST(HwClusterBadInput, MoreNodesThanTheCap) {
  expect_input_error(kBox + "nodes:\n  - {template: box, count: 20000}\n", "t.yaml:9:28", "expected 1 to 16384 nodes");
  // Line 10, the second group, is where 9000 + 9000 passes 16384: its map starts at column 5.
  expect_input_error(kBox + "nodes:\n  - {template: box, count: 9000}\n  - {template: box, count: 9000}\n", "t.yaml:10:5",
                     "the cluster reaches 18000 nodes here, more than the 16384 allowed");
}

TEST(HwClusterBadInput, UnknownNodeTemplate) {
  expect_input_error(kBox + "nodes:\n  - {template: dgx}\n", "t.yaml:9:16",
                     "unknown node template 'dgx' (node templates: box)");
}

TEST(HwClusterBadInput, DuplicateIdBetweenANodeAndTheTopLevel) {
  expect_input_error(kBox + "devices: [{id: n0.gpu0, type: switch}]\nnodes:\n  - {template: box}\n", "t.yaml:10:16",
                     "duplicate device id 'n0.gpu0' (first at t.yaml:8:11)");
}

TEST(HwClusterBadInput, DuplicateIdInsideANodeTemplate) {
  expect_input_error("node_templates:\n  box:\n    devices:\n      - {id: s, type: switch}\n"
                     "      - {id: s, type: switch}\nnodes: [{template: box}]\n",
                     "t.yaml:5:14", "duplicate device id 's' in this node template");
}

TEST(HwClusterBadInput, SeveralNodesNeedAFabric) {
  expect_input_error(kBox + "nodes: [{template: box, count: 2}]\n", "t.yaml:8:8",
                     "a cluster of 2 nodes needs a 'fabric:'");
}

TEST(HwClusterBadInput, NodeWithoutNic) {
  expect_input_error("node_templates:\n  bare:\n    devices: [{id: s, type: switch}]\n"
                     "nodes: [{template: bare, count: 2}]\n" + kFabric,
                     "t.yaml:4:8", "node n0 has no nic device");
}

TEST(HwClusterBadInput, UnknownFabricType) {
  expect_input_error(kBox + "nodes: [{template: box}]\nfabric: {type: torus, link: {bw: 1GB/s}}\n", "t.yaml:9:16",
                     "unknown fabric type 'torus' (expected switch or leaf-spine)");
}

TEST(HwClusterBadInput, FabricWithoutNodes) {
  expect_input_error("devices: [{id: s, type: switch}]\n" + kFabric, "t.yaml:2:9",
                     "a fabric joins cluster nodes, but there is no 'nodes:' list");
}

TEST(HwClusterBadInput, LeafSpineNeedsItsSizes) {
  expect_input_error(kBox + "nodes: [{template: box}]\nfabric: {type: leaf-spine, link: {bw: 1GB/s}, spines: 2}\n",
                     "t.yaml:9:9", "missing key 'leaf_size'");
}

TEST(HwClusterBadInput, ContentionLongerThanTheCores) {
  expect_input_error("devices:\n  - {id: c, type: cpu, cores: 2, fp32: 1TFLOPS, memory_bw: 1GB/s,\n"
                     "     contention: [1, 1.2, 1.5]}\n",
                     "t.yaml:3:18", "contention lists 3 factors (one per number of busy cores) but the cpu has 2 cores");
}

TEST(HwClusterBadInput, ContentionBelowOne) {
  expect_input_error("devices:\n  - {id: c, type: cpu, cores: 2, fp32: 1TFLOPS, memory_bw: 1GB/s, contention: [1, 0.5]}\n",
                     "t.yaml:2:83", "expected a slowdown factor >= 1");
}

TEST(HwClusterBadInput, GpuFieldOnAHostMemory) {
  expect_input_error("devices:\n  - {id: h, type: host_memory, memory: 1GiB, streams: 2}\n", "t.yaml:2:46",
                     "unknown key 'streams' for a host_memory device");
}

TEST(HwClusterBadInput, ZeroCopyEngines) {
  expect_input_error("devices:\n  - {id: g, type: gpu, memory: 1GiB, memory_bw: 1GB/s, fp32: 1TFLOPS, h2d_engines: 0}\n",
                     "t.yaml:2:84", "expected a positive whole number");
}

TEST(HwClusterBadInput, GpuDirectMustBeABoolean) {
  expect_input_error("gpudirect: maybe\ndevices: [{id: s, type: switch}]\n", "t.yaml:1:12", "expected");
}

TEST(HwClusterBadInput, UnknownIncludeAndGenerator) {
  expect_input_error("include: no-such-machine\n", "t.yaml:1:10", "unknown preset or file 'no-such-machine'");
  expect_input_error("generator: torus\nnodes: [1]\n", "t.yaml:1:12", "unknown generator 'torus'");
  expect_input_error("generator: asymgroup\nnodes: [1, 3]\n", "t.yaml:2:12", "expected 1 or 2 GPUs per node");
  expect_input_error("generator: asymgroup\nnodes: {count: 0, gpus: 1}\n", "t.yaml:2:16", "expected 1 to 16384 nodes");
  expect_input_error("generator: asymgroup\nnodes: {count: 4, gpus: 3}\n", "t.yaml:2:25", "expected 1 or 2 GPUs per node");
  expect_input_error("generator: asymgroup\nnodes: {count: 4, cpus: 3}\n", "t.yaml:2:19", "unknown key 'cpus'");
  expect_input_error("include: sortinghat-v100\ngenerator: asymgroup\nnodes: [1]\n", "t.yaml:2:12",
                     "either 'include' or 'generator'");
}

TEST(HwClusterBadInput, ErrorsInsideAnIncludedPresetNameThePresetsLines) {
  // The override names a field a gpu does not have; the error is at this file's key.
  expect_input_error("include: sortinghat-v100\ndevices:\n  - {id: gpu0, cores: 4}\n", "t.yaml:3:16",
                     "unknown key 'cores' for a gpu device");
}

}  // namespace
