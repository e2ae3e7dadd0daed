#include "forwarding.hpp"

#include <stdexcept>

namespace hostcb {

namespace {
// The CUDA API itself: (fn, userData) go to CUDA untouched.
class DirectForwarder final : public Forwarder {
 public:
  const char* name() const override { return "direct"; }
  void launch_host_func(const GraphApi& api, cudaStream_t stream, HostFn fn, void* user_data) override {
    api.launch_host_func(stream, fn, user_data);
  }
  cudaGraphNode_t add_host_node(const GraphApi& api, cudaGraph_t graph, const std::vector<cudaGraphNode_t>& deps,
                                HostFn fn, void* user_data) override {
    return api.add_host_node(graph, deps, fn, user_data);
  }
};
}  // namespace

Forwarder& forwarder(const std::string& name) {
  static DirectForwarder direct;
  if (name == direct.name()) return direct;
  throw std::invalid_argument("unknown forwarding layer '" + name + "'");
}

std::vector<std::string> forwarder_names() { return {"direct"}; }

}  // namespace hostcb
