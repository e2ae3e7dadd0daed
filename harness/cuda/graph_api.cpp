// What both GraphApi implementations share, and picking one by name.
#include "cuda/graph_api.hpp"

#include <stdexcept>

namespace hostcb {

CaptureMode parse_capture_mode(const std::string& name) {
  if (name == "global") return CaptureMode::global;
  if (name == "thread_local") return CaptureMode::thread_local_;
  if (name == "relaxed") return CaptureMode::relaxed;
  throw std::invalid_argument("unknown capture mode '" + name + "'");
}

const GraphApi& graph_api(const std::string& name) {
  if (name == "runtime") return runtime_graph_api();
  if (name == "driver") return driver_graph_api();
  throw std::invalid_argument("unknown CUDA API '" + name + "'");
}

namespace {
std::vector<cudaGraphNode_t> graph_nodes(cudaGraph_t graph) {
  std::size_t count = 0;
  HOSTCB_CUDA(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  if (count) HOSTCB_CUDA(cudaGraphGetNodes(graph, nodes.data(), &count));
  nodes.resize(count);
  return nodes;
}

bool is_host_node(cudaGraphNode_t node) {
  cudaGraphNodeType type{};
  HOSTCB_CUDA(cudaGraphNodeGetType(node, &type));
  return type == cudaGraphNodeTypeHost;
}
}  // namespace

Stream GraphApi::make_stream() const { return hostcb::make_stream(); }

Event GraphApi::make_event() const { return hostcb::make_event(); }

std::vector<cudaGraphNode_t> GraphApi::host_nodes(cudaGraph_t graph) const {
  std::vector<cudaGraphNode_t> found;
  for (auto node : graph_nodes(graph))
    if (is_host_node(node)) found.push_back(node);
  return found;
}

HostNodeParams GraphApi::host_node_params(cudaGraphNode_t node) const {
  cudaHostNodeParams params{};
  HOSTCB_CUDA(cudaGraphHostNodeGetParams(node, &params));
  return {params.fn, params.userData};
}

GraphShape GraphApi::graph_shape(cudaGraph_t graph) const {
  std::vector<cudaGraphNode_t> nodes = graph_nodes(graph);
  GraphShape shape;
  shape.nodes = nodes.size();
  for (auto node : nodes) shape.host_nodes += is_host_node(node);
  return shape;
}

void StatusCall::deliver(void* record, void* stream, int status) noexcept {
  auto* call = static_cast<StatusCall*>(record);
  call->fn(stream, status, call->user_data);
  delete call;
}

void StatusCall::discard(void* record) noexcept { delete static_cast<StatusCall*>(record); }

}  // namespace hostcb
