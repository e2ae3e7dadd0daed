// What a bad result offers (app/rerun_commands.hpp): the command that re-runs it alone,
// with the run's --adapter specs, and for a layer's scenario with reproducer steps the
// `hostcb repro` command, with the --adapter repro needs; nothing for good results.
#include <memory>
#include <string>

#include "app/rerun_commands.hpp"
#include "catch_compat.hpp"
#include "cuda/forwarding.hpp"
#include "idle_layer.hpp"

using namespace hostcb;

namespace {

// A layer from outside hostcb, as an adapter registers it; its operations never run here.
class OutsideLayer final : public IdleLayer {
 public:
  explicit OutsideLayer(const char* name) : name_(name) {}
  const char* name() const override { return name_; }

 private:
  const char* name_;
};

void register_outside_layers() {
  static const bool once = [] {
    register_forwarder(std::make_unique<OutsideLayer>("mylayer"));
    register_forwarder(std::make_unique<OutsideLayer>("cuda_bindings_runtime"));
    return true;
  }();
  (void)once;
}

Result bad(const std::string& id, Status status = Status::failed) {
  Result r;
  r.id = id;
  r.family = id.substr(0, id.find('/'));
  for (std::size_t at = id.find('/'); at != std::string::npos;) {
    const std::size_t next = id.find('/', at + 1);
    const std::string item = id.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    r.params.add(item.substr(0, item.find('=')), item.substr(item.find('=') + 1));
    at = next;
  }
  r.status = status;
  return r;
}

std::string property(const Result& r, const std::string& name) {
  for (const auto& [key, value] : r.properties)
    if (key == name) return value;
  return "(none)";
}

}  // namespace

TEST_CASE("a failure names its rerun command and, through a layer with steps, its reproducer", "[rerun]") {
  register_outside_layers();
  const std::string id = "replay/api=runtime/forward=mylayer/build=node/replays=2/sync=end";
  Result r = bad(id);
  add_rerun_commands(r, {{"/opt/lib/libmylayer.so@verbose=1", "build/libother.so"}, {}, false});
  CHECK(property(r, "rerun") ==
        "hostcb run --filter " + id + " --adapter /opt/lib/libmylayer.so@verbose=1 --adapter build/libother.so");
  CHECK(property(r, "reproduce") == "hostcb repro " + id + " --adapter /opt/lib/libmylayer.so@verbose=1");

  // A shipped module by its ready name: repro finds it from forward= alone.
  Result py = bad("update/api=driver/forward=cuda_bindings_runtime/case=graph_set_params/build=capture/replays=2", Status::error);
  add_rerun_commands(py, {{"cuda_bindings:runtime"}, {}, false});
  CHECK(property(py, "rerun") == "hostcb run --filter " + py.id + " --adapter cuda_bindings:runtime");
  CHECK(property(py, "reproduce") == "hostcb repro " + py.id);

  // The Python adapter library with a shipped module named in its options.
  Result lib = bad("replay/api=runtime/forward=cuda_bindings_runtime/build=node/replays=2/sync=end");
  add_rerun_commands(lib, {{"build/libhostcb_python_runtime.so@module=hostcb_layers.cuda_bindings_runtime", "x.so"}, {}, false});
  CHECK(property(lib, "reproduce") ==
        "hostcb repro " + lib.id + " --adapter build/libhostcb_python_runtime.so@module=hostcb_layers.cuda_bindings_runtime");

  // An id with a value only --axis gives is selected again with it.
  Result seven = bad("replay/api=runtime/forward=direct/build=node/replays=7/sync=end");
  add_rerun_commands(seven, {{}, {"replays=7", "sync=end"}, false});
  CHECK(property(seven, "rerun") == "hostcb run --filter " + seven.id + " --axis replays=7 --axis sync=end");

  // CUDA itself is reproducible too: the baseline a layer is compared with.
  Result direct = bad("stream_callback/api=runtime/forward=direct/gate=open/callbacks=5", Status::xpass);
  add_rerun_commands(direct, {});
  CHECK(property(direct, "reproduce") == "hostcb repro " + direct.id);
}

TEST_CASE("no reproducer is offered for hostcb's own layers or a family without steps, nothing for good results", "[rerun]") {
  register_outside_layers();
  Result own = bad("replay/api=runtime/forward=oneshot/build=node/replays=1/sync=end");
  add_rerun_commands(own, {});
  CHECK(property(own, "rerun") == "hostcb run --filter " + own.id);
  CHECK(property(own, "reproduce") == "(none)");
  // A known-bad control is selected only with --controls.
  Result control = bad("replay/api=runtime/forward=oneshot/build=node/replays=2/sync=end");
  add_rerun_commands(control, {{}, {}, true});
  CHECK(property(control, "rerun") == "hostcb run --controls --filter " + control.id);

  Result no_steps = bad("lifetime/api=runtime/forward=mylayer/case=user_object/build=capture/replays=2");
  add_rerun_commands(no_steps, {{"libmylayer.so"}, {}, false});
  CHECK(property(no_steps, "rerun") != "(none)");
  CHECK(property(no_steps, "reproduce") == "(none)");

  Result held = bad("stream_callback/api=runtime/forward=mylayer/gate=held/callbacks=5");
  add_rerun_commands(held, {{"libmylayer.so"}, {}, false});
  CHECK(property(held, "reproduce") == "(none)");

  for (Status good : {Status::passed, Status::skipped, Status::xfail}) {
    Result r = bad("replay/api=runtime/forward=mylayer/build=node/replays=2/sync=end", good);
    add_rerun_commands(r, {{"libmylayer.so"}, {}, false});
    CHECK(r.properties.empty());
  }
}
