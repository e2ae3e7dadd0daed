#include "cases/fuzz/program.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace hostcb::fuzz {

const char* op_name(OpKind kind) {
  switch (kind) {
    case OpKind::capture: return "capture";
    case OpKind::nodes: return "nodes";
    case OpKind::instantiate: return "instantiate";
    case OpKind::clone: return "clone";
    case OpKind::graph_set_host: return "graph_set_host";
    case OpKind::exec_set_host: return "exec_set_host";
    case OpKind::exec_update: return "exec_update";
    case OpKind::launch: return "launch";
    case OpKind::sync: return "sync";
    case OpKind::destroy_graph: return "destroy_graph";
    case OpKind::destroy_exec: return "destroy_exec";
    case OpKind::stream_callback: return "stream_callback";
    case OpKind::fork: return "fork";
    case OpKind::join: return "join";
  }
  return "?";
}

const char* op_set_name(OpSet set) { return set == OpSet::all ? "all" : "graph"; }

OpSet parse_op_set(const std::string& name) {
  if (name == "graph") return OpSet::graph;
  if (name == "all") return OpSet::all;
  throw std::invalid_argument("ops '" + name + "': graph or all");
}

const char* capture_mode_name(int mode) {
  return mode == 1 ? "thread_local" : mode == 2 ? "relaxed" : "global";
}

namespace {

std::string item_text(const Item& item) {
  switch (item.kind) {
    case ItemKind::host: return "host h" + std::to_string(item.id);
    case ItemKind::kernel: return "kernel k" + std::to_string(item.id);
    case ItemKind::memcpy: return "memcpy k" + std::to_string(item.id);
    case ItemKind::empty: return "empty";
    case ItemKind::child: return "child(g" + std::to_string(item.id) + ")";
  }
  return "?";
}

std::string g(int op) { return "g" + std::to_string(op); }
std::string e(int op) { return "e" + std::to_string(op); }

}  // namespace

std::string op_text(const Op& op, int index) {
  std::ostringstream out;
  out << index << ". ";
  if (op.thread > 0) out << "[t" << op.thread << "] ";
  switch (op.kind) {
    case OpKind::capture: {
      int streams = 1;
      for (const auto& item : op.items) streams = std::max(streams, item.stream + 1);
      out << g(op.index) << " = capture " << (op.by_layer ? "by the layer " : "") << "(" << capture_mode_name(op.mode)
          << ", " << streams << " stream" << (streams > 1 ? "s" : "") << "):";
      for (int s = 0; s < streams; ++s) {
        out << " s" << s << "[";
        bool first = true;
        for (std::size_t i = 0; i < op.items.size(); ++i) {
          if (op.items[i].stream != s) continue;
          out << (first ? "" : ", ") << "n" << op.items[i].name << " " << item_text(op.items[i]);
          first = false;
        }
        out << "]";
      }
      break;
    }
    case OpKind::nodes:
      out << g(op.index) << " = nodes:";
      for (std::size_t i = 0; i < op.items.size(); ++i) {
        out << (i ? ";" : "") << " n" << op.items[i].name << " " << item_text(op.items[i]);
        for (std::size_t d = 0; d < op.items[i].deps.size(); ++d)
          out << (d ? "," : " after ") << "n" << op.items[i].deps[d];
      }
      break;
    case OpKind::instantiate: out << e(op.index) << " = instantiate " << g(op.graph); break;
    case OpKind::clone: out << g(op.index) << " = clone " << g(op.graph); break;
    case OpKind::graph_set_host:
      out << "set host node n" << op.node << " of " << g(op.graph) << " to h" << op.site;
      break;
    case OpKind::exec_set_host:
      out << "set host node n" << op.node << " in " << e(op.exec) << " to h" << op.site;
      break;
    case OpKind::exec_update: out << "update " << e(op.exec) << " from " << g(op.graph); break;
    case OpKind::launch:
      out << "launch " << e(op.exec) << " on stream " << op.stream << " x" << op.times;
      break;
    case OpKind::sync:
      if (op.stream < 0)
        out << "synchronize the device";
      else
        out << "synchronize stream " << op.stream;
      break;
    case OpKind::destroy_graph: out << "destroy " << g(op.graph); break;
    case OpKind::destroy_exec: out << "destroy " << e(op.exec); break;
    case OpKind::stream_callback: out << "stream callback h" << op.site << " on stream " << op.stream; break;
    case OpKind::fork: out << "fork " << op.threads << " threads (every launch stream synchronized first)"; break;
    case OpKind::join: out << "join the threads"; break;
  }
  return out.str();
}

std::string to_text(const Program& program) {
  std::ostringstream out;
  out << "seed " << program.seed << ", size " << program.size << (program.set == OpSet::all ? ", all operations" : "")
      << ": " << program.api << " API, " << program.streams
      << " launch stream" << (program.streams > 1 ? "s" : "") << ", " << program.ops.size() << " operations\n";
  for (std::size_t i = 0; i < program.ops.size(); ++i) out << op_text(program.ops[i], static_cast<int>(i) + 1) << "\n";
  return out.str();
}

}  // namespace hostcb::fuzz
