//===- solver/Z3Deadline.cpp - Z3's optimiser under a wall-clock limit ----===//
#include "solver/Z3Deadline.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace dlayout {

z3::check_result checkWithin(z3::context &z, z3::optimize &opt, double seconds) {
  z3::params prm(z);
  prm.set("timeout", unsigned(std::max(1.0, seconds * 1000)));
  opt.set(prm);
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread watchdog([&] {
    std::unique_lock lock(m);
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(std::max(seconds, 0.0));
    if (cv.wait_until(lock, deadline, [&] { return done; }))
      return;
    do
      z.interrupt();
    while (!cv.wait_for(lock, std::chrono::milliseconds(10), [&] { return done; }));
  });
  auto finish = [&] {
    {
      std::lock_guard lock(m);
      done = true;
    }
    cv.notify_all();
    watchdog.join();
  };
  try {
    z3::check_result r = opt.check();
    finish();
    return r;
  } catch (...) {
    finish();
    throw;
  }
}

} // namespace dlayout
