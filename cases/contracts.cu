// contracts: the documented restrictions on host functions in graphs, each with what CUDA
// returned on driver 580.159.04 (../shared/cuda-facts.md) as data. A driver that answers
// otherwise fails the scenario, which prints expected and observed codes.
//
//   device_launch               a graph holding a host node, instantiated for device
//                               launch: cudaErrorInvalidValue, result NodeOperationNotSupported
//   host_node_in_if_body        a host node in the body of an IF (WHILE) conditional node:
//   host_node_in_while_body     adding it succeeds, instantiating the parent graph fails
//                               with cudaErrorInvalidValue (CUDA 12.4 or newer)
//   stream_callback_in_capture  capture_contract's check (global mode)
//   cuda_call_in_host_fn        callback_fault's calls_cuda: a host function queries its stream
// Nothing here is launched: the host function must never be called.
#include "cases/cases.hpp"
#include "cases/contract_checks.hpp"
#include "model/errors.hpp"
#include "runner/scenario_run.hpp"

namespace hostcb::cases {

namespace {

// 1 is cudaErrorInvalidValue and CUDA_ERROR_INVALID_VALUE alike.
constexpr int kDeviceLaunchInstantiate = 1;
constexpr int kDeviceLaunchResultInfo = 3;  // cudaGraphInstantiateNodeOperationNotSupported
constexpr int kConditionalParentInstantiate = 1;

void check_code(ScenarioRun& run, const char* what, const ApiResult& got, int want) {
  const GraphApi& api = run.api();
  run.set_property("observed", str(got.name, " (", got.code, ")"));
  HOSTCB_EXPECT(got.code == want, str("[contract] ", what, " returned ", got.name, " (", got.code, "); expected ", api.error_name(want),
                                      " (", want, ")"));
}

void check_device_launch(ScenarioRun& run) {
  const GraphApi& api = run.api();
  Graph graph = api.create_graph();
  api.add_host_node(graph.get(), {}, Probe::host_fn(), run.probe()->user_data(0));
  GraphExec exec;
  int result_info = -1;
  ApiResult got = api.try_instantiate_for_device_launch(graph.get(), exec, result_info);
  check_code(run, "instantiating a graph with a host node for device launch", got, kDeviceLaunchInstantiate);
  run.set_property("instantiate_result", std::to_string(result_info));
  HOSTCB_EXPECT(result_info == kDeviceLaunchResultInfo,
                str("[contract] the instantiate result was ", result_info, "; expected ", kDeviceLaunchResultInfo,
                    " (NodeOperationNotSupported)"));
}

void check_conditional_body(ScenarioRun& run, ConditionalKind kind) {
  const GraphApi& api = run.api();
  Graph parent = api.create_graph();
  // IF starts true so a wrongly accepted graph would call the host function if launched;
  // WHILE starts false so it could not loop forever. Neither is launched.
  cudaGraph_t body = api.add_conditional_node(parent.get(), kind, kind == ConditionalKind::if_ ? 1 : 0);
  api.add_host_node(body, {}, Probe::host_fn(), run.probe()->user_data(0));  // accepted: checked call
  GraphExec exec;
  ApiResult got = api.try_instantiate(parent.get(), exec);
  check_code(run, "instantiating a graph whose conditional body holds a host node", got, kConditionalParentInstantiate);
}

void contracts_body(ScenarioRun& run) {
  const std::string& contract = run.param("contract");
  if (contract == "stream_callback_in_capture") return check_stream_callback_in_capture(run, CaptureMode::global);
  if (contract == "cuda_call_in_host_fn") return run_callback_fault(run, "calls_cuda");
  run.make_probe(1, 0);
  if (contract == "device_launch") return check_device_launch(run);
  check_conditional_body(run, contract == "host_node_in_if_body" ? ConditionalKind::if_ : ConditionalKind::while_);
}

}  // namespace

Family contracts_family() {
  Family family;
  family.name = "contracts";
  family.summary = "documented restrictions: device-launch graphs, conditional bodies, callbacks in capture, CUDA in a host function";
  family.axes = {
      api_axis(),
      Axis::choice("contract", {"device_launch", "host_node_in_if_body", "host_node_in_while_body",
                                "stream_callback_in_capture", "cuda_call_in_host_fn"}),
  };
  family.body = contracts_body;
  family.requirements = [](const Params& p) {
    Requirements needs;
    const std::string& contract = p.get("contract");
    if (contract == "host_node_in_if_body" || contract == "host_node_in_while_body")
      needs.min_runtime = needs.min_driver = 12040;
    else if (contract == "device_launch")
      needs.min_runtime = needs.min_driver = 12000;
    return needs;
  };
  return family;
}

HOSTCB_FAMILY(contracts_family);

}  // namespace hostcb::cases
