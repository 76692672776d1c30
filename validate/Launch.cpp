//===- validate/Launch.cpp - Run a job with a time limit ------------------===//
#include "validate/Launch.h"

#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace dlayout::validate {

Result<LaunchOutcome> launch(const std::vector<std::string> &argv, const LaunchOptions &o) {
  if (argv.empty()) return makeError("launch: no program");
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  auto out = o.stdoutPath.empty() ? std::string("/dev/null") : o.stdoutPath;
  auto err = o.stderrPath.empty() ? std::string("/dev/null") : o.stderrPath;
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (!o.workingDirectory.empty())
    posix_spawn_file_actions_addchdir_np(&fa, o.workingDirectory.c_str());
  posix_spawnattr_setpgroup(&attr, 0); // a group of its own: killed as one
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);

  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) {
    std::string s = *e;
    auto eq = s.find('=');
    if (eq != std::string::npos && o.environment.count(s.substr(0, eq))) continue;
    env.push_back(s);
  }
  for (const auto &[k, v] : o.environment) env.push_back(k + "=" + v);
  std::vector<char *> cargv, cenv;
  for (auto &a : argv) cargv.push_back(const_cast<char *>(a.c_str()));
  cargv.push_back(nullptr);
  for (auto &e : env) cenv.push_back(const_cast<char *>(e.c_str()));
  cenv.push_back(nullptr);

  pid_t pid = 0;
  auto start = std::chrono::steady_clock::now();
  int rc = posix_spawnp(&pid, argv[0].c_str(), &fa, &attr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return makeError("cannot run " + argv[0] + ": " + std::strerror(rc));

  LaunchOutcome res;
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  int status = 0;
  bool killed = false;
  double termAt = -1;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return makeError("waiting for " + argv[0] + " failed");
    double t = elapsed();
    if (!killed && t > o.timeoutSeconds) {
      res.timedOut = true;
      killpg(pid, SIGTERM);
      killed = true;
      termAt = t;
    } else if (killed && t > termAt + 3) {
      killpg(pid, SIGKILL);
      termAt = 1e300;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(t < 1 ? 5 : 50));
  }
  // Ranks the launcher left behind in its group go too.
  killpg(pid, SIGKILL);
  res.seconds = elapsed();
  if (WIFEXITED(status)) res.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) res.signal = WTERMSIG(status);
  return res;
}

Result<std::string> makeRunDirectory(const std::string &purpose) {
  const char *tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/dlayout-" + purpose + "-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) return makeError("cannot create a run directory under " + templ);
  return std::string(buf.data());
}

Status writeText(const std::string &path, const std::string &text) {
  std::ofstream f(path);
  f << text;
  if (!f) return makeError("cannot write " + path);
  return success();
}

} // namespace dlayout::validate
