#include "protocol/worker_protocol.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "model/enum_table.hpp"
#include "model/result_json.hpp"

namespace hostcb::protocol {

namespace {

using Json = nlohmann::ordered_json;

constexpr EnumTable<EventKind, 4> kEventKinds{
    "an event", {{{EventKind::ready, "ready"}, {EventKind::start, "start"}, {EventKind::result, "result"},
                  {EventKind::done, "done"}}}};

// The marker starts with a control character no scenario prints (RS, 0x1e).
constexpr const char kMark[] = "\x1ehostcb-worker-mark";

std::string line_of(const Json& json) {
  return json.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

Json orphans_json(const OrphanCounts& orphans) {
  Json out = Json::object();
  for (const auto& [id, count] : orphans.by_scenario()) out[id] = count;
  return out;
}

}  // namespace

std::vector<std::string> worker_command(const std::string& program, const std::vector<std::string>& adapters) {
  std::vector<std::string> command = {program, "worker"};
  for (const auto& spec : adapters) {  // workers load the same layers
    command.push_back("--adapter");
    command.push_back(spec);
  }
  return command;
}

std::vector<std::string> worker_argv(const std::vector<std::string>& command, int device) {
  std::vector<std::string> argv = command;
  argv.push_back("--device");
  argv.push_back(std::to_string(device));
  return argv;
}

std::string encode(const RunCommand& command) {
  Json json = {{"run", command.id}, {"index", command.index}};
  if (!command.with.empty()) json["with"] = command.with;
  return line_of(json);
}

RunCommand decode_command(const std::string& line) {
  Json json = Json::parse(line);
  RunCommand command{json.at("index").get<std::size_t>(), json.at("run").get<std::string>(), {}};
  if (json.contains("with")) command.with = json.at("with").get<std::vector<std::string>>();
  return command;
}

std::string encode(const Event& event) {
  Json json = {{"event", kEventKinds.name(event.kind)}};
  if (event.kind == EventKind::start || event.kind == EventKind::result) json["index"] = event.index;
  if (event.kind == EventKind::result) {
    json["cause"] = kSkipCauses.name(event.result.cause);
    json["result"] = result_to_json(event.result);
    if (!event.retire.empty()) json["retire"] = event.retire;
  }
  if (event.kind == EventKind::result || event.kind == EventKind::done) json["orphans"] = orphans_json(event.orphans);
  return line_of(json);
}

Event decode_event(const std::string& line) {
  Json json = Json::parse(line);
  const std::string kind = json.at("event").get<std::string>();
  Event event;
  if (auto known = kEventKinds.find(kind))
    event.kind = *known;
  else
    throw std::invalid_argument("unknown event '" + kind + "'");
  if (event.kind == EventKind::start || event.kind == EventKind::result) event.index = json.at("index").get<std::size_t>();
  if (event.kind == EventKind::result) {
    event.result = result_from_json(json.at("result"));
    event.result.cause = kSkipCauses.parse(json.at("cause").get<std::string>());
    if (json.contains("retire")) event.retire = json.at("retire").get<std::string>();
  }
  if (json.contains("orphans"))
    for (const auto& [id, count] : json.at("orphans").items()) event.orphans.add(id, count.get<std::uint64_t>());
  return event;
}

std::string output_mark(const char* what, std::size_t index) { return str(kMark, " ", what, " ", index, "\n"); }

std::size_t after_last_mark(const std::string& text) {
  std::size_t at = text.rfind(kMark);
  return at == std::string::npos ? at : at + sizeof kMark - 1;
}

bool is_mark(const std::string& line) { return line.find(kMark) != std::string::npos; }

std::optional<std::string> LineBuffer::next() {
  std::size_t nl = pending_.find('\n');
  if (nl == std::string::npos) return std::nullopt;
  std::string line = pending_.substr(0, nl);
  pending_.erase(0, nl + 1);
  return line;
}

bool write_all(int fd, const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::optional<RunCommand> WorkerChannel::next_command() {
  for (;;) {
    if (auto line = commands_.next()) {
      if (line->empty()) continue;
      return decode_command(*line);
    }
    if (!commands_open_) return std::nullopt;
    char buffer[4096];
    ssize_t n = ::read(kCommandsFd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      commands_open_ = false;  // end of file: no more work (a line without its newline is dropped)
      continue;
    }
    commands_.feed(buffer, static_cast<std::size_t>(n));
  }
}

bool WorkerChannel::send(const Event& event) { return write_all(kEventsFd, encode(event)); }

}  // namespace hostcb::protocol
