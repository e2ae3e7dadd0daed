// hostcb worker (internal, hidden): runs scenarios for a supervisor (protocol/worker_protocol.hpp).
#include "app/command.hpp"
#include "app/options.hpp"
#include "runner/worker.hpp"

namespace hostcb {

namespace {

class WorkerCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* worker = app.add_subcommand("worker", "internal: run scenarios for a supervisor");
    worker->group("");  // hidden from --help
    worker->add_option("--device", device_)->required();
    add_adapter_option(worker, adapters_);
    return worker;
  }
  std::vector<std::string> adapters() const override { return adapters_; }
  AdapterCheck adapter_check() const override { return AdapterCheck::in_process; }
  int run(const Registry& registry, const std::string&) override {
    return worker_main(registry, device_);
  }

 private:
  int device_ = 0;
  std::vector<std::string> adapters_;
};

}  // namespace

std::unique_ptr<Command> make_worker_command() { return std::make_unique<WorkerCommand>(); }

}  // namespace hostcb
