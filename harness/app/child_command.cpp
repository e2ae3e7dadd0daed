#include "app/child_command.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "exec/worker_process.hpp"

extern char** environ;

namespace hostcb {

ChildEnd run_child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& environment,
                   const std::string& log) {
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    if (!environment.count(entry.substr(0, entry.find('=')))) env_text.push_back(entry);
  }
  for (const auto& [name, value] : environment) env_text.push_back(name + "=" + value);
  std::vector<char*> args, env;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  for (const auto& e : env_text) env.push_back(const_cast<char*>(e.c_str()));
  args.push_back(nullptr);
  env.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  const int failed = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) return {127, "could not start " + argv[0] + ": " + std::strerror(failed)};
  int status = 0;
  pid_t waited;
  while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (waited < 0) return {127, "could not wait for " + argv[0] + ": " + std::strerror(errno)};
  if (WIFEXITED(status)) return {WEXITSTATUS(status), "exit " + std::to_string(WEXITSTATUS(status))};
  return {128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0), describe_exit(status)};
}

std::string last_line_of(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last.substr(0, 300);
}

}  // namespace hostcb
