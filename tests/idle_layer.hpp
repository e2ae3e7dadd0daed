// A forwarding layer whose operations do nothing, for tests that need one registered or
// counted (its name, its records) but never run through CUDA.
#pragma once
#include <vector>

#include "cuda/forwarding.hpp"

class IdleLayer : public hostcb::Forwarder {
 public:
  using HostFn = hostcb::HostFn;
  using StatusFn = hostcb::StatusFn;
  void launch_host_func(const hostcb::GraphApi&, cudaStream_t, HostFn, void*) override {}
  cudaGraphNode_t add_host_node(const hostcb::GraphApi&, cudaGraph_t, const std::vector<cudaGraphNode_t>&, HostFn,
                                void*) override {
    return nullptr;
  }
  void add_stream_callback(const hostcb::GraphApi&, cudaStream_t, StatusFn, void*) override {}
  void begin_capture(const hostcb::GraphApi&, cudaStream_t, hostcb::CaptureMode) override {}
  hostcb::Graph end_capture(const hostcb::GraphApi&, cudaStream_t) override { return hostcb::Graph(); }
  void graph_set_host_node(const hostcb::GraphApi&, cudaGraph_t, cudaGraphNode_t, HostFn, void*) override {}
  void exec_set_host_node(const hostcb::GraphApi&, cudaGraphExec_t, cudaGraphNode_t, HostFn, void*) override {}
};
