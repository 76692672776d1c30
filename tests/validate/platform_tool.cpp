// Writes the SimGrid platform (its options in <config>) and the hostfile
// validate/Platform.h makes for a machine (a preset name or a
// dlayout-machine/1 file) and P, for tests/validate/test_validate.py's
// ping-pong and shift checks.
//   validate_platform_tool MACHINE P PLATFORM.xml HOSTS.txt
#include "costmodels/MachinePresets.h"
#include "validate/Platform.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s MACHINE P PLATFORM HOSTS\n", argv[0]);
    return 2;
  }
  auto m = dlayout::loadMachine(argv[1]);
  if (!m) { std::fprintf(stderr, "error: %s\n", m.error().message.c_str()); return 1; }
  auto p = dlayout::validate::platformFor(*m, std::atoi(argv[2]));
  if (!p) { std::fprintf(stderr, "error: %s\n", p.error().message.c_str()); return 1; }
  std::ofstream(argv[3]) << p->xml;
  std::ofstream h(argv[4]);
  for (auto &x : p->hosts) h << x << "\n";
  return 0;
}
